/**
 * Correctly signed requests whose body is not what Slack sends: the app answers 400 or a quiet ack,
 * never a crash, a 500 or a 3 s timeout, and keeps serving.
 */
import crypto from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TASK_VIEW } from '../../../src/slack/tasks/ids.js';
import { Harness, SIGNING_SECRET, sign, TEAM } from '../../helpers/slack-harness.js';

describe('signed but malformed requests', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
  });
  afterAll(() => h.close());

  /** The app still answers a real command afterwards. */
  async function stillServes() {
    const res = await h.command('help');
    expect(res.status).toBe(200);
  }

  it.each([
    ['form payload=null', 'payload=null', 'application/x-www-form-urlencoded'],
    ['form payload=42', 'payload=42', 'application/x-www-form-urlencoded'],
    ['form payload="text"', 'payload=%22text%22', 'application/x-www-form-urlencoded'],
    ['form payload=[]', 'payload=%5B%5D', 'application/x-www-form-urlencoded'],
    ['JSON null', 'null', 'application/json'],
    ['JSON array', '[1,2]', 'application/json'],
    ['JSON string', '"x"', 'application/json'],
  ])('%s → 400, and the app keeps serving', async (_name, body, contentType) => {
    const res = await h.post(body, contentType);
    expect(res.status).toBe(400);
    await stillServes();
  });

  it("checks a request's signature once: Bolt is handed the request the guard verified", async () => {
    const hmac = vi.spyOn(crypto, 'createHmac');
    try {
      const res = await h.command('help');
      expect(res.status).toBe(200);
      await h.slack.waitFor('respond');
      // Slack's check is an HMAC-SHA256 keyed with the signing secret (the harness signed before the spy).
      const checks = hmac.mock.calls.filter(
        ([algorithm, key]) => algorithm === 'sha256' && key === SIGNING_SECRET,
      );
      expect(checks).toHaveLength(1);
    } finally {
      hmac.mockRestore();
    }
  });

  it('anything but a POST on the event endpoint is 404, and reaches no listener', async () => {
    const res = await request(`${h.url}/slack/events`, { method: 'GET' });
    expect(res.statusCode).toBe(404);
    await res.body.dump();
    await stillServes();
  });

  it('an unsigned null body is still refused as unsigned (401), not parsed', async () => {
    const res = await h.post('null', 'application/json', {});
    expect(res.status).toBe(401);
  });

  it('a wrong signature on a null body is 401', async () => {
    const res = await h.post('null', 'application/json', sign('something else'));
    expect(res.status).toBe(401);
  });

  it.each([
    ['block_actions with empty actions', { type: 'block_actions', actions: [] }],
    ['block_actions without actions', { type: 'block_actions' }],
    ['block_actions with null actions', { type: 'block_actions', actions: null }],
    ['view_submission without view', { type: 'view_submission' }],
    ['view_submission with null view', { type: 'view_submission', view: null }],
    ['view_closed without view', { type: 'view_closed' }],
    ['unknown type', { type: 'something_new' }],
    ['no type at all', { hello: 'world' }],
  ])('%s → quiet ack or 400, never 500', async (_name, payload) => {
    const res = await h.interact(payload);
    expect([200, 400]).toContain(res.status);
    await stillServes();
  });

  it('a payload without user → quiet ack or 400', async () => {
    const body = new URLSearchParams({
      payload: JSON.stringify({
        type: 'block_actions',
        team: { id: 'T0TEST' },
        actions: [{ action_id: 'x' }],
      }),
    }).toString();
    const res = await h.post(body, 'application/x-www-form-urlencoded');
    expect([200, 400]).toContain(res.status);
    await stillServes();
  });

  it('a payload with user null → quiet ack or 400', async () => {
    const res = await h.interact({ type: 'block_actions', user: null, actions: [{ action_id: 'x' }] });
    expect([200, 400]).toContain(res.status);
    await stillServes();
  });

  it('an event callback with event null → quiet ack or 400', async () => {
    const body = JSON.stringify({ type: 'event_callback', team_id: 'T0TEST', event: null });
    const res = await h.post(body, 'application/json');
    expect([200, 400]).toContain(res.status);
    await stillServes();
  });
});

/**
 * Payloads Slack never sends, correctly signed: each is answered at once (Bolt would wait 3 s and
 * answer 404) and told in one log line, and the app goes on serving.
 */
describe('signed interactions the app cannot act on are answered at once', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
  });
  afterAll(() => h.close());

  const view = (extra: Record<string, unknown> = {}) => ({
    id: 'V0NOSTATE',
    hash: 'h1',
    type: 'modal',
    team_id: TEAM,
    callback_id: TASK_VIEW.create,
    private_metadata: '',
    blocks: [],
    ...extra,
  });

  /**
   * Sends `payload` and says how it was answered and what the log said of it. "At once" is the answer
   * itself: left to Bolt, an unhandled request is answered 404 after its 3-second wait, not 400 or 200.
   */
  async function answered(payload: Record<string, unknown>) {
    const before = h.logs.length;
    const res = await h.interact(payload);
    // The refusal's own line: every request also gets its answer line (with its kind), apart.
    const lines = h.logs
      .slice(before)
      .filter((l) => l.includes(String(payload.type)) && !l.includes('"slack request answered"'));
    return { status: res.status, body: res.body, lines };
  }

  it('a view_submission whose view has no state → 400 at once, one log line', async () => {
    const { status, lines } = await answered({ type: 'view_submission', view: view() });
    expect(status).toBe(400);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('view_submission');
    expect(h.logs.join('')).not.toContain('TypeError');
    expect((await h.command('help')).status).toBe(200);
  });

  it('a view_closed of a modal no route asks it of → an empty 200 at once, one log line', async () => {
    const before = h.logs.length;
    const res = await h.interact({
      type: 'view_closed',
      view: view({ state: { values: {} } }),
      is_cleared: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const lines = h.logs.slice(before).filter((l) => !l.includes('"slack request answered"'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('no route binds the closed view');
    expect((await h.command('help')).status).toBe(200);
  });
});
