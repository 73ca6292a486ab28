/**
 * Socket Mode end to end: the app opens its connection through a loopback Slack (apps.connections.open
 * on SLACK_API_URL, then a real WebSocket server), receives a slash command as an envelope, acks it
 * over the socket, and answers at the command's response_url after calling the planning sandbox.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { createClients } from '../../src/clients.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { closePlanningPools } from '../../src/planning/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';
import { eventually } from './harness.js';

const TEAM = 'T0SOCKET';
const APP_TOKEN = 'xapp-1-socket-test-token';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('Socket Mode', () => {
  let dir: string;
  let sandbox: Sandbox;
  let store: Store;
  let app: SlackApp | undefined;
  let wss: WebSocketServer;
  let slackHttp: ReturnType<typeof createServer>;
  /** Web API methods called, with the Authorization they carried; response_url bodies. */
  const calls: { method: string; auth: string }[] = [];
  const responses: Record<string, unknown>[] = [];

  beforeEach(async () => {
    calls.length = 0;
    responses.length = 0;
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
    slackHttp = createServer(async (req, res) => {
      const body = await readBody(req);
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/respond/')) {
        responses.push(JSON.parse(body) as Record<string, unknown>);
        res.end('{"ok":true}');
        return;
      }
      const method = (req.url ?? '').replace('/api/', '');
      calls.push({ method, auth: String(req.headers.authorization ?? '') });
      if (method === 'apps.connections.open') res.end(JSON.stringify({ ok: true, url: wsUrl }));
      else if (method === 'auth.test')
        res.end(JSON.stringify({ ok: true, user_id: 'UBOT', bot_id: 'B1', team_id: TEAM }));
      else res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => slackHttp.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    await app?.stop();
    app = undefined;
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
    slackHttp.closeAllConnections();
    await new Promise((resolve) => slackHttp.close(resolve));
    await sandbox.close();
    await store.close();
    await closePlanningPools();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects through SLACK_API_URL, acks a slash command over the socket, then answers it', async () => {
    const slackApiUrl = `http://127.0.0.1:${(slackHttp.address() as AddressInfo).port}/api/`;
    const config = loadConfig({
      NODE_ENV: 'test',
      SLACK_SOCKET_MODE: 'true',
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_BOT_TOKEN: 'xoxb-socket-test',
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
    expect(calls.find((c) => c.method === 'apps.connections.open')?.auth).toBe(`Bearer ${APP_TOKEN}`);

    const received: { envelope_id?: string }[] = [];
    socket.on('message', (data) => received.push(JSON.parse(String(data)) as { envelope_id?: string }));
    socket.send(
      JSON.stringify({
        envelope_id: 'envelope-1',
        type: 'slash_commands',
        accepts_response_payload: true,
        payload: {
          token: 'legacy',
          team_id: TEAM,
          team_domain: 'test',
          channel_id: 'C1',
          channel_name: 'general',
          user_id: 'U1',
          user_name: 'ana',
          command: '/plan',
          text: 'whoami',
          api_app_id: 'A1',
          response_url: `${slackApiUrl.replace('/api/', '')}/respond/1`,
          trigger_id: 'trigger-1',
        },
      }),
    );
    await eventually(() => received.some((m) => m.envelope_id === 'envelope-1'), 'the ack over the socket');
    await eventually(() => responses.length > 0, 'the answer at the response_url');
    expect(JSON.stringify(responses[0])).toContain('You act as');
    expect(sandbox.requests.count('accountRead')).toBe(1);
  });
});
