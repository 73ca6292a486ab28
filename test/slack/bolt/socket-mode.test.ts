/**
 * Socket Mode end to end, on the fake Slack's loopback Socket Mode endpoint: the app opens its
 * connection through SLACK_API_URL (`apps.connections.open` with the app token, then a real
 * WebSocket), receives envelopes, acks each over the socket, and answers after calling the planning
 * sandbox. Each envelope gets the checks a body on `/slack/events` gets — its size, its shape, ids
 * the app does not know, the routes' gates — by the same functions: what Bolt must not see is acked
 * at once and logged on one line, and nothing reaches the service.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClients } from '../../../src/clients.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { closePlanningPools } from '../../../src/planning/index.js';
import { type FakeSlack, startFakeSlack } from '../../../src/playground/fake-slack.js';
import { Workspace } from '../../../src/playground/workspace.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { createSlackApp, type SlackApp } from '../../../src/slack/app.js';
import { STEP_GONE } from '../../../src/slack/bolt/router.js';
import { createKeyring, openStore, type Store } from '../../../src/store/index.js';
import { commandFields } from '../../helpers/slack-harness.js';

const TEAM = 'T0SOCKET';
const APP_TOKEN = 'xapp-1-socket-test-token';
const BOT_TOKEN = 'xoxb-socket-test';

describe('Socket Mode', () => {
  let dir: string;
  let sandbox: Sandbox;
  let store: Store;
  let app: SlackApp | undefined;
  let slack: FakeSlack;
  let logs: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'socket-mode-'));
    sandbox = await startSandbox({ seed: 'minimal' });
    store = await openStore({
      sqliteFile: join(dir, 'store.sqlite'),
      keyring: createKeyring({ current: randomBytes(32).toString('base64') }),
    });
    await store.identities.save({
      workspaceId: TEAM,
      slackUserId: 'U1',
      serviceAccountId: sandbox.memberId,
      planningUserId: sandbox.memberId,
      orgId: sandbox.orgId,
      token: sandbox.memberToken,
      origin: 'brought',
    });
    slack = await startFakeSlack({
      workspace: new Workspace({ team: { id: TEAM, name: 'Socket', domain: 'socket' } }),
      tokens: [BOT_TOKEN, APP_TOKEN],
    });
    slack.workspace.addUser({ id: 'U1', name: 'ana' });
    slack.workspace.addChannel({ id: 'C1', members: ['U1'] });
    const config = loadConfig({
      NODE_ENV: 'test',
      SLACK_SOCKET_MODE: 'true',
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      PLANNING_API_URL: sandbox.url,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'info',
    });
    logs = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => logs.push(line) } });
    app = createSlackApp({
      config,
      store,
      logger,
      clients: createClients({
        planningUrl: sandbox.url,
        slackApiUrl: slack.apiUrl,
        logger,
        planningOptions: { timeoutMs: 5_000, retries: 0 },
      }),
    });
    await app.start();
    await slack.socketConnected();
  });

  afterEach(async () => {
    await app?.stop();
    app = undefined;
    await slack.close();
    await sandbox.close();
    await store.close();
    await closePlanningPools();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `/plan <text>` as a slash_commands envelope's payload. */
  const command = (text: string, fields: Record<string, string> = {}) =>
    commandFields(slack, text, { team: TEAM, fields: { user_name: 'ana', ...fields } });

  /** The log lines since `from` that contain `text`. */
  const linesWith = (text: string, from = 0) => logs.slice(from).filter((l) => l.includes(text));

  /** The app still serves a real command over the socket, and answers it. */
  async function stillServes() {
    const since = slack.calls.length;
    const ack = await slack.envelope('slash_commands', command('whoami'));
    expect(ack.envelope_id).toMatch(/^env-/);
    const answer = await slack.waitFor('respond', () => true, { since });
    expect(JSON.stringify(answer.body)).toContain('You act as');
  }

  it('connects through SLACK_API_URL with the app token, acks a slash command over the socket, then answers it', async () => {
    expect(slack.called('apps.connections.open').map((c) => c.token)).toEqual([APP_TOKEN]);
    await stillServes();
    expect(sandbox.requests.count('accountRead')).toBe(1);
  });

  const user = { id: 'U1', name: 'ana', team_id: TEAM };
  it.each([
    [
      'an interaction without its user',
      'interactive',
      { type: 'block_actions', actions: [{ action_id: 'x' }] },
    ],
    ['an interaction with no actions', 'interactive', { type: 'block_actions', user, actions: [] }],
    [
      'a form without its state',
      'interactive',
      { type: 'view_submission', user, view: { id: 'V1', callback_id: 'task_create' } },
    ],
    ['a payload that is null', 'interactive', null],
    ['a payload that is an array', 'events_api', [1, 2]],
    ['an event callback without its event', 'events_api', { type: 'event_callback', team_id: TEAM }],
    [
      'a slash command without its user',
      'slash_commands',
      { command: '/plan', text: 'whoami', team_id: TEAM },
    ],
  ])('%s: acked at once, refused on one line, never handed to Bolt', async (_what, type, payload) => {
    const from = logs.length;
    const ack = await slack.envelope(type, payload);
    expect(ack.payload ?? {}).toEqual({});
    expect(linesWith('Refused a Socket Mode envelope (acked, not handled)', from)).toHaveLength(1);
    expect(linesWith('unhandled', from)).toEqual([]);
    expect(sandbox.requests.count()).toBe(0);
    expect(slack.called('respond')).toEqual([]);
    await stillServes();
  });

  it('an interaction of a type no listener handles, and an envelope type Slack may add: a quiet ack, one line', async () => {
    const from = logs.length;
    await slack.envelope('interactive', { type: 'view_closed', user, view: { id: 'V1', callback_id: 'x' } });
    await slack.envelope('something_new', { anything: true });
    expect(linesWith('Acknowledged without handling', from)).toHaveLength(2);
    expect(sandbox.requests.count()).toBe(0);
  });

  it('an envelope over the size limit is acked and refused before it is read', async () => {
    const from = logs.length;
    const ack = await slack.envelope('slash_commands', command(`whoami ${'x'.repeat(4 * 1024 * 1024)}`));
    expect(ack.payload ?? {}).toEqual({});
    expect(linesWith('over the 4194304-byte limit', from)).toHaveLength(1);
    expect(sandbox.requests.count()).toBe(0);
    expect(slack.called('respond')).toEqual([]);
    await stillServes();
  });

  it('ids the app does not know: another command and a step it no longer has are acked, each on one line', async () => {
    const from = logs.length;
    await slack.envelope('slash_commands', command('whoami', { command: '/other' }));
    slack.acceptToken('xwfp-Fx-gone');
    await slack.envelope('events_api', {
      type: 'event_callback',
      team_id: TEAM,
      api_app_id: 'A1',
      event_id: 'EvFx-gone',
      event: {
        type: 'function_executed',
        function: { id: 'Fn1', callback_id: 'retired_step', title: 'Old', type: 'app', app_id: 'A1' },
        inputs: {},
        function_execution_id: 'Fx-gone',
        workflow_execution_id: 'Wx-gone',
        event_ts: '1700000000.000100',
        bot_access_token: 'xwfp-Fx-gone',
      },
    });
    const failed = await slack.waitFor('functions.completeError');
    expect(failed.body).toMatchObject({ function_execution_id: 'Fx-gone', error: STEP_GONE.text });
    expect(linesWith('no route binds', from)).toEqual([
      expect.stringContaining('slash command \\"/other\\"'),
      expect.stringContaining('workflow step \\"retired_step\\"'),
    ]);
    expect(sandbox.requests.count()).toBe(0);
  });

  it("a route's gate refuses over the socket as over HTTP: a member is told only admins may", async () => {
    await slack.envelope('slash_commands', command('admin'));
    const told = await slack.waitFor('respond');
    expect(JSON.stringify(told.body)).toContain('Only workspace admins can');
    expect(slack.called('views.open')).toEqual([]);
  });
});
