/**
 * The README is the front door: every path it names in code spans (`src/…`, `test/…`, `bench/…`,
 * `scripts/…`, `docs/…`) exists, so its Architecture table and its pointers to tests stay true as
 * files move.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { helpMessage } from '../src/slack/kit/help.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** Paths in code spans; placeholders (`src/slack/<topic>`) and globs are not paths. */
const named = [...readme.matchAll(/`((?:src|test|bench|scripts|docs)\/[^`\s]*)`/g)]
  .map((m) => m[1]!)
  .filter((path) => !/[<>*]/.test(path));

describe('README', () => {
  it('names paths (the Architecture table among them)', () => {
    expect(named.length).toBeGreaterThan(20);
    expect(named).toContain('src/slack/bolt/');
  });

  it('names only paths that exist', () => {
    const missing = [...new Set(named)].filter((path) => !existsSync(`${ROOT}${path.replace(/\/$/, '')}`));
    expect(missing).toEqual([]);
  });
});

describe("what the README and /plan help say about Slack's menus (issue 23 item 18)", () => {
  it("name Slack's More actions menu ⋮ as Slack shows it, never ⋯", () => {
    const help = JSON.stringify(helpMessage([]));
    expect(help).toContain('⋮');
    expect(help).not.toContain('⋯');
    expect(readme).toContain('*More actions* (⋮)');
    expect(readme).not.toContain('⋯');
  });
});
