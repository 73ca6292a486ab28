/**
 * A local fake of the Slack Web API for multi-process tests and the benchmark: a node:http server
 * on loopback that records chat.postMessage calls, answers conversations.history from what was
 * posted (metadata included), and can answer the next posts with 429 + Retry-After. `GET /api/_stats`
 * says how many messages were posted and the CPU its process used (for a benchmark whose fake runs
 * in another process).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSlackPost {
  channel: string;
  ts: string;
  text: string;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** Raw form fields, for assertions on unfurls and the like. */
  fields: Record<string, string>;
}

export interface FakeSlack {
  /** Base URL for `slackApiUrl`, ending in `/api/`. */
  url: string;
  posts: FakeSlackPost[];
  /** Requests received per method, 429s included. */
  calls: Map<string, number>;
  /** The next `count` chat.postMessage calls answer 429 with this Retry-After (seconds). */
  rateLimitNext(count: number, retryAfterSeconds: number): void;
  /** Keeps counts only, not the posts (the benchmark's 2,000 digests). */
  countOnly: boolean;
  postCount: number;
  close(): Promise<void>;
}

async function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  if ((request.headers['content-type'] ?? '').includes('application/json')) {
    const json = JSON.parse(body || '{}') as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(json).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
  }
  return Object.fromEntries(new URLSearchParams(body));
}

export async function startFakeSlack(): Promise<FakeSlack> {
  let limited = { count: 0, retryAfter: 1 };
  let sequence = 0;
  const fake: FakeSlack = {
    url: '',
    posts: [],
    calls: new Map(),
    countOnly: false,
    postCount: 0,
    rateLimitNext(count, retryAfterSeconds) {
      limited = { count, retryAfter: retryAfterSeconds };
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  const server = createServer(async (request, response) => {
    const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
    fake.calls.set(method, (fake.calls.get(method) ?? 0) + 1);
    const form = await readForm(request);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    if (method === '_stats') {
      const cpu = process.cpuUsage();
      return answer(200, { postCount: fake.postCount, cpuMs: (cpu.user + cpu.system) / 1000 });
    }
    if (!/^Bearer xoxb-/.test(request.headers.authorization ?? '')) {
      return answer(200, { ok: false, error: 'not_authed' });
    }

    if (method === 'chat.postMessage') {
      if (limited.count > 0) {
        limited.count -= 1;
        return answer(
          429,
          { ok: false, error: 'ratelimited' },
          { 'retry-after': String(limited.retryAfter) },
        );
      }
      sequence += 1;
      const ts = `${Math.floor(Date.now() / 1000)}.${String(sequence).padStart(6, '0')}`;
      const channel = form.channel ?? '';
      fake.postCount += 1;
      if (!fake.countOnly) {
        fake.posts.push({
          channel,
          ts,
          text: form.text ?? '',
          metadata: form.metadata ? JSON.parse(form.metadata) : undefined,
          fields: form,
        });
      }
      return answer(200, { ok: true, channel, ts });
    }
    if (method === 'conversations.history') {
      const oldest = Number(form.oldest ?? 0);
      const messages = fake.posts
        .filter((p) => p.channel === form.channel && Number(p.ts) >= oldest)
        .reverse()
        .map((p) => ({
          type: 'message',
          ts: p.ts,
          text: p.text,
          ...(form.include_all_metadata === 'true' && p.metadata ? { metadata: p.metadata } : {}),
        }));
      return answer(200, { ok: true, messages, has_more: false });
    }
    return answer(200, { ok: false, error: 'unknown_method' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  return fake;
}
