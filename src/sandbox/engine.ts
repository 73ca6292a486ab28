/**
 * Runs one operation: checks its query and body with the endpoint table's schemas, builds the
 * handler's context and calls the handler. The HTTP server and the in-process callers (seeds,
 * test handles) both come through here, so seeded data obeys the same rules as requests.
 */
import type { z } from 'zod';
import {
  type Area,
  type Endpoints,
  type OperationRef,
  operations,
  pathParamNames,
} from '../planning/endpoints.js';
import type { Principal, Tokens } from './auth.js';
import type { Ctx, RequestCtx } from './context.js';
import { unauthorized } from './errors.js';
import { handlers } from './handlers/index.js';
import { validate } from './input.js';
import { requireEditable } from './stages.js';
import type { AccountRec } from './state.js';
import type { Store } from './store.js';

/** `area.name`, e.g. `teams.create`. */
export type OperationName = { [A in Area]: `${A}.${keyof Endpoints[A] & string}` }[Area];
type DefOf<N extends OperationName> = N extends `${infer A extends Area}.${infer O}`
  ? O extends keyof Endpoints[A]
    ? Endpoints[A][O]
    : never
  : never;
/** What an operation answers, as the project's models parse it. */
export type ResultOf<N extends OperationName> = z.output<DefOf<N>['result']>;

type AnyHandler = (ctx: Ctx) => unknown;

export interface RawInput {
  params: Record<string, string>;
  query?: unknown;
  body?: unknown;
}

export class Engine {
  constructor(
    readonly store: Store,
    readonly tokens: Tokens,
  ) {}

  handlerOf(op: OperationRef): AnyHandler {
    return (handlers[op.area] as unknown as Record<string, AnyHandler>)[op.name] as AnyHandler;
  }

  /** May this operation be called without credentials? The endpoint table says. */
  allowsAnonymous(op: OperationRef): boolean {
    return op.def.anonymous === true;
  }

  async run(
    op: OperationRef,
    principal: Principal | undefined,
    input: RawInput,
    origin: string,
  ): Promise<unknown> {
    const handler = this.handlerOf(op);
    if (!principal && !this.allowsAnonymous(op)) throw unauthorized('auth-missing');
    const ctx: RequestCtx & Partial<Ctx> = {
      store: this.store,
      tokens: this.tokens,
      params: input.params,
      query: op.def.query ? validate(op.def.query, input.query ?? {}) : undefined,
      body: op.def.body ? validate(op.def.body, input.body ?? {}) : undefined,
      origin,
      ...(principal && {
        actor: principal.account,
        org: principal.org,
        role: principal.account.roles[principal.org.id],
      }),
    };
    // Every operation the table marks as changing a feature is refused in deep context, here
    // rather than in each handler, so a new handler cannot forget it.
    if (op.def.editsFeature && principal) {
      const { teamId = '', channelId = '', featureId = '' } = input.params;
      requireEditable(this.store.feature(principal.org.id, teamId, channelId, featureId));
    }
    return handler(ctx as Ctx);
  }

  /**
   * Calls an operation in-process as `actor`, like the client would: path parameters in path
   * order, then the body (operations with a payload) or the query. Used by seeds and test handles.
   */
  async call<N extends OperationName>(
    actor: AccountRec,
    operation: N,
    pathParams: string[] = [],
    input?: unknown,
  ): Promise<ResultOf<N>> {
    const op = operations.find((candidate) => candidate.operation === operation);
    if (!op) throw new Error(`Unknown operation ${operation}`);
    const params = Object.fromEntries(
      pathParamNames(op.def.path).map((name, i) => [name, pathParams[i] ?? '']),
    );
    const principal = { account: actor, org: this.store.org(actor.homeOrgId) };
    const raw = await this.run(
      op,
      principal,
      op.def.body ? { params, body: input } : { params, query: input },
      'http://sandbox.invalid',
    );
    return op.def.result.parse(raw) as ResultOf<N>;
  }
}
