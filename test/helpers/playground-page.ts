/**
 * The playground opened in headless Chromium as a person would see it, shared by the browser suites:
 * one page at a laptop's size, the page's own errors collected, and the moves every suite makes —
 * switching person, opening a channel, picking from an external select — each waiting on a condition
 * the page shows, never on time.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { type Playground, startPlayground } from '../../src/playground/index.js';
import { launchBrowser } from './browser.js';

/** Where each step's screenshot goes (kept after the run; not committed). */
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'playground');
/** How long one thing may take to appear: the machine is shared, but nothing waits forever. */
export const STEP_MS = 15_000;

export interface PlaygroundPage {
  playground: Playground;
  page: Page;
  /** Errors the page itself threw (a suite expects none). */
  pageErrors: string[];
  shot(name: string): Promise<Buffer>;
  modal(title: string | RegExp): Locator;
  /** A locator's text with its white space folded. */
  text(locator: Locator): Promise<string>;
  actAs(userId: string): Promise<void>;
  /** Opens channel `name` from the sidebar, once its own messages are shown. */
  openChannel(name: string): Promise<void>;
  /**
   * Does `open` — the clicks that open a conversation or the Home tab — and resolves once `list`
   * (`#messages` or `#home`) is drawn anew. The page names the place at once but reads what it
   * shows after: until then the list is the one shown before, and a count or a read of it is wrong.
   * (A drawing of the place before, still on its way when `open` clicks, would pass for the new one:
   * the page draws whatever answer comes last. Each open waiting for its own drawing leaves none.)
   */
  redrawn(list: '#messages' | '#home', open: () => Promise<void>): Promise<void>;
  /** Picks the first option an external select (single or multi) offers for `query`. */
  pickExternal(field: Locator, query: string, option: string | RegExp): Promise<void>;
  close(): Promise<void>;
}

/** Starts a playground and opens it in #api, acting as the workspace admin. */
export async function openPlaygroundPage(): Promise<PlaygroundPage> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const playground = await startPlayground({ port: 0, logLevel: 'error' });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(STEP_MS);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const opened: PlaygroundPage = {
      playground,
      page,
      pageErrors,
      shot: (name) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) }),
      modal: (title) => page.getByRole('dialog', { name: title }),
      text: async (locator) => (await locator.innerText()).replace(/\s+/g, ' '),
      async actAs(userId) {
        await page.locator('#person').selectOption(userId);
        // The page marks the switch done once it shows what this person sees.
        await page.locator(`body[data-user="${userId}"]`).waitFor({ state: 'attached' });
      },
      async openChannel(name) {
        const title = `# ${name}`;
        const open = async () => {
          await page.locator('#channels a', { hasText: title }).click();
          await page.locator('#channel-title', { hasText: title }).waitFor();
        };
        // Open already, its link leads nowhere new and nothing is drawn again: what is shown is its own.
        if ((await page.locator('#channel-title').textContent()) === title) return open();
        await opened.redrawn('#messages', open);
      },
      async redrawn(list, open) {
        // What is shown now is marked; the page's next drawing of the list replaces every child.
        // Strings, run in the page: the test's own types know no DOM.
        await page.evaluate(
          `for (const el of document.querySelectorAll(${JSON.stringify(`${list} > *`)})) el.setAttribute('data-drawn-before', '')`,
        );
        await open();
        await page.waitForFunction(
          `!document.querySelector(${JSON.stringify(`${list} > [data-drawn-before]`)})`,
        );
      },
      async pickExternal(field, query, option) {
        await field.click();
        await field.fill(query);
        await field
          .locator('xpath=..')
          .locator('.ext-options li[role=option]', { hasText: option })
          .first()
          .click();
      },
      async close() {
        await browser?.close();
        await playground.stop();
      },
    };
    await page.goto(`${playground.url}#C0API`);
    await opened.actAs('U0ADA');
    return opened;
  } catch (error) {
    await browser?.close();
    await playground.stop();
    throw error;
  }
}
