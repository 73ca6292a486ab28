/**
 * Headless Chromium for browser tests: Debian's `chromium` package (or CHROMIUM_PATH), driven by
 * playwright-core — nothing is downloaded at run time. Where no browser is installed, browser
 * suites skip with a loud warning; with REQUIRE_BROWSER=1 (set by .ci/run) or CI set, they fail.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { describe, it } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function browserRequired(): boolean {
  return process.env.REQUIRE_BROWSER === '1' || Boolean(process.env.CI);
}

/** `env`: the browser's environment instead of this process's (e.g. a FONTCONFIG_FILE with fewer fonts). */
export function launchBrowser(options: { env?: Record<string, string | undefined> } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: 30_000,
    ...(options.env ? { env: options.env } : {}),
    // Root in containers has no user namespace for Chromium's sandbox.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** `describe` for suites that need a browser: runs, fails (required) or skips loudly. */
export function describeWithBrowser(name: string, body: () => void) {
  if (existsSync(CHROMIUM_PATH)) {
    describe(name, body);
    return;
  }
  const why = `no browser at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (browserRequired()) {
    describe(name, () => {
      it('needs a browser (REQUIRE_BROWSER=1 or CI is set)', () => {
        throw new Error(why);
      });
    });
    return;
  }
  console.warn(`\n⚠️  SKIPPED browser tests "${name}": ${why}\n`);
  describe.skip(name, body);
}
