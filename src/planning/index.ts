/**
 * The Team Planning Service client: `createPlanningClient({ baseUrl, token })`, its errors, its
 * models and its endpoint table. Other modules import the client from here only.
 */
export {
  type CallOptions,
  closePlanningPools,
  createPlanningClient,
  DEFAULT_MAX_CONNECTIONS,
  orgIdFromToken,
  type PlanningClient,
  type PlanningClientOptions,
  type RequestEvent,
} from './client.js';
export { type Area, endpoints, type OperationRef, operations } from './endpoints.js';
export {
  AbortedError,
  ConflictError,
  errorFromResponse,
  ForbiddenError,
  InvalidArgumentError,
  isPlanningError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  PlanningError,
  RateLimitedError,
  ResponseShapeError,
  ServiceError,
  TimeoutError,
  UnauthorizedError,
} from './errors.js';
export * from './models.js';
export type { PageRequest } from './paginate.js';
export type { BackoffOptions } from './retry.js';
// The HTTP beneath the client, shared with the process's Slack clients (src/clients.ts): one
// keep-alive pool per origin, one bounded attempt, nothing resent.
export { poolFor, type RawResponse, sendOnce } from './transport.js';
