/**
 * Socket Mode end to end: the app opens its connection through the fake Slack on loopback
 * (apps.connections.open on SLACK_API_URL, then a real WebSocket server), receives a slash command
 * as an envelope, acks it over the socket, and answers at the command's response_url after calling
 * the planning sandbox.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { createClients } from '../../../src/clients.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { closePlanningPools } from '../../../src/planning/index.js';
import { type FakeSlack, startFakeSlack } from '../../../src/playground/fake-slack.js';
import { Workspace } from '../../../src/playground/workspace.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { createSlackApp, type SlackApp } from '../../../src/slack/app.js';
import { createKeyring, openStore, type Store } from '../../../src/store/index.js';
import { commandFields, eventually } from '../../helpers/slack-harness.js';

const TEAM = 'T0SOCKET';
const APP_TOKEN = 'xapp-1-socket-test-token';
const BOT_TOKEN = 'xoxb-socket-test';

describe('Socket Mode', () => {
  let dir: string;
  let sandbox: Sandbox;
  let store: Store;
  let app: SlackApp | undefined;
  let wss: WebSocketServer;
  let slack: FakeSlack;

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
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    const wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link`;
    slack = await startFakeSlack({
      workspace: new Workspace({ team: { id: TEAM, name: 'Socket', domain: 'socket' } }),
      tokens: [BOT_TOKEN, APP_TOKEN],
    });
    slack.workspace.addUser({ id: 'U1', name: 'ana' });
    slack.workspace.addChannel({ id: 'C1', members: ['U1'] });
    // The one call the fake does not serve itself: Socket Mode's connection URL, for the app token only.
    slack.on('apps.connections.open', (_body, { token }) =>
      token === APP_TOKEN ? { ok: true, url: wsUrl } : { ok: false, error: 'not_allowed_token_type' },
    );
  });

  afterEach(async () => {
    await app?.stop();
    app = undefined;
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
    await slack.close();
    await sandbox.close();
    await store.close();
    await closePlanningPools();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects through SLACK_API_URL, acks a slash command over the socket, then answers it', async () => {
    const slackApiUrl = slack.apiUrl;
    const config = loadConfig({
      NODE_ENV: 'test',
      SLACK_SOCKET_MODE: 'true',
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_API_URL: slackApiUrl,
      PLANNING_API_URL: sandbox.url,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'error',
    });
    const connected = new Promise<WebSocket>((resolve) =>
      wss.once('connection', (socket) => {
        // What Slack sends first on a new Socket Mode connection.
        socket.send(
          JSON.stringify({
            type: 'hello',
            num_connections: 1,
            debug_info: { host: 'test', approximate_connection_time: 3600 },
            connection_info: { app_id: 'A1' },
          }),
        );
        resolve(socket);
      }),
    );
    const logger = createLogger({ level: 'error', destination: { write: () => {} } });
    app = createSlackApp({
      config,
      store,
      logger,
      clients: createClients({
        planningUrl: sandbox.url,
        slackApiUrl,
        logger,
        planningOptions: { timeoutMs: 5_000, retries: 0 },
      }),
    });
    await app.start();
    const socket = await connected;
    expect(slack.called('apps.connections.open')[0]?.token).toBe(APP_TOKEN);

    const received: { envelope_id?: string }[] = [];
    socket.on('message', (data) => received.push(JSON.parse(String(data)) as { envelope_id?: string }));
    socket.send(
      JSON.stringify({
        envelope_id: 'envelope-1',
        type: 'slash_commands',
        accepts_response_payload: true,
        payload: commandFields(slack, 'whoami', { team: TEAM, fields: { user_name: 'ana' } }),
      }),
    );
    await eventually(() => received.some((m) => m.envelope_id === 'envelope-1'), 'the ack over the socket');
    const answer = await slack.waitFor('respond');
    expect(JSON.stringify(answer.body)).toContain('You act as');
    expect(sandbox.requests.count('accountRead')).toBe(1);
  });
});
