/**
 * One way to change things (issue 34): each protocol exists once, and this keeps it so where an
 * import rule cannot see (a store method called, an option set) — the dependency rules in
 * .dependency-cruiser.cjs keep the rest (who may refresh cards or send a DM about a change).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every TypeScript file under src/, with its text. */
function sources(dir = join(ROOT, 'src')): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts')
      ? [{ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }]
      : [];
  });
}

/** The files outside `allowed` (path prefixes) whose code matches `pattern`. */
function usedOutside(pattern: RegExp, allowed: readonly string[]): string[] {
  return sources()
    .filter((f) => !allowed.some((prefix) => f.path.startsWith(prefix)) && pattern.test(f.text))
    .map((f) => f.path);
}

describe('one way to change things', () => {
  it('reads the source it checks', () => {
    expect(sources().length).toBeGreaterThan(100);
    expect(usedOutside(/once\.run\(/, [])).toContain('src/slack/kit/submission.ts');
  });

  it('"do this once" and "one at a time" are the store\'s helpers: no key taken or lock held by hand', () => {
    expect(usedOutside(/\bonce\.(begin|finish)\(/, ['src/store/'])).toEqual([]);
    expect(usedOutside(/\blocks\.(acquire|release)\(/, ['src/store/'])).toEqual([]);
  });

  it("only the change funnel writes the watch's notes", () => {
    expect(usedOutside(/slackNotes\.note\(/, ['src/store/', 'src/slack/kit/changes/'])).toEqual([]);
  });

  it('Slack clients have no retry policy of their own: the one sender decides', () => {
    expect(usedOutside(/retryConfig\s*:/, ['src/clients.ts'])).toEqual([]);
    // Every WebClient the app makes takes the sender as its fetch.
    for (const file of sources().filter((f) => /new (webApi\.)?WebClient\(/.test(f.text))) {
      expect(file.text, file.path).toMatch(/SLACK_CLIENT_OPTIONS/);
      expect(file.text, file.path).toMatch(/fetch/);
    }
  });
});
