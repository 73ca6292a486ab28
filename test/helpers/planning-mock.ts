/**
 * Test fixtures for the planning client: an undici MockAgent standing in for the service (no
 * network at all), real signed JWTs, real PNG files, and a check that a token is nowhere in an error.
 */
import { inspect } from 'node:util';
import { SignJWT } from 'jose';
import { PNG } from 'pngjs';
import { MockAgent, type MockCallHistoryLog, type MockPool } from 'undici';
import { expect } from 'vitest';
import { z } from 'zod';
import type { OperationRef } from '../../src/planning/endpoints.js';
import {
  createPlanningClient,
  type PlanningClient,
  type PlanningClientOptions,
  type RequestEvent,
} from '../../src/planning/index.js';

export const ORIGIN = 'http://planning.test';
export const BASE_URL = `${ORIGIN}/v1`;
export const ORG_ID = 'org-42';

/** A real HS256 JWT whose payload carries `org_id`, like the service's service-account tokens. */
export async function makeToken(orgId = ORG_ID): Promise<string> {
  return new SignJWT({ org_id: orgId, sub: 'service-account-1' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(new TextEncoder().encode('test-signing-secret-of-32-bytes!'));
}

/** A real PNG of the given size; `noise` makes it incompressible (for the size limit). */
export function makePng(width: number, height: number, noise = false): Buffer {
  const png = new PNG({ width, height });
  let seed = 7;
  for (let i = 0; i < png.data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    png.data[i] = noise ? seed >>> 24 : (i * 31) & 0xff;
  }
  return PNG.sync.write(png);
}

export interface MockService {
  agent: MockAgent;
  /** Interceptors of the service's origin. */
  pool: MockPool;
  token: string;
  events: RequestEvent[];
  /** Backoff waits the client asked for, in order (no real sleeping). */
  sleeps: number[];
  client: ReturnType<typeof createPlanningClient>;
  /** Requests that reached the mock, oldest first. */
  calls(): MockCallHistoryLog[];
  close(): Promise<void>;
}

/** A client wired to a fresh MockAgent with net connect disabled and instant backoff. */
export async function mockService(options: Partial<PlanningClientOptions> = {}): Promise<MockService> {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const token = options.token ?? (await makeToken());
  const events: RequestEvent[] = [];
  const sleeps: number[] = [];
  const client = createPlanningClient({
    baseUrl: BASE_URL,
    token,
    dispatcher: agent,
    onEvent: (event) => events.push(event),
    ...options,
    backoff: {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...options.backoff,
    },
  });
  return {
    agent,
    pool: agent.get(ORIGIN),
    token,
    events,
    sleeps,
    client,
    calls: () => agent.getCallHistory()?.calls() ?? [],
    close: async () => {
      agent.assertNoPendingInterceptors();
      await agent.close();
    },
  };
}

/**
 * Fails when `token` (or its signature, the part that makes it a credential) appears in the error's
 * message, stack, cause chain, inspect or JSON output.
 */
export function expectNoToken(error: unknown, token: string): void {
  expect(error).toBeInstanceOf(Error);
  const seen: string[] = [
    inspect(error, { depth: 10, showHidden: true }),
    JSON.stringify(error),
    String(error),
  ];
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    seen.push(e.message, String(e.stack), inspect(e, { depth: 10 }));
  }
  const signature = token.split('.').at(-1) ?? token;
  for (const text of seen) {
    expect(text).not.toContain(token);
    expect(text).not.toContain(signature);
  }
}

/** The rejection of `promise` (fails the test if it resolves). */
export async function rejectionOf(promise: PromiseLike<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, it succeeded');
}

// ---------------------------------------------------------------------------------------------
// Calling any operation of the table generically
// ---------------------------------------------------------------------------------------------

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  minimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
};

/** The smallest value a JSON schema accepts (enough for the client's local checks to pass). */
function minimal(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf?.[0]) return minimal(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 'x'.repeat(Math.max(schema.minLength ?? 0, 3));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, minimal(schema.properties?.[name] ?? {})]),
      );
    default:
      return undefined;
  }
}

/** The input argument of an operation with the smallest values its schemas accept (none when it takes none). */
export function inputOf(ref: OperationRef): unknown[] {
  const { def } = ref;
  if (def.multipart) return [{ avatar: makePng(256, 256) }];
  const schema = def.body ?? def.query;
  return schema ? [minimal(z.toJSONSchema(schema, { io: 'input' }) as JsonSchema)] : [];
}

export type AnyMethod = (...args: unknown[]) => PromiseLike<unknown>;

/** The client's method for an operation of the table. */
export function methodOf(client: PlanningClient, ref: OperationRef): AnyMethod {
  return (client as unknown as Record<string, Record<string, AnyMethod>>)[ref.area]?.[ref.name] as AnyMethod;
}
