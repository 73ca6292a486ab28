/**
 * Request input → values the handlers can trust: the query string, JSON bodies and the multipart
 * avatar, each checked with the operation's own zod schema from the endpoint table. The first
 * problem becomes 400 `invalid-argument-<field>`; nothing malformed ever reaches a handler.
 */
import type { z } from 'zod';
import { invalidArgument } from './errors.js';

/** Query parameters that are integers on the wire; everything else stays a string. */
const NUMERIC_QUERY = new Set(['pageNumber', 'pageSize', 'aggregate', 'darkMode']);

/** Parses with `schema`, or throws 400 naming the first offending field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field =
    issue?.code === 'unrecognized_keys' ? (issue.keys[0] ?? 'body') : String(issue?.path[0] ?? 'body');
  throw invalidArgument(field, `${field}: ${issue?.message ?? 'invalid'}`);
}

export function queryObject(params: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, value] of params) {
    query[key] = NUMERIC_QUERY.has(key) && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return query;
}

/** A JSON body; an empty body reads as `{}` so missing fields are named by validation. */
export function jsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) return {};
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalidArgument('body', 'The request body is not valid JSON');
  }
}

/** The avatar upload: the platform's multipart parser (Fetch `Request.formData()`). */
export async function avatarBody(contentType: string | undefined, bytes: Buffer): Promise<unknown> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) {
    throw invalidArgument('avatar', 'Send the avatar as multipart/form-data with one field "avatar"');
  }
  let form: FormData;
  try {
    form = await new Request('http://sandbox.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: bytes,
    }).formData();
  } catch {
    throw invalidArgument('avatar', 'The multipart body could not be read');
  }
  const file = form.get('avatar');
  if (file === null) return {};
  if (typeof file === 'string') throw invalidArgument('avatar', 'avatar must be a file, not a text field');
  return { avatar: new Uint8Array(await file.arrayBuffer()) };
}
