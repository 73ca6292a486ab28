/**
 * The playground is for this machine only (issue 26 item 3): the app, the sandbox and the page
 * listen on loopback, whatever PORT (or HOST) the environment says — while the app in its HTTP
 * modes listens where HOST says, every interface by default (test/app/operations.test.ts).
 */
import { networkInterfaces } from 'node:os';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Playground, startPlayground } from '../../src/playground/index.js';

describe('the playground binds to loopback', () => {
  let playground: Playground;
  const hostBefore = process.env.HOST;
  beforeAll(async () => {
    // An environment asking for every interface changes nothing for the playground.
    process.env.HOST = '0.0.0.0';
    playground = await startPlayground({ port: 0, logLevel: 'error' });
  });
  afterAll(async () => {
    if (hostBefore === undefined) delete process.env.HOST;
    else process.env.HOST = hostBefore;
    await playground?.stop();
  });

  it('the app, the sandbox and the page each listen on 127.0.0.1 only', async () => {
    expect(playground.app.address).toBe('127.0.0.1');
    const page = new URL(playground.url);
    const sandbox = new URL(playground.sandbox.url);
    expect([page.hostname, sandbox.hostname]).toEqual(['127.0.0.1', '127.0.0.1']);
    const ports = [Number(page.port), Number(sandbox.port), playground.app.port];
    for (const port of ports) {
      const res = await request(`http://127.0.0.1:${port}/`);
      await res.body.dump();
      expect(res.statusCode).toBeGreaterThan(0);
    }
    // From another interface of this machine (when it has one), nothing answers.
    const other = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (other) {
      for (const port of ports) {
        await expect(request(`http://${other}:${port}/`)).rejects.toThrow(/ECONNREFUSED/);
      }
    }
  });
});
