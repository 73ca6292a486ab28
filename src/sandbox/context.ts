/**
 * What a handler receives, typed from its row of the endpoint table: path parameters by name,
 * the parsed body and query of that operation, and the authenticated caller.
 */
import type { z } from 'zod';
import type { Area, EndpointDef, Endpoints, PathParamNames } from '../planning/endpoints.js';
import type { OrgRole } from '../planning/models.js';
import type { Tokens } from './auth.js';
import type { AccountRec, OrgRec } from './state.js';
import type { Store } from './store.js';

export interface RequestCtx<P extends string = string, B = unknown, Q = unknown> {
  store: Store;
  tokens: Tokens;
  params: Record<P, string>;
  body: B;
  query: Q;
  /** `http://host:port` of the sandbox, for links it hands out (checkout). */
  origin: string;
}

export interface Ctx<P extends string = string, B = unknown, Q = unknown> extends RequestCtx<P, B, Q> {
  actor: AccountRec;
  org: OrgRec;
  role: OrgRole;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export type HandlerFor<D> =
  D extends EndpointDef<infer P, z.ZodType, infer B, infer Q>
    ? (ctx: Ctx<PathParamNames<P>[number], Output<B>, Output<Q>>) => unknown
    : never;

/** One handler per operation of an area; the compiler refuses a missing one. */
export type AreaHandlers<A extends Area> = { [N in keyof Endpoints[A]]: HandlerFor<Endpoints[A][N]> };
