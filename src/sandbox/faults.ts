/**
 * Test controls over the wire: failures and stalls injected into the next matching requests,
 * a latency added to every response, and a log of the requests each operation received.
 */
import type { OperationRef } from '../planning/endpoints.js';

export interface FaultRule {
  /** Match an operation by its OpenAPI id (`teamCreate`) or its client name (`teams.create`); any when omitted. */
  operationId?: string;
  /** Match an HTTP method; any when omitted. */
  method?: string;
  /**
   * Answer with this status instead of running the operation. Omit it (with `delayMs`) to only
   * slow the request down. 401, 429 and 5xx get the contract's ids; 429 gets `Retry-After: 1`.
   */
  status?: number;
  /** Response body; defaults to `{id, message}` fitting the status. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long first (a slow service: client timeouts). */
  delayMs?: number;
  /**
   * Run the operation, then wait this long before answering: a service that applied a change but
   * answered too late (the client timed out, and must not send it again when it is not idempotent).
   */
  answerDelayMs?: number;
  /** Never answer: the request stays open until the client gives up or the sandbox closes. */
  hang?: boolean;
  /**
   * Hold the request until this settles, then go on (in-process tests only): a window, as long as
   * the test needs, between a request's arrival and the service acting on it.
   */
  holdUntil?: Promise<unknown>;
  /** How many matching requests this applies to (default 1). */
  times?: number;
}

const DEFAULT_IDS: Record<number, [string, string]> = {
  401: ['auth-api-expired', 'API token is no longer valid'],
  402: ['payment-required', 'Payment required'],
  403: ['not-allowed', 'Not allowed'],
  404: ['not-found', 'Not found'],
  409: ['conflict', 'This request is in conflict with another'],
  429: ['auth-api-limited', 'API daily usage limit reached'],
};

/** The response an injected status produces when the rule gives no body. */
export function injectedResponse(rule: FaultRule & { status: number }): {
  body: unknown;
  headers: Record<string, string>;
} {
  const [id, message] = DEFAULT_IDS[rule.status] ?? [
    'sandbox-injected',
    `Injected failure (HTTP ${rule.status})`,
  ];
  const headers = rule.status === 429 ? { 'retry-after': '1', ...rule.headers } : { ...rule.headers };
  return { body: rule.body ?? { id, message }, headers };
}

export class Faults {
  latencyMs = 0;
  private rules: (FaultRule & { remaining: number })[] = [];

  inject(rule: FaultRule): void {
    this.rules.push({ ...rule, remaining: rule.times ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  /** The first rule matching this request, consumed by one use. */
  take(op: OperationRef, method: string): FaultRule | undefined {
    const rule = this.rules.find(
      (r) =>
        (r.operationId === undefined ||
          r.operationId === op.def.operationId ||
          r.operationId === op.operation) &&
        (r.method === undefined || r.method.toUpperCase() === method),
    );
    if (!rule) return undefined;
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
    return rule;
  }
}

export interface RequestRecord {
  /** OpenAPI id, e.g. `teamCreate`. */
  operationId: string;
  /** Client name, e.g. `teams.create`. */
  operation: string;
  method: string;
  path: string;
  /** Filled in when the response is sent (absent while a request hangs). */
  status?: number;
  at: number;
}

/** Every request that reached an operation, failed or not, in arrival order. */
export class RequestLog {
  readonly entries: RequestRecord[] = [];

  /** Requests received by an operation (`teamCreate` or `teams.create`), or all of them. */
  count(operation?: string): number {
    if (operation === undefined) return this.entries.length;
    return this.entries.filter((e) => e.operationId === operation || e.operation === operation).length;
  }

  reset(): void {
    this.entries.length = 0;
  }
}
