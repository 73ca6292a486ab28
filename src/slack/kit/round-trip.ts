/**
 * JSON the app hands to Slack and gets back (private_metadata, button values). It comes back as
 * text from the outside, so it is parsed defensively and checked with its schema.
 */
import type { z } from 'zod';

/** The parsed JSON, or undefined when the text is absent or not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The carried value checked with `schema`, or undefined when it is missing or malformed. */
export function parseCarried<S extends z.ZodType>(
  schema: S,
  text: string | undefined,
): z.output<S> | undefined {
  const parsed = schema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}
