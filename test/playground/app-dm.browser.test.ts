/**
 * The app's DM in a real browser: its composer shows because the app's manifest keeps the Messages
 * tab writable, and what a person types there reaches the app as Slack's `message.im` event —
 * whose answer the page shows. Driven through the page only; screenshots in test-results/playground/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appManifest } from '../../src/slack/topics.js';
import { describeWithBrowser } from '../helpers/browser.js';
import { openPlaygroundPage, type PlaygroundPage } from '../helpers/playground-page.js';

describeWithBrowser('the app DM in a browser', () => {
  let ui: PlaygroundPage;
  let page: Page;

  beforeAll(async () => {
    ui = await openPlaygroundPage();
    ({ page } = ui);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  /** Opens the app's Messages tab. */
  async function openAppDm() {
    await page.locator('#apps a', { hasText: 'Team Planning' }).click();
    await page.locator('#app-tabs button', { hasText: 'Messages' }).click();
  }

  /** Types `text` in the composer and sends it. */
  async function type(text: string) {
    await page.locator('#composer-text').fill(text);
    await page.locator('#composer-text').press('Enter');
  }

  /** The app's messages in the open conversation that contain `text`. */
  const fromApp = (text: string) => page.locator('#messages .msg', { hasText: text });

  it('the composer follows the manifest, and a typed message gets the app’s answer', async () => {
    // The app's manifest opens its Messages tab for typing: the page shows the composer there.
    expect(appManifest().features.app_home.messages_tab_read_only_enabled).toBe(false);
    await openAppDm();
    await page.locator('#composer-text').waitFor({ state: 'visible' });

    await type('hello, what can you do?');
    await page.locator('#messages .msg', { hasText: 'hello, what can you do?' }).waitFor();
    const answer = fromApp('I answer commands rather than messages. Here is what I can do');
    await answer.waitFor();
    expect(await ui.text(answer)).toContain('/plan connect');
    expect(await ui.text(answer)).toContain('/plan tasks');
    await ui.shot('app-dm-1-help-answer');

    // A command word gets the exact command.
    await type('digest');
    const pointed = fromApp('type it as a command');
    await pointed.waitFor();
    expect(await ui.text(pointed)).toContain('/plan digest');
    expect(await ui.text(pointed)).not.toContain('/plan grade');
    await ui.shot('app-dm-2-command-answer');

    // The Home tab has no composer.
    await page.locator('#app-tabs button', { hasText: 'Home' }).click();
    await page.locator('#composer').waitFor({ state: 'hidden' });
    expect(ui.pageErrors).toEqual([]);
  });

  it('a guest who types there gets the one sentence', async () => {
    await ui.actAs('U0GUEST');
    await openAppDm();
    await type('hi');
    const refusal = fromApp('Only full members of this workspace');
    await refusal.waitFor();
    expect(await fromApp('I answer commands rather than messages').count()).toBe(0);
    await ui.shot('app-dm-3-guest');
    expect(ui.pageErrors).toEqual([]);
  });
});
