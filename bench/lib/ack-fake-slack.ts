/**
 * The fake Slack of the ack benchmark: a node:http server on loopback that answers every Web API
 * method under `/api/` with a plausible `{ok: true, …}` (auth.test, users.info, chat.postEphemeral,
 * chat.postMessage, views.open/update, conversations.open; `{ok: true}` for any other), and records
 * what was posted to the response_urls it hands out (`/respond/<id>`), so the benchmark can check
 * that each command's follow-up really arrived.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AckFakeSlack {
  /** Base URL for SLACK_API_URL, ending in `/api/`. */
  apiUrl: string;
  /** A fresh response_url on this fake for `id`. */
  responseUrl(id: string): string;
  /** Web API calls received, per method. */
  calls: Map<string, number>;
  /** What was posted to each response_url id, in arrival order, with `performance.now()` at arrival. */
  responses: Map<string, { at: number; body: Record<string, unknown> }[]>;
  /** chat.update calls (bench:card), with `performance.now()` at arrival, in arrival order. */
  updates: { at: number; body: Record<string, unknown> }[];
  /** Requests this fake could not answer (bad JSON, unknown path, missing bot token). */
  refused: number;
  close(): Promise<void>;
}

/** A Slack user the fake's users.info describes. */
const slackUser = (id: string, team: string) => ({
  id,
  team_id: team,
  name: `user-${id.toLowerCase()}`,
  is_admin: false,
  is_owner: false,
  is_bot: false,
  tz: 'Europe/Paris',
  profile: { real_name: `User ${id}`, display_name: '' },
});

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((request.headers['content-type'] ?? '').includes('application/json')) {
    return JSON.parse(text || '{}') as Record<string, unknown>;
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export async function startAckFakeSlack(team: string): Promise<AckFakeSlack> {
  let sequence = 0;
  const ts = () => `${Math.floor(Date.now() / 1000)}.${String(++sequence).padStart(6, '0')}`;
  const answers: Record<string, (body: Record<string, unknown>) => Record<string, unknown>> = {
    'auth.test': () => ({
      user_id: 'UBOT',
      bot_id: 'BBOT',
      team_id: team,
      team: 'Bench',
      url: 'https://bench/',
    }),
    'users.info': (body) => ({ user: slackUser(String(body.user), team) }),
    'chat.postEphemeral': () => ({ message_ts: ts() }),
    'chat.postMessage': (body) => ({ channel: body.channel, ts: ts() }),
    'conversations.open': (body) => ({ channel: { id: `D${String(body.users)}` } }),
    'views.open': () => {
      const id = `V${++sequence}`;
      return { view: { id, hash: `${id}-h0` } };
    },
    'views.update': (body) => ({
      view: { id: body.view_id, hash: `${String(body.view_id)}-h${++sequence}` },
    }),
  };

  const fake: AckFakeSlack = {
    apiUrl: '',
    responseUrl: (id) => `${origin}/respond/${id}`,
    calls: new Map(),
    responses: new Map(),
    updates: [],
    refused: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer(async (request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    try {
      const path = (request.url ?? '').split('?')[0] ?? '';
      const body = await readBody(request);
      const respond = /^\/respond\/([\w-]+)$/.exec(path);
      if (respond?.[1] && request.method === 'POST') {
        const list = fake.responses.get(respond[1]) ?? [];
        list.push({ at: performance.now(), body });
        fake.responses.set(respond[1], list);
        return answer(200, { ok: true });
      }
      const method = /^\/api\/([\w.]+)$/.exec(path)?.[1];
      if (!method) {
        fake.refused += 1;
        return answer(404, { ok: false, error: 'unknown_path' });
      }
      fake.calls.set(method, (fake.calls.get(method) ?? 0) + 1);
      if (method === 'chat.update') fake.updates.push({ at: performance.now(), body });
      if (!/^Bearer xoxb-/.test(request.headers.authorization ?? '')) {
        fake.refused += 1;
        return answer(200, { ok: false, error: 'not_authed' });
      }
      return answer(200, { ok: true, ...(answers[method]?.(body) ?? {}) });
    } catch {
      fake.refused += 1;
      return answer(400, { ok: false, error: 'invalid_request' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.apiUrl = `${origin}/api/`;
  return fake;
}
