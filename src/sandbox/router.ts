/**
 * Routing compiled from the endpoint table (src/planning/endpoints.ts): method + path template →
 * operation. Where two templates fit one path (`/teams/users/{userId}` and `/teams/{teamId}`-style
 * shapes), the one with a literal segment earlier wins, as an author would read it.
 */
import { type OperationRef, operations } from '../planning/endpoints.js';

type Segment = { literal: string } | { param: string };

interface Route {
  op: OperationRef;
  segments: Segment[];
}

export type RouteMatch =
  | { kind: 'found'; op: OperationRef; params: Record<string, string> }
  /** The path exists with other methods: answer 405 with `Allow`. */
  | { kind: 'method'; allow: string[] }
  | { kind: 'none' };

export class Router {
  private readonly routes: Route[];

  constructor(ops: readonly OperationRef[] = operations) {
    this.routes = ops.map((op) => ({
      op,
      segments: split(op.def.path).map((part) => {
        const param = /^\{(\w+)\}$/.exec(part)?.[1];
        return param ? { param } : { literal: part };
      }),
    }));
    this.routes.sort((a, b) => specificity(b) - specificity(a));
  }

  /** Matches a path relative to `/v1`, e.g. `/teams/abc`. */
  match(method: string, path: string): RouteMatch {
    const parts = split(path);
    const allow = new Set<string>();
    for (const route of this.routes) {
      const params = bind(route.segments, parts);
      if (!params) continue;
      if (route.op.def.method === method) return { kind: 'found', op: route.op, params };
      allow.add(route.op.def.method);
    }
    return allow.size > 0 ? { kind: 'method', allow: [...allow] } : { kind: 'none' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((part) => part !== '');
}

/** Literal segments weigh more the earlier they come: a binary number read left to right. */
function specificity(route: Route): number {
  return route.segments.reduce((score, segment) => score * 2 + ('literal' in segment ? 1 : 0), 0);
}

function bind(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    const part = parts[index] as string;
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
      continue;
    }
    try {
      params[segment.param] = decodeURIComponent(part);
    } catch {
      return undefined;
    }
  }
  return params;
}
