/**
 * `../shared` (the contract documents) exists only in the development workspace. Tests that read it
 * skip with a clear message where it is absent, so a user's clone still passes; with
 * REQUIRE_SHARED=1 (set by .ci/run) its absence is a failure instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_DIR = fileURLToPath(new URL('../../../shared/', import.meta.url));

/** Path of a file under ../shared, or `undefined` when it is absent and not required. */
export function sharedFile(relative: string): string | undefined {
  const path = `${SHARED_DIR}${relative}`;
  if (existsSync(path)) return path;
  if (process.env.REQUIRE_SHARED === '1') {
    throw new Error(`REQUIRE_SHARED=1 but ${path} is missing: the contract check cannot run.`);
  }
  console.warn(`\n  !! SKIPPED: ${path} is absent (only the development workspace has ../shared).\n`);
  return undefined;
}

export function readSharedJson<T = unknown>(relative: string): T | undefined {
  const path = sharedFile(relative);
  return path === undefined ? undefined : (JSON.parse(readFileSync(path, 'utf8')) as T);
}
