/**
 * `../shared` (the contract documents) exists only in the development workspace. Tests that read it
 * skip with a clear message where it is absent, so a user's clone still passes; with
 * REQUIRE_SHARED=1 (set by .ci/run) its absence is a failure instead. TEST_SHARED_DIR points the
 * tests elsewhere (to check that they skip or fail as they should when it is missing).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_DIR = process.env.TEST_SHARED_DIR
  ? `${process.env.TEST_SHARED_DIR.replace(/\/$/, '')}/`
  : fileURLToPath(new URL('../../../shared/', import.meta.url));

/** What a test does about a file under ../shared: read it, skip (with why), or fail (with why). */
export type SharedDecision = { use: string } | { skip: string } | { fail: string };

/** Decides, from whether the file exists and REQUIRE_SHARED, what a test does about it. */
export function decideShared(path: string, exists: boolean, required: boolean): SharedDecision {
  if (exists) return { use: path };
  if (required) return { fail: `REQUIRE_SHARED=1 but ${path} is missing: the contract check cannot run.` };
  return { skip: `${path} is absent (only the development workspace has ../shared).` };
}

/** Path of a file under ../shared, or `undefined` when it is absent and not required. */
export function sharedFile(relative: string): string | undefined {
  const path = `${SHARED_DIR}${relative}`;
  const decision = decideShared(path, existsSync(path), process.env.REQUIRE_SHARED === '1');
  if ('use' in decision) return decision.use;
  if ('fail' in decision) throw new Error(decision.fail);
  console.warn(`\n  !! SKIPPED: ${decision.skip}\n`);
  return undefined;
}

export function readSharedJson<T = unknown>(relative: string): T | undefined {
  const path = sharedFile(relative);
  return path === undefined ? undefined : (JSON.parse(readFileSync(path, 'utf8')) as T);
}
