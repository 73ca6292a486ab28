/**
 * Service-account tokens: HS256 JWTs (jose) carrying `org_id`, `sub` (the account id) and `ver`,
 * the account's token version. Regenerating or closing an account bumps the version, so every
 * earlier token is refused with `auth-api-expired` while the signature is still good.
 *
 * How each failure maps to the contract's 401 ids:
 * - no `Authorization` header → `auth-missing`; a scheme other than Bearer → `auth-invalid`;
 *   `Bearer` with nothing after it → `jwt-missing`;
 * - not three dot-separated parts → `jwt-format`; an unreadable header or an algorithm other than
 *   HS256 → `jwt-format-header`; an unreadable payload → `jwt-format-body`;
 * - claims missing or mistyped, or an `x-org-id` header that differs from `org_id` → `jwt-payload`;
 * - a bad signature → `jwt-issuer` (the token was not issued by this service);
 * - `exp` in the past, an older `ver`, or a closed account → `auth-api-expired`;
 * - no such account in that organization → `auth-api-invalid`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import { unauthorized } from './errors.js';
import type { AccountRec, OrgRec } from './state.js';
import type { Store } from './store.js';

export interface Principal {
  account: AccountRec;
  org: OrgRec;
}

export interface IssueOptions {
  /** Expiry, epoch ms. Service tokens do not expire unless asked to (tests of expired tokens). */
  expiresAt?: number;
}

export class Tokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly store: Store,
  ) {
    this.key = Buffer.from(secret, 'base64url');
  }

  /** Signs a token for the account's current version (does not store it). */
  async issue(account: AccountRec, { expiresAt }: IssueOptions = {}): Promise<string> {
    const now = this.store.now();
    const jwt = new SignJWT({ org_id: account.homeOrgId, ver: account.tokenVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(account.id)
      .setJti(`${account.id}.${account.tokenVersion}`)
      .setIssuedAt(Math.floor(now / 1000));
    if (expiresAt !== undefined) jwt.setExpirationTime(Math.floor(expiresAt / 1000));
    return jwt.sign(this.key);
  }

  /** Replaces the account's token: every earlier one stops working. */
  async rotate(account: AccountRec): Promise<void> {
    account.tokenVersion += 1;
    account.serviceToken = await this.issue(account);
  }

  /** The caller behind a request's headers; throws the contract's 401 otherwise. */
  async authenticate(headers: IncomingHttpHeaders): Promise<Principal> {
    const header = headers.authorization;
    if (header === undefined) throw unauthorized('auth-missing');
    const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
    if (!match) throw unauthorized('auth-invalid');
    const token = match[1]?.trim() ?? '';
    if (token === '') throw unauthorized('jwt-missing');
    if (token.split('.').length !== 3) throw unauthorized('jwt-format');

    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw unauthorized('jwt-format-header');
    }
    if (alg !== 'HS256') throw unauthorized('jwt-format-header');
    let claims: Record<string, unknown>;
    try {
      claims = decodeJwt(token);
    } catch {
      throw unauthorized('jwt-format-body');
    }
    const { org_id: orgId, sub, ver } = claims;
    if (typeof orgId !== 'string' || typeof sub !== 'string' || typeof ver !== 'number') {
      throw unauthorized('jwt-payload');
    }
    const orgHeader = headers['x-org-id'];
    if (orgHeader !== undefined && orgHeader !== orgId) throw unauthorized('jwt-payload');

    try {
      await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: new Date(this.store.now()) });
    } catch (error) {
      if (error instanceof errors.JWSSignatureVerificationFailed) throw unauthorized('jwt-issuer');
      if (error instanceof errors.JWTExpired) throw unauthorized('auth-api-expired');
      throw unauthorized('jwt-format');
    }

    const account = this.store.account(sub);
    const org = this.store.state.orgs[orgId];
    if (!account || !org || account.homeOrgId !== orgId) throw unauthorized('auth-api-invalid');
    if (ver !== account.tokenVersion || account.closedTime !== 0) throw unauthorized('auth-api-expired');
    return { account, org };
  }
}
