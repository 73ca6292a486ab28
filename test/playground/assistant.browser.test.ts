/**
 * The assistant pane in a real browser, without any model: opened from the top bar, it shows the
 * app's suggested prompts and the channel it looks at; a prompt pressed is asked in the thread and
 * the app's answer (read from the demo organization as the person) shows there, the thread titled;
 * moving to another channel moves the pane with it. Driven through the page only; screenshots in
 * test-results/playground/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBrowser } from '../helpers/browser.js';
import { openPlaygroundPage, type PlaygroundPage } from '../helpers/playground-page.js';

describeWithBrowser('the assistant pane in a browser', () => {
  let ui: PlaygroundPage;
  let page: Page;

  beforeAll(async () => {
    ui = await openPlaygroundPage();
    ({ page } = ui);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  const pane = () => page.locator('#assistant');

  it('shows the prompts, answers one in the thread, and follows the open channel', async () => {
    await page.locator('#assistant-open').click();
    await pane().waitFor({ state: 'visible' });
    const prompt = page.locator('#assistant-prompts button', { hasText: 'What is waiting for me?' });
    await prompt.waitFor();
    expect(await page.locator('#assistant-prompts button').count()).toBe(4);
    expect(await ui.text(page.locator('#assistant-context'))).toBe('Looking at # api');
    await page.locator('#assistant-messages .msg', { hasText: 'Ask me, or pick a suggestion' }).waitFor();
    await ui.shot('assistant-1-prompts');

    await prompt.click();
    const answer = page.locator('#assistant-messages .msg', { hasText: /You have \d+ open tasks?/ });
    await answer.waitFor();
    expect(await ui.text(answer)).toContain('My open tasks');
    // The status said while reading is gone once the answer is there, as Slack clears it.
    await page.waitForFunction("document.getElementById('assistant-status').textContent === ''", null, {
      timeout: 15_000,
    });
    await page
      .locator('#assistant-title', { hasText: 'What’s waiting for me?' })
      .or(page.locator('#assistant-title', { hasText: "What's waiting for me?" }))
      .waitFor();
    await ui.shot('assistant-2-answer');

    // The person moves to another channel: the pane looks at it too.
    await ui.openChannel('general');
    await page.locator('#assistant-context', { hasText: 'Looking at # general' }).waitFor();

    // A question it does not know: what it can answer.
    await page.locator('#assistant-text').fill('tell me a joke');
    await page.locator('#assistant-text').press('Enter');
    await page.locator('#assistant-messages .msg', { hasText: 'Here is what I can answer' }).waitFor();
    await ui.shot('assistant-3-can-do');
    expect(ui.pageErrors).toEqual([]);
  });

  it('a guest opening it gets the one sentence, in the pane', async () => {
    await ui.actAs('U0GUEST');
    await page.locator('#assistant-open').click();
    await page
      .locator('#assistant-messages .msg', { hasText: 'Only full members of this workspace' })
      .waitFor();
    expect(await page.locator('#assistant-prompts button').count()).toBe(0);
    await ui.shot('assistant-4-guest');
    expect(ui.pageErrors).toEqual([]);
  });
});
