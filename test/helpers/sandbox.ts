/**
 * Shared by the sandbox's tests: start an in-process sandbox per file, make clients of the
 * project's own planning client against it, and send raw requests (undici) where the client
 * would refuse the input itself.
 */
import { request } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  closePlanningPools,
  createPlanningClient,
  type PlanningClient,
  type PlanningClientOptions,
} from '../../src/planning/index.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

/** A settable clock, so the 24-hour windows and expiries can be crossed without waiting. */
export class FakeClock {
  constructor(public ms = Date.UTC(2026, 0, 5, 9, 0, 0)) {}
  readonly now = (): number => this.ms;
  advanceHours(hours: number): void {
    this.ms += hours * 3_600_000;
  }
}

/** One sandbox for the test file, closed (with the client pools) after it. */
export function useSandbox(options: SandboxOptions = {}): { readonly sandbox: Sandbox } {
  const holder = {} as { sandbox: Sandbox };
  beforeAll(async () => {
    holder.sandbox = await startSandbox(options);
  });
  afterAll(async () => {
    await holder.sandbox?.close();
    await closePlanningPools();
  });
  return holder;
}

/** The project's client acting with `token`; no retries unless asked, so failures show at once. */
export function clientFor(
  sandbox: { url: string },
  token: string,
  options: Partial<PlanningClientOptions> = {},
): PlanningClient {
  return createPlanningClient({ baseUrl: sandbox.url, token, retries: 0, timeoutMs: 5_000, ...options });
}

/** Clients for the seeded owner, admin and member of a {@link useSandbox} holder. */
export function roles(holder: { readonly sandbox: Sandbox }) {
  return {
    owner: () => clientFor(holder.sandbox, holder.sandbox.ownerToken),
    admin: () => clientFor(holder.sandbox, holder.sandbox.adminToken),
    member: () => clientFor(holder.sandbox, holder.sandbox.memberToken),
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A raw request to `<url><path>`: JSON bodies, the sandbox's answer parsed as JSON. */
export async function raw(
  sandbox: { url: string },
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const answer = await request(`${sandbox.url}${path}`, {
    method: method as 'GET',
    headers,
    body,
    headersTimeout: 5_000,
    bodyTimeout: 5_000,
  });
  const text = await answer.body.text();
  return {
    status: answer.statusCode,
    headers: answer.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/** Asserts an error answer in the contract's shape. */
export function expectError(answer: RawAnswer, status: number, id: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { id, message: expect.any(String) },
  });
}

/** The rejection of a promise that must fail (fails the test when it resolves). */
export async function failure(promise: PromiseLike<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to fail, it succeeded');
}

/** Walks a planning feature to execution: one assumption, its experiment done, two advances. */
export async function advanceToExecution(client: PlanningClient, path: readonly [string, string, string]) {
  const assm = await client.assumptions.create(...path, { heading: 'It is worth doing' });
  await client.features.advance(...path);
  await client.assumptions.experiment(...path, assm.id, { state: 'done', confirmed: true });
  await client.features.advance(...path);
  return assm;
}

/** A team (with its default channel) and a feature in it, created by `client`. */
export async function featureIn(
  owner: PlanningClient,
  member: PlanningClient,
  memberId: string,
  heading = 'A feature',
) {
  const team = await owner.teams.create({ teamName: `Team ${heading}`.slice(0, 64) });
  const channelId = team.channels[0]?.id as string;
  await owner.teams.assign(team.id, memberId);
  const feature = await member.features.create(team.id, channelId, { heading });
  return {
    teamId: team.id,
    channelId,
    featureId: feature.id,
    path: [team.id, channelId, feature.id] as const,
  };
}
