/** Input the store refuses, with every problem named (never the offending value). */
import type { z } from 'zod';

export class StoreValidationError extends Error {
  constructor(
    what: string,
    readonly problems: string[],
  ) {
    super(`Invalid ${what}: ${problems.join('; ')}`);
    this.name = 'StoreValidationError';
  }
}

/** Parses `input` with `schema`, or throws {@link StoreValidationError} naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new StoreValidationError(
    what,
    parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'} ${issue.message}`),
  );
}
