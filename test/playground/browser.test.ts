/**
 * The playground in a real browser: the whole story of the app, clicked through as people would —
 * a task from a message, its card in the thread, feedback, the assignee's reply from their DM, a
 * peer grade, and today's digest — switching people as needed. Every step checks what the page
 * shows, and leaves a screenshot in test-results/playground/ for people to look at.
 */
import { WebClient } from '@slack/web-api';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Playground } from '../../src/playground/index.js';
import { describeWithBrowser } from '../helpers/browser.js';
import { openPlaygroundPage, type PlaygroundPage } from '../helpers/playground-page.js';

describeWithBrowser('playground in a browser', () => {
  let ui: PlaygroundPage;
  let playground: Playground;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    ui = await openPlaygroundPage();
    ({ playground, page, pageErrors } = ui);
  }, 60_000);

  afterAll(async () => {
    await ui?.close();
  });

  const shot = (name: string) => ui.shot(name);
  const modal = (title: string | RegExp) => ui.modal(title);
  const text = (locator: Locator) => ui.text(locator);
  const actAs = (userId: string) => ui.actAs(userId);
  const openChannel = (name: string) => ui.openChannel(name);
  const pickExternal = (field: Locator, query: string, option: string | RegExp) =>
    ui.pickExternal(field, query, option);

  it('creates a task from a message, gives feedback, replies as the assignee, grades a peer and posts the digest', async () => {
    // 1. Ada turns Alan's message into a task; an empty feature is refused on the field first.
    const source = page.locator('#messages .msg', { hasText: 'nightly export' });
    await source.hover();
    await source.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: /Create task/ }).click();
    const create = modal('Create task');
    await create.getByLabel('Heading').waitFor();
    expect(await create.getByLabel('Heading').inputValue()).toContain('nightly export');
    await create.getByLabel('Heading').fill('Page the nightly export');
    await create.getByLabel('Assignee').selectOption({ label: 'Alan Turing' });
    await create.getByRole('button', { name: 'Create' }).click();
    await create.locator('.field-error', { hasText: 'Choose a feature' }).waitFor();
    await shot('1-create-task-field-error');
    await pickExternal(create.getByLabel('Feature'), '', /Rate-limit the public API/);
    await create.getByRole('button', { name: 'Create' }).click();
    await create
      .getByText(/created/i)
      .first()
      .waitFor();
    await shot('1-create-task-done');
    await create
      .getByRole('button', { name: /Close|Done|Cancel/ })
      .first()
      .click();
    await create.waitFor({ state: 'detached' });

    // 2. The task card is in the message's thread.
    await source.getByRole('button', { name: /1 repl/ }).click();
    const card = page.locator('#thread-messages .msg', { hasText: 'Page the nightly export' });
    await card.waitFor();
    expect(await text(card)).toMatch(/Alan Turing/);
    await shot('2-card-in-thread');

    // 3. Ada gives feedback from the card's button.
    await card.getByRole('button', { name: 'Give feedback' }).click();
    const feedback = modal('Give feedback');
    await feedback.getByLabel('Issue').selectOption({ index: 1 });
    await feedback.getByLabel('Feedback').fill('Please page by 1,000 tasks and keep the order stable.');
    await feedback.getByRole('button', { name: 'Send' }).click();
    await feedback.getByText('Feedback sent').waitFor();
    await shot('3-feedback-sent');
    await feedback
      .getByRole('button', { name: /Close|Done|Cancel/ })
      .first()
      .click();

    // 4. Alan replies from his DM with the app.
    await actAs('U0ALAN');
    await page.locator('#apps a', { hasText: 'Team Planning' }).click();
    await page.locator('#app-tabs button', { hasText: 'Messages' }).click();
    const dm = page.locator('#messages .msg', { hasText: 'gave feedback on your task' });
    await dm.waitFor();
    expect(await text(dm)).toContain('Please page by 1,000 tasks');
    expect(await text(dm)).toContain('Ada Lovelace');
    await dm.getByRole('button', { name: 'Reply' }).click();
    const reply = modal('Reply to feedback');
    await reply.getByLabel('Your reply').fill('Done: pages of 1,000, ordered by id.');
    await reply.getByRole('button', { name: 'Reply' }).click();
    await reply.getByText('Reply recorded').waitFor();
    await shot('4-assignee-replied');
    await reply
      .getByRole('button', { name: /Close|Done|Cancel/ })
      .first()
      .click();

    // 5. Alan grades a peer from the lightning menu.
    await page.locator('#lightning').click();
    await page.getByRole('menuitem', { name: /Grade a peer/ }).click();
    const grade = modal('Grade a peer');
    await grade.getByLabel('Peer').selectOption({ label: 'Grace Hopper' });
    await pickExternal(grade.getByLabel('Notion'), 'type', 'typescript');
    await grade.getByLabel('Grade').selectOption('8');
    await grade.getByRole('button', { name: 'Grade' }).click();
    await grade
      .getByText(/recorded|graded|saved/i)
      .first()
      .waitFor();
    await shot('5-peer-graded');
    await grade
      .getByRole('button', { name: /Close|Done|Cancel/ })
      .first()
      .click();

    // 6. Ada was told of the reply, and posts today's digest in #api.
    await actAs('U0ADA');
    await page.locator('#apps a', { hasText: 'Team Planning' }).click();
    await page.locator('#app-tabs button', { hasText: 'Messages' }).click();
    await page.locator('#messages .msg', { hasText: 'Done: pages of 1,000' }).waitFor();
    await openChannel('api');
    await page.getByRole('button', { name: "Post today's digest" }).click();
    await page.locator('#messages .msg.ephemeral', { hasText: 'Posted the digest in #api' }).waitFor();
    const digest = page.locator('#messages .msg:not(.ephemeral)').last();
    expect(await text(digest)).toContain('Team Planning');
    expect(await text(digest)).toContain('Planning digest');
    expect(await text(digest)).toContain('Features by stage');
    expect(await digest.getByRole('button', { name: 'Advance' }).count()).toBeGreaterThan(0);
    await shot('6-digest-posted');

    // 7. The guest sees only the channels they are in, and gets no planning account.
    await actAs('U0GUEST');
    expect(await page.locator('#channels a').allInnerTexts()).toEqual(['# general', '# product']);
    await openChannel('product');
    await page.locator('#composer-text').fill('/plan whoami');
    await page.locator('#composer-text').press('Enter');
    await page.locator('#messages .msg.ephemeral', { hasText: 'a guest in this workspace' }).waitFor();
    await shot('7-guest-refused');

    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('links a channel with /plan link: a dispatching select refreshes the modal, time picker, type-ahead and checkboxes', async () => {
    await actAs('U0ADA');
    await openChannel('general');
    await page.locator('#composer-text').fill('/plan link');
    await page.locator('#composer-text').press('Enter');
    const link = modal('Link this channel');
    await link.getByLabel('Planning team').selectOption({ label: 'Mobile' });
    // Picking a team is a block action: the app updates the view with that team's channels.
    await link.getByLabel('Planning channel').selectOption({ label: 'General (default)' });
    await link.getByLabel('Daily digest at').fill('08:30');
    await pickExternal(link.getByLabel('Time zone'), 'Europe/Ber', 'Europe/Berlin');
    await link.getByRole('checkbox', { name: 'Weekdays only' }).uncheck();
    await shot('8-link-modal');
    await link.getByRole('button', { name: 'Link' }).click();
    await link.getByText(/is linked to/).waitFor();
    expect(await text(link)).toContain('Mobile › General');
    await link
      .getByRole('button', { name: /Close|Done|Cancel/ })
      .first()
      .click();
    const stored = await playground.app.store.links.get('T0PLAYGRND', 'C0GENERAL');
    expect(stored).toMatchObject({ digestTime: '08:30', timeZone: 'Europe/Berlin', weekdaysOnly: false });
  }, 60_000);

  it('keeps the plan in #general’s canvas: the Canvas tab renders it and follows a change made from Slack', async () => {
    await actAs('U0ADA');
    await openChannel('general');
    await page.locator('#composer-text').fill('/plan link');
    await page.locator('#composer-text').press('Enter');
    const link = modal('Link this channel');
    await link.getByLabel('Planning team').selectOption({ label: 'Mobile' });
    await link.getByLabel('Planning channel').selectOption({ label: 'General (default)' });
    await link.getByRole('checkbox', { name: 'Keep the plan in a channel canvas' }).check();
    await link.getByRole('button', { name: 'Link' }).click();
    await link.getByText(/kept in the channel’s canvas/).waitFor();
    await link
      .getByRole('button', { name: /Close|Done|Cancel/ })
      .first()
      .click();

    await page.locator('#channel-tabs button[data-tab="canvas"]').click();
    const canvas = page.locator('#canvas');
    await canvas.locator('h1', { hasText: 'Mobile › General' }).waitFor();
    expect(await canvas.locator('h2').count()).toBeGreaterThan(0);
    await shot('9-channel-canvas');

    // A feature made from Slack: the app edits the canvas at once, and its tab shows it.
    await page.locator('#channel-tabs button[data-tab="messages"]').click();
    await page.locator('#composer-text').fill('/plan feature new');
    await page.locator('#composer-text').press('Enter');
    const feature = modal('New feature');
    await feature.getByLabel('Planning team').selectOption({ label: 'Mobile' });
    await feature.getByLabel('Planning channel').selectOption({ label: 'General (default)' });
    await feature.getByLabel('Heading').fill('Offline sync <@U0ADA> # not a heading');
    await feature.getByRole('button', { name: 'Create' }).click();
    await feature.getByText(/created in/).waitFor();
    await feature
      .getByRole('button', { name: /Close|Done|Cancel/ })
      .first()
      .click();
    await page.locator('#channel-tabs button[data-tab="canvas"]').click();
    const section = canvas.locator('h3', { hasText: 'Offline sync' });
    await section.waitFor();
    // The heading's markup shows as typed: no mention made, no heading of its own.
    expect(await text(section)).toBe('Offline sync <@U0ADA> # not a heading');
    expect(await canvas.locator('h1, h2, h3', { hasText: /^not a heading/ }).count()).toBe(0);
    await shot('10-channel-canvas-followed');
  }, 60_000);

  it('renders Block Kit as Slack does: every known block, rich mrkdwn, a confirm dialog, the Home tab, an unknown block as JSON', async () => {
    const slack = new WebClient(playground.app.config.SLACK_BOT_TOKEN, {
      slackApiUrl: playground.app.config.SLACK_API_URL,
      retryConfig: { retries: 0 },
    });
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Release train :rocket:' } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '*bold* _italic_ ~strike~ `code` <https://example.com|a link> <@U0GRACE> <#C0API>',
        },
        fields: [
          { type: 'mrkdwn', text: '*Owner*\nGrace' },
          { type: 'mrkdwn', text: '*Due*\nFriday' },
        ],
        accessory: {
          type: 'overflow',
          action_id: 'pg_overflow',
          options: [{ text: { type: 'plain_text', text: 'Snooze' }, value: 'snooze' }],
        },
      },
      { type: 'divider' },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'context :white_check_mark:' }] },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'pg_danger',
            text: { type: 'plain_text', text: 'Delete it' },
            style: 'danger',
            confirm: {
              title: { type: 'plain_text', text: 'Really delete?' },
              text: { type: 'mrkdwn', text: 'This *cannot* be undone.' },
              confirm: { type: 'plain_text', text: 'Delete' },
              deny: { type: 'plain_text', text: 'Keep it' },
            },
          },
          { type: 'datepicker', action_id: 'pg_date', initial_date: '2026-12-01' },
        ],
      },
      { type: 'future_block_kind', payload: 'kept' },
    ];
    await slack.chat.postMessage({ channel: 'C0PRODUCT', text: 'Release train', blocks });
    await slack.views.publish({
      user_id: 'U0KATHERINE',
      view: {
        type: 'home',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hello *Katherine*' } }],
      },
    });

    await actAs('U0KATHERINE');
    await openChannel('product');
    const message = page.locator('#messages .msg', { hasText: 'Release train' });
    await message.waitFor();
    expect(await message.locator('.header-block').innerText()).toBe('Release train 🚀');
    const section = message.locator('.section-main').first();
    expect(await section.locator('strong', { hasText: 'bold' }).count()).toBe(1);
    expect(await section.locator('em', { hasText: 'italic' }).count()).toBe(1);
    expect(await section.locator('del', { hasText: 'strike' }).count()).toBe(1);
    expect(await section.locator('code', { hasText: 'code' }).count()).toBe(1);
    expect(await section.locator('a[href="https://example.com"]').innerText()).toBe('a link');
    expect(await text(section)).toContain('@Grace Hopper');
    expect(await text(section)).toContain('#api');
    expect(await section.locator('.fields > div').count()).toBe(2);
    expect(await message.locator('hr.divider').count()).toBe(1);
    expect(await text(message.locator('.context'))).toContain('context ✅');
    expect(await message.locator('input[type=date]').inputValue()).toBe('2026-12-01');
    expect(await message.locator('.unknown-block').innerText()).toContain('"future_block_kind"');

    // A button with a confirm asks first; "Keep it" sends nothing.
    const before = playground.sandbox.requests.count('tasksRead');
    await message.getByRole('button', { name: 'Delete it' }).click();
    const dialog = page.getByRole('dialog', { name: 'Really delete?' });
    expect(await text(dialog)).toContain('This cannot be undone.');
    await shot('9-block-kit-confirm');
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(playground.sandbox.requests.count('tasksRead')).toBe(before);

    await page.locator('#apps a', { hasText: 'Team Planning' }).click();
    await page.locator('#app-tabs button', { hasText: 'Home' }).click();
    await page.locator('#home strong', { hasText: 'Katherine' }).waitFor();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
