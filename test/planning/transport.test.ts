/**
 * The default transport over real loopback sockets: the shared keep-alive pool, its shutdown, a
 * body that stalls, a refused connection, a connection that never completes and the multipart
 * bytes on the wire.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { Response } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closePlanningPools,
  createPlanningClient,
  NetworkError,
  type RequestEvent,
  TimeoutError,
} from '../../src/planning/index.js';
import { makePng, makeToken, rejectionOf } from '../helpers/planning-mock.js';

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let connections = 0;
let handler: Handler = (_req, _body, res) => res.end();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, Buffer.concat(chunks), res));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(async () => {
  await closePlanningPools();
  connections = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function json(value: unknown): Handler {
  return (_req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(value));
  };
}

describe('the shared pool', () => {
  it('reuses its sockets across calls and across clients of the same origin', async () => {
    handler = json({ id: 'me' });
    const first = createPlanningClient({ baseUrl, token: await makeToken() });
    const second = createPlanningClient({ baseUrl, token: await makeToken('org-2') });
    for (const client of [first, second, first, second, first, second]) await client.account.read();
    // undici opens a second socket for a call made right after the previous answer ends, then
    // reuses both: one shared pool stays at 2 for six calls (a pool per client would reach 4).
    expect(connections).toBeGreaterThan(0);
    expect(connections).toBeLessThanOrEqual(2);
  });

  it('closePlanningPools closes the sockets; a client made before still works after', async () => {
    handler = json({ id: 'me' });
    const client = createPlanningClient({ baseUrl, token: await makeToken() });
    await client.account.read();
    const before = connections;
    await closePlanningPools();
    await expect(client.account.read()).resolves.toMatchObject({ id: 'me' });
    expect(connections).toBe(before + 1);
  });
});

describe('the connection cap', () => {
  /** Holds every request until released; counts how many the server holds at once. */
  function holding() {
    const held: ServerResponse[] = [];
    let peak = 0;
    handler = (_req, _body, res) => {
      held.push(res);
      peak = Math.max(peak, held.length);
    };
    const release = () => {
      for (const res of held.splice(0)) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ id: 'me' }));
      }
    };
    return { held, release, peak: () => peak };
  }
  async function until(condition: () => boolean) {
    while (!condition()) await new Promise((resolve) => setImmediate(resolve));
  }

  it('opens at most maxConnections sockets; the calls beyond it queue and all complete', async () => {
    const server = holding();
    const client = createPlanningClient({ baseUrl, token: await makeToken(), maxConnections: 3 });
    const calls = Array.from({ length: 10 }, () => client.account.read());
    const settled = Promise.allSettled(calls);
    await until(() => server.held.length === 3);
    // The other seven wait in the pool: answering the first three lets the next ones through.
    expect(connections).toBe(3);
    while ((await Promise.race([settled, Promise.resolve('pending')])) === 'pending') {
      server.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'));
    expect(server.peak()).toBe(3);
    expect(connections).toBe(3);
  });

  it('the default cap is 128 sockets', async () => {
    const server = holding();
    const client = createPlanningClient({ baseUrl, token: await makeToken() });
    const settled = Promise.allSettled(Array.from({ length: 140 }, () => client.account.read()));
    await until(() => server.held.length === 128);
    // Give the pool a chance to (wrongly) open more before checking.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(server.held.length).toBe(128);
    expect(connections).toBe(128);
    while ((await Promise.race([settled, Promise.resolve('pending')])) === 'pending') {
      server.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await settled).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(connections).toBe(128);
  });

  it('a call waiting for a free socket past its timeout fails with a TimeoutError; the others complete', async () => {
    const server = holding();
    const token = await makeToken();
    const client = createPlanningClient({ baseUrl, token, maxConnections: 1, retries: 0 });
    // Same origin and cap: the same shared pool, with a short timeout.
    const hasty = createPlanningClient({ baseUrl, token, maxConnections: 1, retries: 0, timeoutMs: 50 });
    const first = client.account.read();
    const firstDone = Promise.allSettled([first]);
    await until(() => server.held.length === 1);
    const queued = await rejectionOf(hasty.account.read());
    expect(queued).toBeInstanceOf(TimeoutError);
    server.release();
    const [firstResult] = await firstDone;
    expect(firstResult?.status === 'rejected' ? String(firstResult.reason) : 'ok').toBe('ok');
    expect(connections).toBe(1);
  });
});

describe('failures on a real socket', () => {
  it('a body that stalls after the headers hits the timeout', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":'); // …and nothing more
    };
    const client = createPlanningClient({ baseUrl, token: await makeToken(), timeoutMs: 100, retries: 0 });
    const error = await rejectionOf(client.account.read());
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('a refused connection is a NetworkError, retried for a GET', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const events: RequestEvent[] = [];
    const client = createPlanningClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      token: await makeToken(),
      retries: 1,
      backoff: { sleep: async () => {} },
      onEvent: (event) => events.push(event),
    });
    const error = await rejectionOf(client.account.read());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ retryCount: 1 });
    expect(events).toMatchObject([{ outcome: 'error', retryCount: 1, errorName: 'NetworkError' }]);
  });
});

describe('a connection that never completes', () => {
  it('not connected within connectTimeoutMs: a TimeoutError saying it could not connect in time', async () => {
    // An https origin whose TCP peer accepts and then says nothing: the TLS handshake, part of
    // connecting, never ends. Loopback only, and deterministic — unlike a non-routable address
    // (10.255.255.1), which some networks, sandboxes included, accept at once.
    const silent: Socket[] = [];
    const server = createTcpServer((socket) => silent.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const events: RequestEvent[] = [];
      const client = createPlanningClient({
        baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        token: await makeToken(),
        connectTimeoutMs: 50,
        // Far above the connect timeout (undici checks it on a coarse, ~1 s clock), so the attempt's
        // own timeout cannot be the one that fires.
        timeoutMs: 5_000,
        retries: 0,
        onEvent: (event) => events.push(event),
      });
      // Which timeout fired is in the error's own words: the connect timeout's, not the attempt's.
      const error = await rejectionOf(client.account.read());
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toBe('account.read: could not connect in time');
      // Nothing was written to a socket: safe to send again, whatever the method.
      expect(error).toMatchObject({ notSent: true });
      expect(silent.length).toBeGreaterThan(0);
      expect(events).toMatchObject([{ outcome: 'error', errorName: 'TimeoutError' }]);
    } finally {
      for (const socket of silent) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the avatar upload on the wire', () => {
  it('is multipart/form-data with one avatar file', async () => {
    let seen: { contentType?: string; body?: Buffer } = {};
    handler = (req, body, res) => {
      seen = { contentType: req.headers['content-type'], body };
      json({ id: 'me' })(req, body, res);
    };
    const png = makePng(256, 256);
    const client = createPlanningClient({ baseUrl, token: await makeToken() });
    await client.account.avatar({ avatar: png });
    expect(seen.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(seen.body, {
      headers: { 'content-type': seen.contentType ?? '' },
    }).formData();
    expect([...form.keys()]).toEqual(['avatar']);
    const file = form.get('avatar') as File;
    expect([file.name, file.type]).toEqual(['avatar.png', 'image/png']);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
  });
});
