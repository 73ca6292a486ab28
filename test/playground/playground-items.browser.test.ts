/**
 * The playground's page, issue 36 items 8, 9 and 11, in headless Chromium through the page only
 * (clicks and typing), checked on what the page shows and, for what the app did, on the sandbox's
 * state:
 * - 8: the sidebar opens a channel after switching people, whatever the address said;
 * - 9: reactions are drawn (the :memo: a recorded thread reply gets); a person edits and deletes
 *   their own message, and the app hears it (`message_changed` / `message_deleted`): the
 *   discovery the reply became follows;
 * - 11: on a machine without an emoji font (a second Chromium whose fontconfig knows only the
 *   plain sans font) emoji show as their shortcodes; with the font they are drawn.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Playground } from '../../src/playground/index.js';
import { describeWithBrowser, launchBrowser } from '../helpers/browser.js';
import { openPlaygroundPage, type PlaygroundPage, STEP_MS } from '../helpers/playground-page.js';

/** A fontconfig that knows only the directory of the machine's plain sans font: no emoji font. */
function fontconfigWithoutEmoji(dir: string): string {
  let sans = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
  try {
    sans = execFileSync('fc-match', ['-f', '%{file}', 'sans-serif'], { encoding: 'utf8' }) || sans;
  } catch {
    // No fc-match: Debian's DejaVu, which the chromium package depends on.
  }
  const file = join(dir, 'fonts.conf');
  writeFileSync(
    file,
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${dirname(sans)}</dir>
  <cachedir>${join(dir, 'cache')}</cachedir>
</fontconfig>
`,
  );
  return file;
}

describeWithBrowser(
  'playground page: sidebar after a switch, reactions, edits and deletions, emoji without a font',
  () => {
    let ui: PlaygroundPage;
    let playground: Playground;
    let page: Page;

    beforeAll(async () => {
      ui = await openPlaygroundPage();
      ({ playground, page } = ui);
    }, 60_000);

    afterAll(async () => {
      expect(ui?.pageErrors).toEqual([]);
      await ui?.close();
    });

    const title = () => page.locator('#channel-title');
    /** The planning service's state as JSON: what the app stored there. */
    const serviceState = () => JSON.stringify(playground.sandbox.state().features);

    it('item 8: after Ada → Gus (who lands in #general) → Ada, clicking #api in the sidebar opens it', async () => {
      await ui.actAs('U0ADA');
      await ui.openChannel('api');
      expect(new URL(page.url()).hash).toBe('#C0API');
      await ui.actAs('U0GUEST');
      await title().filter({ hasText: '# general' }).waitFor();
      await ui.actAs('U0ADA');
      await title().filter({ hasText: '# general' }).waitFor();
      await ui.openChannel('api');
      await page.locator('#messages .msg', { hasText: 'Welcome to the playground' }).waitFor();
      expect(new URL(page.url()).hash).toBe('#C0API');
      await ui.shot('i8-sidebar-after-switch');
    }, 90_000);

    it('a channel’s messages answered after another channel was opened are not drawn under its title', async () => {
      await ui.actAs('U0ADA');
      playground.workspace.post({ channel: 'C0API', user: 'U0ADA', text: 'only in api: rate limits' });
      playground.workspace.post({ channel: 'C0PRODUCT', user: 'U0ADA', text: 'only in product: roadmap' });
      await ui.openChannel('general');
      // #api's messages are held on their way until #product, opened after it, is drawn.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const isApiRead = (url: URL | string) => {
        const u = new URL(url);
        return u.pathname === '/pg/channel' && u.searchParams.get('channel') === 'C0API';
      };
      await page.route(isApiRead, async (route) => {
        await held;
        await route.continue();
      });
      const apiAnswered = page.waitForResponse((response) => isApiRead(response.url()));
      await page.locator('#channels a', { hasText: '# api' }).click();
      await title().filter({ hasText: '# api' }).waitFor();
      await ui.openChannel('product');
      await page.locator('#messages .msg', { hasText: 'only in product: roadmap' }).waitFor();
      release();
      await apiAnswered;
      // The page has read the late answer; a draw of it would replace the list now.
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))');
      await page.unroute(isApiRead);
      await expect(title().textContent()).resolves.toBe('# product');
      expect(await page.locator('#messages').innerText()).toContain('only in product: roadmap');
      expect(await page.locator('#messages').innerText()).not.toContain('only in api: rate limits');
    }, 90_000);

    it('a form being filled stays as it is when Slack says the modal changed but the view did not', async () => {
      await ui.actAs('U0ADA');
      await ui.openChannel('api');
      const source = page.locator('#messages .msg', { hasText: 'Welcome to the playground' }).first();
      await source.hover();
      await source.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: /Create task/ }).click();
      const create = ui.modal('Create task');
      const feature = create.getByLabel('Feature');
      await feature.click();
      await feature.fill('Rate');
      const option = feature
        .locator('xpath=..')
        .locator('.ext-options li[role=option]', { hasText: /Rate-limit the public API/ });
      await option.first().waitFor();
      // Another event for the same view (as when its opening and its update are told close together):
      // the person's typing and the open list stay.
      const asked = page.waitForResponse((r) => r.url().includes('/pg/modal'));
      playground.workspace.changed({ kind: 'modal', user: 'U0ADA' });
      await asked;
      // The page has handled the answer once two frames were drawn after it.
      await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      expect(await feature.inputValue()).toBe('Rate');
      await option.first().click({ timeout: STEP_MS });
      expect(await feature.inputValue()).toBe('Rate-limit the public API');
      await create
        .getByRole('button', { name: /Close|Done|Cancel/ })
        .first()
        .click();
      await create.waitFor({ state: 'detached' });
    }, 90_000);

    it('item 9: a recorded thread reply shows its :memo:; its author edits and deletes it, and the discovery follows', async () => {
      await ui.actAs('U0ADA');
      await ui.openChannel('api');
      // Replies in card threads become discoveries in #api: turned on in its link form.
      await page.locator('#composer-text').fill('/plan link');
      await page.locator('#composer-text').press('Enter');
      const link = ui.modal('Link this channel');
      await link.getByRole('checkbox', { name: 'Replies in card threads become discoveries' }).check();
      await link.getByRole('button', { name: 'Link' }).click();
      await link.getByText(/is linked to/).waitFor();
      await link
        .getByRole('button', { name: /Close|Done|Cancel/ })
        .first()
        .click();
      await link.waitFor({ state: 'detached' });

      // A task from a message; its card in the thread.
      await page.locator('#composer-text').fill('Field visit on Tuesday');
      await page.locator('#composer-text').press('Enter');
      const source = page.locator('#messages .msg', { hasText: 'Field visit on Tuesday' }).first();
      await source.hover();
      await source.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: /Create task/ }).click();
      const create = ui.modal('Create task');
      await create.getByLabel('Heading').fill('Visit the field site');
      await ui.pickExternal(create.getByLabel('Feature'), '', /Rate-limit the public API/);
      await create.getByRole('button', { name: 'Create' }).click();
      await create
        .getByText(/created/i)
        .first()
        .waitFor();
      await create
        .getByRole('button', { name: /Close|Done|Cancel/ })
        .first()
        .click();
      await source.getByRole('button', { name: /repl/ }).click();
      await page.locator('#thread-messages .msg', { hasText: 'Visit the field site' }).first().waitFor();

      // A reply in the card's thread: recorded, and the app's :memo: is drawn under it.
      await page.locator('#thread-text').fill('The sensor drifts');
      await page.locator('#thread-text').press('Enter');
      const reply = page.locator('#thread-messages .msg', { hasText: 'The sensor drifts' });
      const memo = reply.locator('.reaction[data-name="memo"]');
      await memo.waitFor();
      expect(await ui.text(memo)).toBe('📝 1');
      expect(await memo.getAttribute('title')).toContain('Team Planning');
      expect(serviceState()).toContain('The sensor drifts');
      await ui.shot('i9-reaction-drawn');

      // Edited by its author: the page shows it edited, and the discovery says the same.
      await reply.hover();
      await reply.getByRole('button', { name: 'More actions' }).click();
      await reply.getByRole('menuitem', { name: 'Edit message' }).click();
      // The text becomes an editor (the reply's text is then in the box, not on the page).
      const editor = page.locator('#thread-messages').getByRole('textbox', { name: 'Edit message' });
      expect(await editor.inputValue()).toBe('The sensor drifts');
      await editor.fill('The sensor drifts at night');
      await editor.press('Enter');
      const edited = page.locator('#thread-messages .msg', { hasText: 'The sensor drifts at night' });
      await edited.getByText('(edited)').waitFor();
      await expect.poll(serviceState, { timeout: STEP_MS }).toContain('The sensor drifts at night');
      await ui.shot('i9-edited');

      // Someone else cannot edit or delete it: their menu has no such items.
      await ui.actAs('U0GRACE');
      await ui.openChannel('api');
      const seenByGrace = page.locator('#messages .msg', { hasText: 'Field visit on Tuesday' }).first();
      await seenByGrace.hover();
      await seenByGrace.getByRole('button', { name: 'More actions' }).click();
      await page
        .getByRole('menuitem', { name: /Create task/ })
        .first()
        .waitFor();
      expect(await seenByGrace.getByRole('menuitem', { name: 'Edit message' }).count()).toBe(0);
      await page.keyboard.press('Escape');
      await page.locator('#channel-title').click();

      // Deleted by its author, after a confirmation: gone from the thread, and the discovery too.
      await ui.actAs('U0ADA');
      await ui.openChannel('api');
      await page
        .locator('#messages .msg', { hasText: 'Field visit on Tuesday' })
        .first()
        .getByRole('button', { name: /repl/ })
        .click();
      const mine = page.locator('#thread-messages .msg', { hasText: 'The sensor drifts at night' });
      await mine.hover();
      await mine.getByRole('button', { name: 'More actions' }).click();
      await mine.getByRole('menuitem', { name: 'Delete message' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete message' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await mine.waitFor({ state: 'detached' });
      await expect.poll(serviceState, { timeout: STEP_MS }).not.toContain('The sensor drifts');
      await ui.shot('i9-deleted');
    }, 180_000);

    it('item 11: without an emoji font emoji show as their shortcodes; with one they are drawn', async () => {
      await ui.actAs('U0ADA');
      await ui.openChannel('general');
      await page.locator('#composer-text').fill('Launch day :rocket: for real');
      await page.locator('#composer-text').press('Enter');
      const drawn = page.locator('#messages .msg', { hasText: 'Launch day' }).last();
      await drawn.waitFor();
      // This machine has an emoji font: the emoji itself.
      expect(await ui.text(drawn.locator('.mrkdwn').first())).toBe('Launch day 🚀 for real');

      const dir = mkdtempSync(join(tmpdir(), 'pg-fonts-'));
      let bare: Browser | undefined;
      try {
        bare = await launchBrowser({ env: { ...process.env, FONTCONFIG_FILE: fontconfigWithoutEmoji(dir) } });
        const other = await bare.newPage({ viewport: { width: 1280, height: 800 } });
        other.setDefaultTimeout(STEP_MS);
        const errors: string[] = [];
        other.on('pageerror', (error) => errors.push(error.message));
        await other.goto(`${playground.url}#C0GENERAL`);
        await other.locator('body[data-user]').waitFor({ state: 'attached' });
        await other.locator('#person').selectOption('U0ADA');
        await other.locator('body[data-user="U0ADA"]').waitFor({ state: 'attached' });
        await other.locator('#channels a', { hasText: '# general' }).click();
        const shown = other.locator('#messages .msg', { hasText: 'Launch day' }).last();
        await shown.locator('.s-emoji.as-code').waitFor();
        expect((await shown.locator('.mrkdwn').first().innerText()).replace(/\s+/g, ' ')).toBe(
          'Launch day :rocket: for real',
        );
        await other.screenshot({
          path: join(process.cwd(), 'test-results', 'playground', 'i11-no-emoji-font.png'),
        });
        expect(errors).toEqual([]);
      } finally {
        await bare?.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
