/**
 * src/clients.ts: the bounded client caches, and the `fetch` the Slack clients use — over real
 * loopback sockets: a response_url reply or a Web API call reaches the server with its body and
 * headers and reuses its socket, within a bounded pool; a signal aborts it; nothing is sent twice;
 * uploads and other methods go to the global fetch.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lruCache } from '../src/clients.js';
import { slackFetch } from '../src/slack-api/index.js';

let server: Server;
let origin: string;
let connections = 0;
const received: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];
let status = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.statusCode = status;
      if (status === 204) return res.end();
      res.setHeader('content-type', 'text/plain');
      res.end(status === 200 ? 'ok' : 'gone');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  received.length = 0;
  connections = 0;
  status = 200;
  vi.restoreAllMocks();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('slackFetch', () => {
  const post = (fetcher: typeof fetch, url: string, body = '{"text":"hi"}') =>
    fetcher(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

  it('posts a response_url reply with its body and headers, and answers like fetch', async () => {
    const fetcher = slackFetch(5_000);
    const global = vi.spyOn(globalThis, 'fetch');
    const response = await post(fetcher, `${origin}/respond/abc`);
    expect(global).not.toHaveBeenCalled();
    expect(response.ok).toBe(true);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(await response.text()).toBe('ok');
    expect(received).toEqual([
      expect.objectContaining({ method: 'POST', url: '/respond/abc', body: '{"text":"hi"}' }),
    ]);
    expect(received[0]?.headers['content-type']).toBe('application/json');
  });

  it('keeps its socket alive across replies', async () => {
    const fetcher = slackFetch(5_000);
    for (let i = 0; i < 5; i++) await (await post(fetcher, `${origin}/respond/${i}`)).text();
    expect(received).toHaveLength(5);
    expect(connections).toBe(1);
  });

  it('a refused reply is a response that is not ok (Bolt turns it into a RespondError); 204 has no body', async () => {
    const fetcher = slackFetch(5_000);
    status = 404;
    const refused = await post(fetcher, `${origin}/respond/expired`);
    expect([refused.ok, refused.status, await refused.text()]).toEqual([false, 404, 'gone']);
    status = 204;
    const empty = await post(fetcher, `${origin}/respond/empty`);
    expect([empty.ok, empty.status, await empty.text()]).toEqual([true, 204, '']);
  });

  it('a server that does not answer in time is an error, not a hang', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/respond/x`;
    try {
      await expect(post(slackFetch(50), url)).rejects.toThrow(/no complete answer within 50 ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('Web API calls go the same way, with their signal: an abort stops the request', async () => {
    const fetcher = slackFetch(5_000);
    const global = vi.spyOn(globalThis, 'fetch');
    const ok = await fetcher(`${origin}/api/chat.postMessage`, {
      method: 'POST',
      headers: new Headers({ 'Content-Type': 'application/x-www-form-urlencoded' }),
      body: 'channel=C1&text=hi',
      signal: new AbortController().signal,
    });
    expect(await ok.text()).toBe('ok');
    expect(received[0]).toMatchObject({ url: '/api/chat.postMessage', body: 'channel=C1&text=hi' });
    expect(received[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');

    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/conversations.history`;
    try {
      const controller = new AbortController();
      const call = fetcher(url, { method: 'POST', body: 'x', signal: controller.signal });
      const outcome = Promise.allSettled([call]);
      controller.abort(new Error('caller gave up'));
      const [result] = await outcome;
      expect(result?.status === 'rejected' && String(result.reason)).toMatch(/caller gave up/);
      const early = new AbortController();
      early.abort(new Error('already'));
      await expect(fetcher(url, { method: 'POST', body: 'x', signal: early.signal })).rejects.toThrow(
        /already/,
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
    expect(global).not.toHaveBeenCalled();
  });

  it('a request reset after it reached the server is never sent again: it may have been acted on (a post made)', async () => {
    // Answers the first request; takes every later one and then drops its connection (as a server
    // that read the request and died does). The later one may go out on the kept-alive socket or a
    // fresh one: either way it reaches the server once and fails.
    const seen: string[] = [];
    const flaky = createServer((req, res) => {
      seen.push(req.url ?? '');
      req.resume();
      req.on('end', () => (seen.length > 1 ? req.socket.resetAndDestroy() : res.end('ok')));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
    try {
      const fetcher = slackFetch(5_000);
      expect(await (await fetcher(`${base}/a`, { method: 'POST', body: 'x' })).text()).toBe('ok');
      await expect(fetcher(`${base}/b`, { method: 'POST', body: 'x' })).rejects.toThrow(/request failed/);
      expect(seen).toEqual(['/a', '/b']);
    } finally {
      flaky.closeAllConnections();
      await new Promise((resolve) => flaky.close(resolve));
    }
  });

  it('keeps at most `connections` sockets to an origin: calls beyond them wait their turn', async () => {
    const fetcher = slackFetch(5_000, 2);
    const answers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => (await post(fetcher, `${origin}/api/m${i}`)).text()),
    );
    expect(answers).toEqual(Array(6).fill('ok'));
    expect(connections).toBeLessThanOrEqual(2);
  });

  it('other methods and bodies (uploads) go to the global fetch', async () => {
    const fetcher = slackFetch(5_000);
    const global = vi.spyOn(globalThis, 'fetch');
    await (await fetcher(`${origin}/respond/get`)).text();
    const form = new FormData();
    form.set('file', 'bytes');
    await (await fetcher(`${origin}/api/files.upload`, { method: 'POST', body: form })).text();
    expect(global).toHaveBeenCalledTimes(2);
    expect(received.map((r) => r.url)).toEqual(['/respond/get', '/api/files.upload']);
  });
});

describe('lruCache', () => {
  it('keeps at most `size` values, dropping the least recently used', () => {
    let made = 0;
    const get = lruCache(2, (key) => ({ key, n: made++ }));
    const a = get('a');
    get('b');
    expect(get('a')).toBe(a); // a is now the most recent
    get('c'); // drops b
    expect(get('a')).toBe(a);
    expect(get('b').n).toBe(3); // made again
    expect(made).toBe(4);
  });
});
