/**
 * Correctly signed requests whose body is not what Slack sends: the app answers 400 or a quiet ack,
 * never a crash, a 500 or a 3 s timeout, and keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, sign } from './harness.js';

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
