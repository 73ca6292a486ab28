/**
 * The README's "Try it" walked in the playground's page, as the owner, the admin, a member and the
 * guest: every thing it says is on the page, clicked or typed as a person would, and what the page
 * shows after each step checked (the sandbox's state read only to confirm what stuck). Each `it`
 * names the README passage it walks.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Playground } from '../../src/playground/index.js';
import { describeWithBrowser } from '../helpers/browser.js';
import { type PlaygroundPage, STEP_MS } from '../helpers/playground-page.js';
import {
  CONNECTED_ROLES,
  EVERY_ROLE,
  GUEST_REFUSAL,
  MAY_NOT_DELETE,
  ROLES,
  rowActions,
  type Walk,
  walkOnePage,
} from '../helpers/readme-walk.js';

describeWithBrowser('README "Try it", walked in the playground as each role', () => {
  let ui: PlaygroundPage;
  let walk: Walk;
  let playground: Playground;
  let page: Page;

  walkOnePage((opened, walking) => {
    ui = opened;
    walk = walking;
    ({ playground, page } = opened);
  });

  const channelNames = () => page.locator('#channels a').allInnerTexts();

  // README "Try it": "On the page: the demo's linked channels (and an unlinked #general …) and your
  // DM with the app in the sidebar"; "Acting as switches between the demo's owner (Ada), admin
  // (Grace), members and a guest (Gus …)".
  it('the sidebar: linked channels, an unlinked #general, the DM with the app; Acting as lists owner, admin, members and the guest', async () => {
    const people = await page.locator('#person option').allInnerTexts();
    expect(people[0]).toMatch(/^Ada Lovelace — workspace owner · planning owner/);
    expect(people).toContain('Grace Hopper — workspace admin · planning admin');
    expect(people).toContain('Margaret Hamilton — member');
    expect(people).toContain('Gus Guest — guest (no planning account)');

    for (const role of CONNECTED_ROLES) {
      await walk.as(role);
      expect(await channelNames()).toEqual([
        '# general',
        '# platform',
        '# api',
        '# infrastructure',
        '# product',
        '# discovery',
        '# mobile',
      ]);
      expect(await page.locator('#apps a').allInnerTexts()).toEqual([
        expect.stringContaining('Team Planning'),
      ]);
      // A linked channel's header names its planning team and channel; #general says it is not linked.
      await page.locator('#channel-topic', { hasText: 'Platform › API' }).waitFor();
      await ui.openChannel('general');
      await page.locator('#channel-topic', { hasText: 'Not linked' }).waitFor();
    }
    // The guest is in #general and #product only.
    await walk.as('guest');
    expect(await channelNames()).toEqual(['# general', '# product']);
    await page.locator('#channel-topic', { hasText: 'Product › General' }).waitFor();
    await ui.shot('try-sidebar-guest');
  }, 90_000);

  // README "Try it": "the first message in #api says what to try in the first minute".
  it('the first message in #api says what to try in the first minute, for everyone who is in #api', async () => {
    for (const role of CONNECTED_ROLES) {
      await walk.as(role, 'api');
      const first = page.locator('#messages .msg').first();
      expect(await ui.text(first)).toContain('Welcome to the playground');
      expect(await ui.text(first)).toContain('⋮ More actions → Create task');
    }
  }, 60_000);

  // README "Try it": "a composer that posts messages and runs /plan …".
  it('the composer posts a message as the person acting, and runs /plan', async () => {
    for (const role of EVERY_ROLE) {
      const { name, channel } = ROLES[role];
      await walk.as(role, channel);
      const said = `Hello from ${name} as the ${role}`;
      await walk.type(said);
      const posted = page.locator('#messages .msg:not(.ephemeral)', { hasText: said });
      await posted.waitFor();
      expect(await ui.text(posted)).toContain(name);
      // The composer runs /plan too: help answers everyone, the guest included.
      const help = await walk.command('/plan help', 'what you can do');
      expect(await ui.text(help)).toContain('/plan tasks');
    }
    await ui.shot('try-composer');
  }, 90_000);

  // README "Try it": "each message's More actions (⋮) lists the app's message shortcuts and the ⚡
  // menu its global shortcuts".
  it("⋮ More actions lists the message shortcuts and ⚡ the global ones; the guest's choice is refused in one sentence", async () => {
    for (const role of EVERY_ROLE) {
      await walk.as(role, 'product');
      const message = page.locator('#messages .msg', { hasText: 'Onboarding interviews' });
      await message.hover();
      await message.getByRole('button', { name: 'More actions' }).click();
      const shortcuts = page.getByRole('menuitem');
      for (const name of ['Create task', 'Log discovery', 'Give feedback', 'Log as evidence']) {
        await shortcuts.filter({ hasText: name }).waitFor();
      }
      await page.keyboard.press('Escape');
      await page.locator('#lightning').click();
      await page
        .locator('#lightning-menu')
        .getByRole('menuitem', { name: /Grade a peer/ })
        .waitFor();
      await page
        .locator('#lightning-menu')
        .getByRole('menuitem', { name: /New feature/ })
        .waitFor();
      await page.locator('#lightning').click();
    }
    // The guest picks them anyway: one sentence each, and no modal.
    const message = page.locator('#messages .msg', { hasText: 'Onboarding interviews' });
    let before = await walk.ephemeralCount(GUEST_REFUSAL);
    await walk.messageShortcut(message, /Create task/);
    await walk.nextEphemeral(GUEST_REFUSAL, before);
    // A global shortcut comes from no channel: its refusal is in the guest's DM with the app.
    await walk.openDm();
    before = await walk.ephemeralCount(GUEST_REFUSAL);
    const dmBefore = await page.locator('#messages .msg', { hasText: GUEST_REFUSAL }).count();
    await walk.globalShortcut(/Grade a peer/);
    await page.locator('#messages .msg', { hasText: GUEST_REFUSAL }).nth(dmBefore).waitFor();
    expect(await page.locator('#modal-root .overlay').count()).toBe(0);
    await ui.shot('try-shortcuts-guest');
  }, 90_000);

  // README "Try it": "modals opened, pushed and updated as Slack shows them, with field errors and
  // confirmation dialogs".
  it("a modal shows a field error; Delete asks its author in the app's confirmation (Cancel sends nothing) and tells another member why at once", async () => {
    await walk.as('member', 'api');
    const message = page.locator('#messages .msg', { hasText: 'Retry-After' }).first();
    await walk.messageShortcut(message, /Create task/);
    const create = ui.modal('Create task');
    await create.getByLabel('Heading').fill('Retry-After on all 429s');
    await create.getByRole('button', { name: 'Create' }).click();
    await create.locator('.field-error', { hasText: 'Choose a feature' }).waitFor();
    await ui.pickExternal(create.getByLabel('Feature'), '', /Rate-limit the public API/);
    await create.getByRole('button', { name: 'Create' }).click();
    await create
      .getByText(/created/i)
      .first()
      .waitFor();
    await walk.closeModal(create);
    await message.getByRole('button', { name: /repl/ }).click();
    const card = page.locator('#thread-messages .msg', { hasText: 'Retry-After on all 429s' });
    await card.waitFor();

    // Its author may delete it: the app's confirmation modal asks first; Cancel leaves the task.
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = ui.modal('Delete task');
    await confirm.getByText('Delete this task?').waitFor();
    await ui.shot('try-confirm-dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    const headings = () =>
      Object.values(playground.sandbox.state().features).flatMap((f) => f.tasks.map((t) => t.heading));
    expect(headings()).toContain('Retry-After on all 429s');

    // Another member may not delete it: told why at once, privately, and no dialog opens.
    await ui.actAs('U0ALAN');
    await ui.openChannel('api');
    await message.getByRole('button', { name: /repl/ }).click();
    const refusals = page.locator('.msg.ephemeral', { hasText: MAY_NOT_DELETE });
    const before = await refusals.count();
    await card.getByRole('button', { name: 'Delete' }).click();
    await refusals.nth(before).waitFor();
    expect(await page.locator('#modal-root .overlay').count()).toBe(0);
    expect(headings()).toContain('Retry-After on all 429s');
  }, 90_000);

  // README "Try it": "the Home tab (app_home_opened is sent when the app subscribes to it;
  // views.publish is shown)".
  it('the Home tab shows each person their own planning; admins also get their linked channels; the guest one line', async () => {
    for (const role of CONNECTED_ROLES) {
      const { name, planningRole } = ROLES[role];
      await walk.as(role);
      const home = await walk.openHome(`You act as ${name}`);
      expect(await ui.text(home)).toContain(`You act as ${name} in Northwind Robotics as ${planningRole}.`);
      for (const section of ['Waiting for me', 'My tasks', 'Features', 'My experiences', 'Recent activity']) {
        await home.locator('.header-block', { hasText: section }).first().waitFor();
      }
      const manage = home.getByRole('button', { name: 'Manage links and digests' });
      if (role === 'member') expect(await manage.count()).toBe(0);
      else await manage.waitFor();
    }
    await walk.as('guest');
    const home = await walk.openHome('The app only acts for full members of this workspace.');
    expect(await home.getByRole('button').count()).toBe(0);
    await ui.shot('try-home-guest');
  }, 120_000);

  // README "Try it": "ephemeral messages"; "Post today's digest (/plan digest now) next to the daily
  // schedule" — anyone with a planning account of their own posts it; the guest is refused.
  it("Post today's digest: owner, admin and member each post it; the guest is refused before anything is posted", async () => {
    for (const role of CONNECTED_ROLES) {
      await walk.as(role, 'platform');
      const posted = page.locator('#messages .msg:not(.ephemeral)', { hasText: 'Planning digest' });
      const digests = await posted.count();
      const before = await walk.ephemeralCount('Posted the digest in #platform');
      await page.getByRole('button', { name: "Post today's digest" }).click();
      const told = await walk.nextEphemeral('Posted the digest in #platform', before);
      expect(await ui.text(told)).toContain('Only visible to you');
      await posted.nth(digests).waitFor();
      expect(await ui.text(posted.last())).toContain('Features by stage');
    }
    await walk.as('guest', 'product');
    const digests = await page
      .locator('#messages .msg:not(.ephemeral)', { hasText: 'Planning digest' })
      .count();
    const before = await walk.ephemeralCount(GUEST_REFUSAL);
    await page.getByRole('button', { name: "Post today's digest" }).click();
    await walk.nextEphemeral(GUEST_REFUSAL, before);
    expect(await page.locator('#messages .msg:not(.ephemeral)', { hasText: 'Planning digest' }).count()).toBe(
      digests,
    );
    await ui.shot('try-digest-guest');
  }, 120_000);

  // README "Try it": "a channel's header and Post today's digest follow /plan link and /plan unlink";
  // only workspace admins link.
  it('/plan link and /plan unlink: the owner links #general and the admin unlinks it; the member and the guest are refused', async () => {
    for (const role of ['member', 'guest'] as const) {
      await walk.as(role, 'general');
      await walk.command('/plan link', 'Only workspace admins can use /plan link.');
      expect(await page.locator('#modal-root .overlay').count()).toBe(0);
    }
    await walk.as('owner', 'general');
    await walk.type('/plan link');
    const link = ui.modal('Link this channel');
    await link.getByLabel('Planning team').selectOption({ label: 'Mobile' });
    await link.getByLabel('Planning channel').selectOption({ label: 'General (default)' });
    // The link's own settings (README "Thread replies as discoveries"): watch on, replies off.
    expect(await link.getByRole('checkbox', { name: 'Follow changes made outside Slack' }).isChecked()).toBe(
      true,
    );
    expect(
      await link.getByRole('checkbox', { name: 'Replies in card threads become discoveries' }).isChecked(),
    ).toBe(false);
    await link.getByRole('button', { name: 'Link' }).click();
    await link.getByText(/is linked to/).waitFor();
    await walk.closeModal(link);
    await page.locator('#channel-topic', { hasText: 'Mobile › General' }).waitFor();
    await page.getByRole('button', { name: "Post today's digest" }).waitFor();

    await walk.as('admin', 'general');
    await page.locator('#channel-topic', { hasText: 'Mobile › General' }).waitFor();
    await walk.type('/plan unlink');
    await page.locator('#channel-topic', { hasText: 'Not linked' }).waitFor();
    await page.getByRole('button', { name: "Post today's digest" }).waitFor({ state: 'hidden' });
    expect(await playground.app.store.links.get('T0PLAYGRND', 'C0GENERAL')).toBeUndefined();
  }, 90_000);

  // README "Try it": "messages typed in a channel the app is in (… a reply in a task card's thread
  // becomes a discovery where the link turned that on)" — see "Thread replies as discoveries".
  it("a reply in a task card's thread becomes a discovery once the admin turns it on; the guest's reply does not", async () => {
    // The admin turns it on for #product in the admin modal's Links and digests.
    await walk.as('admin', 'product');
    await walk.type('/plan admin');
    const admin = ui.modal('Administration');
    await admin
      .locator('.section', { hasText: 'Links and digests' })
      .getByRole('button', { name: 'Open' })
      .click();
    const links = ui.modal('Links and digests');
    await rowActions(links, '#product').getByRole('button', { name: 'Record thread replies' }).click();
    await rowActions(links, '#product').getByRole('button', { name: 'Stop recording replies' }).waitFor();
    await expect
      .poll(
        async () => (await playground.app.store.links.get('T0PLAYGRND', 'C0PRODUCT'))?.threadDiscoveries,
        {
          timeout: STEP_MS,
        },
      )
      .toBe(true);
    await walk.closeModals();

    // A member makes a task from Katherine's message; its card is in the message's thread.
    await walk.as('member', 'product');
    const message = page.locator('#messages .msg', { hasText: 'Onboarding interviews' });
    await walk.messageShortcut(message, /Create task/);
    const create = ui.modal('Create task');
    await create.getByLabel('Heading').fill('Make Invite teammates unmissable');
    await ui.pickExternal(create.getByLabel('Feature'), '', /Usability study/);
    await create.getByRole('button', { name: 'Create' }).click();
    await create
      .getByText(/created/i)
      .first()
      .waitFor();
    await walk.closeModal(create);
    await message.getByRole('button', { name: /repl/ }).click();
    const card = page.locator('#thread-messages .msg', { hasText: 'Make Invite teammates unmissable' });
    await card.waitFor();

    // Her reply in that thread is recorded with her own account: the card counts it.
    await page.locator('#thread-text').fill('Two of them never scrolled to the step.');
    await page.locator('#thread-text').press('Enter');
    await card.getByText(/1 discover/).waitFor();
    const task = () =>
      Object.values(playground.sandbox.state().features)
        .flatMap((f) => f.tasks)
        .find((t) => t.heading === 'Make Invite teammates unmissable');
    expect(JSON.stringify(task())).toContain('Two of them never scrolled to the step.');
    await ui.shot('try-thread-reply-discovery');

    // The guest's reply is not recorded, and nothing is said about it.
    await walk.as('guest', 'product');
    await message.getByRole('button', { name: /repl/ }).click();
    await page.locator('#thread-text').fill('A guest thinks so too.');
    await page.locator('#thread-text').press('Enter');
    await page.locator('#thread-messages .msg', { hasText: 'A guest thinks so too.' }).waitFor();
    // The member's later reply is recorded after it: the guest's was passed over, not pending.
    await walk.as('member', 'product');
    await message.getByRole('button', { name: /repl/ }).click();
    await page.locator('#thread-text').fill('And the third one skipped it on purpose.');
    await page.locator('#thread-text').press('Enter');
    await card.getByText(/2 discover/).waitFor();
    expect(JSON.stringify(task())).not.toContain('A guest thinks so too.');
  }, 120_000);

  // README "Try it" › How the playground works: "an unknown slash command is refused with the typed
  // text left in the composer".
  it('an unknown slash command is refused and its text stays in the composer, for every role', async () => {
    for (const role of EVERY_ROLE) {
      await walk.as(role);
      const toasts = page.locator('.toast', { hasText: '/nope is not a valid command' });
      const before = await toasts.count();
      await walk.type('/nope typed');
      await toasts.nth(before).waitFor();
      expect(await page.locator('#composer-text').inputValue()).toBe('/nope typed');
      await page.locator('#composer-text').fill('');
    }
  }, 60_000);
  // README "Home tab and notifications": "Each task row carries the task card's state buttons";
  // "each kind on or off".
  it("Home: a task row's state button moves the task; a notification kind turned off sticks", async () => {
    await walk.as('member');
    let home = await walk.openHome('Runbook for rolling back a migration');
    await rowActions(home, 'Runbook for rolling back a migration')
      .getByRole('button', { name: 'Send to review' })
      .click();
    await home.locator('.section', { hasText: 'In review (1)' }).waitFor();
    const task = Object.values(playground.sandbox.state().features)
      .flatMap((f) => f.tasks)
      .find((t) => t.heading === 'Runbook for rolling back a migration');
    expect(task?.state).toBe('in review');

    home = await walk.openHome();
    await home.getByRole('checkbox', { name: 'A feature I authored advanced' }).uncheck();
    await expect
      .poll(
        async () =>
          (await playground.app.store.notifications.prefs('T0PLAYGRND', ROLES.member.id))?.muted ?? [],
        {
          timeout: STEP_MS,
        },
      )
      .toEqual(['featureAdvanced']);
    await ui.shot('try-home-row-and-choice');
  }, 90_000);
});
