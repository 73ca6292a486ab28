/**
 * The sandbox's one error type: thrown anywhere in a handler, it becomes the contract's
 * `{id, message}` body with its status (NOTES.md "Errors").
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get body(): { id: string; message: string } {
    return { id: this.id, message: this.message };
  }
}

/** 400 `invalid-argument-<field>`. */
export const invalidArgument = (field: string, message: string) =>
  new ApiError(400, `invalid-argument-${field}`, message);

/** 404 `not-found`: unknown ids, ids of another organization, resources just deleted. */
export const notFound = (what: string) => new ApiError(404, 'not-found', `${what} not found`);

/** 403 `not-allowed`: the role does not allow it, or a business rule refuses it. */
export const notAllowed = (message: string) => new ApiError(403, 'not-allowed', message);

/** 402 `payment-*`: a plan limit. */
export const paymentRequired = (id: string, message: string) => new ApiError(402, `payment-${id}`, message);

/** The contract's 401 ids and their messages (openapi.json `info.description`). */
export const UNAUTHORIZED = {
  'jwt-missing': 'Authentication token missing',
  'jwt-format': 'Invalid JWT token',
  'jwt-format-header': 'Invalid JWT header',
  'jwt-format-body': 'Invalid JWT body',
  'jwt-payload': 'Invalid JWT payload',
  'jwt-issuer': 'Invalid JWT issuer',
  'auth-missing': 'Authorization header missing',
  'auth-invalid': 'Wrong authorization strategy',
  'auth-api-invalid': 'API user does not exist',
  'auth-api-expired': 'API token is no longer valid',
} as const;
export type UnauthorizedId = keyof typeof UNAUTHORIZED;

export const unauthorized = (id: UnauthorizedId) => new ApiError(401, id, UNAUTHORIZED[id]);

/** Throws in expression position: `lookup() ?? raise(notFound('Team'))`. */
export function raise(error: ApiError): never {
  throw error;
}
