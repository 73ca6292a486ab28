/**
 * The README's "Using it" walked in the playground's page, as the owner, the admin, a member and the
 * guest: each command and shortcut of its table, then its sub-sections (Administering, Tasks,
 * Features), typed or clicked as a person would, with what the page shows after each step checked
 * and the sandbox's state read only to confirm what stuck. Each `it` names the README row or
 * heading it walks. Disconnecting and coming back, Create task's assignment DM, the feedback reply,
 * Home after its settings, Billing's checkout and the admin's renames are walked in
 * readme-first-hour.browser.test.ts; the invitation page, reactions and message edits in
 * playground-items.browser.test.ts.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Playground } from '../../src/playground/index.js';
import { describeWithBrowser } from '../helpers/browser.js';
import { type PlaygroundPage, STEP_MS } from '../helpers/playground-page.js';
import {
  CONNECTED_ROLES,
  EVERY_ROLE,
  GUEST_REFUSAL,
  ROLES,
  rowActions,
  type Walk,
  walkOnePage,
} from '../helpers/readme-walk.js';

describeWithBrowser('README "Using it", walked in the playground as each role', () => {
  let ui: PlaygroundPage;
  let walk: Walk;
  let playground: Playground;
  let page: Page;

  walkOnePage((opened, walking) => {
    ui = opened;
    walk = walking;
    ({ playground, page } = opened);
  });

  const features = () => Object.values(playground.sandbox.state().features);
  const featureNamed = (heading: string) => features().find((f) => f.heading === heading);
  const taskNamed = (heading: string) =>
    features()
      .flatMap((f) => f.tasks)
      .find((t) => t.heading === heading);

  /** A task made from the message showing `messageText` in #api, as the person acting; its card. */
  async function taskFromMessage(messageText: string, heading: string): Promise<Locator> {
    await ui.openChannel('api');
    const source = page.locator('#messages .msg', { hasText: messageText }).first();
    await walk.messageShortcut(source, /Create task/);
    const create = ui.modal('Create task');
    expect(await create.getByLabel('Heading').inputValue()).not.toBe('');
    await create.getByLabel('Heading').fill(heading);
    await ui.pickExternal(create.getByLabel('Feature'), '', /Rate-limit the public API/);
    await create.getByRole('button', { name: 'Create' }).click();
    await create
      .getByText(/created/i)
      .first()
      .waitFor();
    await walk.closeModal(create);
    await source.getByRole('button', { name: /repl/ }).click();
    const card = page.locator('#thread-messages .msg:not(.ephemeral)', { hasText: heading });
    await card.waitFor();
    return card;
  }

  // README "Using it": `/plan help` — "unknown input answers with this, never silence".
  it('/plan help answers every role with every command; unknown input answers with it too', async () => {
    for (const role of EVERY_ROLE) {
      await walk.as(role);
      const help = await walk.command('/plan help', 'Team Planning — what you can do');
      for (const usage of [
        '/plan connect',
        '/plan whoami',
        '/plan grade',
        '/plan who',
        '/plan tasks',
        '/plan admin',
      ]) {
        expect(await ui.text(help)).toContain(usage);
      }
      const unknown = await walk.command('/plan frobnicate', "I don't know /plan frobnicate");
      expect(await ui.text(unknown)).toContain('/plan digest');
    }
  }, 90_000);

  // README "Using it": `/plan connect` · `/plan connect admin`.
  it('/plan connect opens the token form; /plan connect admin is for workspace admins only', async () => {
    for (const role of CONNECTED_ROLES) {
      await walk.as(role);
      await walk.type('/plan connect');
      const connect = ui.modal('Connect your account');
      await connect.getByLabel('Service-account token').waitFor();
      await connect.getByRole('checkbox', { name: /Use my Slack name and photo/ }).waitFor();
      await walk.closeModal(connect);
    }
    for (const role of ['owner', 'admin'] as const) {
      await walk.as(role);
      await walk.type('/plan connect admin');
      const organization = ui.modal('Connect organization');
      await organization.getByLabel('Service-account token').waitFor();
      await walk.closeModal(organization);
    }
    for (const role of ['member', 'guest'] as const) {
      await walk.as(role);
      await walk.command('/plan connect admin', 'Only workspace admins can connect the organization.');
      expect(await page.locator('#modal-root .overlay').count()).toBe(0);
    }
  }, 90_000);

  // README "Using it": `/plan whoami`.
  it('/plan whoami says whom each person acts as; the guest is refused in one sentence', async () => {
    for (const role of CONNECTED_ROLES) {
      const { name, planningRole } = ROLES[role];
      await walk.as(role);
      await walk.command(
        '/plan whoami',
        `You act as ${name} in organization Northwind Robotics as ${planningRole}.`,
      );
    }
    await walk.as('guest');
    await walk.command('/plan whoami', GUEST_REFUSAL);
  }, 60_000);

  // README "Using it": `/plan grade @user <notion> <1-10>`, `/plan grades`, *Grade a peer* (global shortcut).
  it('/plan grade, the Grade a peer shortcut and /plan grades: recorded anonymously, bad input told, the guest refused', async () => {
    for (const role of CONNECTED_ROLES) {
      await walk.as(role);
      await walk.command(
        '/plan grade @Alan Turing postgres 6',
        'Your grade of postgres (6) is recorded anonymously.',
      );
      const grades = await walk.command('/plan grades', /Your experience|You have no grades yet/);
      expect(await ui.text(grades)).toContain('never who graded you or when');
    }
    await walk.as('member');
    await walk.command(
      '/plan grade @Alan Turing postgres 11',
      '11 is not a grade: give a whole number from 1 to 10.',
    );

    // The same form from the ⚡ menu.
    await walk.globalShortcut(/Grade a peer/);
    const grade = ui.modal('Grade a peer');
    await grade.getByLabel('Peer').selectOption({ label: 'Dennis Ritchie' });
    await ui.pickExternal(grade.getByLabel('Notion'), 'kube', 'kubernetes');
    await grade.getByLabel('Grade').selectOption('9');
    await grade.getByRole('button', { name: 'Grade' }).click();
    await grade
      .getByText(/recorded/i)
      .first()
      .waitFor();
    await walk.closeModal(grade);

    await walk.as('guest');
    await walk.command('/plan grade @Alan Turing postgres 6', GUEST_REFUSAL);
    await walk.command('/plan grades', GUEST_REFUSAL);
  }, 90_000);

  // README "Using it": `/plan who @someone` · *Planning profile*, `/plan who knows <notion>`.
  it("/plan who shows a teammate's profile privately, one sentence for a guest; who knows ranks people, a typo offers the closest notions", async () => {
    for (const role of CONNECTED_ROLES) {
      await walk.as(role);
      const [who, as] = role === 'admin' ? ['Ada Lovelace', 'owner'] : ['Grace Hopper', 'admin'];
      const profile = await walk.command(`/plan who @${who}`, `acts as ${who}, ${as} of the organization`);
      expect(await ui.text(profile)).toContain('Features they author');
      expect(await ui.text(profile)).not.toMatch(/graded by/i);
    }
    await walk.as('member', 'product');
    await walk.command(
      '/plan who @Gus Guest',
      '@Gus Guest has no planning profile: they are a guest in this workspace.',
    );

    await walk.as('member');
    const knows = await walk.command('/plan who knows typescript', 'Who knows typescript');
    expect(await ui.text(knows)).toMatch(/1\. @Margaret Hamilton/);
    // The Planning profile button beside a person opens their profile.
    const before = await walk.ephemeralCount('acts as Margaret Hamilton');
    await knows.getByRole('button', { name: 'Planning profile' }).first().click();
    const own = await walk.nextEphemeral('acts as Margaret Hamilton', before);
    // For yourself it adds the Home tab's Waiting for me and Recent activity.
    expect(await ui.text(own)).toMatch(/Waiting for me/);

    const typo = await walk.command('/plan who knows typscript', 'There is no notion named “typscript”');
    const again = await walk.ephemeralCount('Who knows typescript');
    await typo.getByRole('button', { name: 'typescript' }).click();
    await walk.nextEphemeral('Who knows typescript', again);

    await walk.as('guest');
    await walk.command('/plan who @Ada Lovelace', GUEST_REFUSAL);
    await walk.command('/plan who knows typescript', GUEST_REFUSAL);
    await ui.shot('using-who');
  }, 90_000);

  // README "Using it": `/plan digest` — settings for anyone; changes for admins; `now` for anyone
  // with a planning account of their own.
  it('/plan digest shows the settings to everyone; only admins change them; the guest is refused', async () => {
    for (const role of CONNECTED_ROLES) {
      await walk.as(role, 'infrastructure');
      const settings = await walk.command('/plan digest', 'Daily digest in #infrastructure');
      expect(await ui.text(settings)).toMatch(/Next digest: /);
    }
    await walk.as('member', 'infrastructure');
    await walk.command('/plan digest 07:15', 'Only workspace admins can change the digest settings.');
    await walk.as('admin', 'infrastructure');
    await walk.command('/plan digest 07:15 Europe/Paris', 'Digest time set to 07:15');
    await walk.as('owner', 'infrastructure');
    await walk.command('/plan digest weekends on', 'Weekends included.');
    expect(await playground.app.store.links.get('T0PLAYGRND', 'C0INFRA')).toMatchObject({
      digestTime: '07:15',
      timeZone: 'Europe/Paris',
      weekdaysOnly: false,
    });
    await walk.command('/plan digest now', 'Posted the digest in #infrastructure');
    await walk.as('guest');
    await walk.command('/plan digest', GUEST_REFUSAL);
  }, 90_000);

  // README "Using it": *Create task*, *Give feedback* (message shortcut on a task card, or its button),
  // *Log discovery*; README "Tasks".
  it('a task made from a message: Give feedback and Log discovery from the card, then its state buttons, Assign…, Details and Edit', async () => {
    await walk.as('member');
    const card = await taskFromMessage('nightly export', 'Page the nightly export');
    expect(await ui.text(card)).toMatch(/idle/);

    // Give feedback as the message shortcut on the card.
    await walk.messageShortcut(card, /Give feedback/);
    const feedback = ui.modal('Give feedback');
    await feedback.getByLabel('Issue').selectOption({ index: 1 });
    await feedback.getByLabel('Feedback').fill('Keep the order stable across pages.');
    await feedback.getByRole('button', { name: 'Send' }).click();
    await feedback.getByText('Feedback sent').waitFor();
    await walk.closeModal(feedback);
    await card.getByText(/1 feedback/).waitFor();

    // Log discovery as the message shortcut on the card: the task is known.
    await walk.messageShortcut(card, /Log discovery/);
    const discovery = ui.modal('Log discovery');
    await discovery.locator('textarea').first().fill('The export query has no index on created_at.');
    await discovery.getByRole('button', { name: /Log/ }).click();
    await discovery.getByText('Discovery logged on Page the nightly export.').waitFor();
    await walk.closeModal(discovery);
    await card.getByText(/1 discover/).waitFor();

    // Start → Send to review → Mark done → Reopen, each shown on the card.
    for (const [press, state] of [
      ['Start', 'in progress'],
      ['Send to review', 'in review'],
      ['Mark done', 'done'],
      ['Reopen', 'in progress'],
    ] as const) {
      await card.getByRole('button', { name: press, exact: true }).click();
      await card.getByText(state).first().waitFor();
    }
    expect(taskNamed('Page the nightly export')?.state).toBe('in progress');

    await card.getByRole('button', { name: 'Assign…' }).click();
    const assign = ui.modal('Assign task');
    const choice = assign.getByLabel('Assign to (candidates best fit first)');
    // The form fills after it opens: its choices are there once "Assign to me" is.
    await choice.locator('option', { hasText: 'Assign to me' }).waitFor({ state: 'attached' });
    await choice.selectOption({ label: 'Assign to me' });
    await assign.getByRole('button', { name: 'Assign', exact: true }).click();
    await card
      .getByText(/Margaret Hamilton/)
      .first()
      .waitFor();
    await walk.closeModals();

    await card.getByRole('button', { name: 'Details' }).click();
    const details = ui.modal('Task details');
    await details.getByText('The export query has no index on created_at.').waitFor();
    await details.getByText('Keep the order stable across pages.').waitFor();
    await walk.closeModals();

    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = ui.modal('Edit task');
    await edit.getByLabel('Heading').fill('Page the nightly export by 1,000');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.locator('#thread-messages .msg', { hasText: 'Page the nightly export by 1,000' }).waitFor();
    await walk.closeModals();
    expect(taskNamed('Page the nightly export by 1,000')?.assigneeUserId).toBeTruthy();
    await ui.shot('using-task-card');
  }, 150_000);

  // README "Using it": `/plan tasks [mine | review | unassigned | <words>]`.
  it('/plan tasks lists the channel tasks with their buttons, mine, review, unassigned and by words; the guest is refused', async () => {
    await walk.as('member');
    const mine = await walk.command('/plan tasks mine', 'Your tasks');
    expect(await ui.text(mine)).toContain('Runbook for rolling back a migration');
    await mine.getByRole('button', { name: 'Details' }).first().waitFor();
    // The Planning profile button beside the assignee: her own, with what waits for her.
    const profiles = await walk.ephemeralCount('Your planning profile');
    await mine.getByRole('button', { name: 'Planning profile' }).first().click();
    const own = await walk.nextEphemeral('Your planning profile', profiles);
    expect(await ui.text(own)).toContain('Recent activity');
    const review = await walk.command('/plan tasks review', 'Tasks in review');
    expect(await ui.text(review)).toContain('Backfill job with throttling');
    await review.getByRole('button', { name: 'Mark done' }).first().waitFor();
    const unassigned = await walk.command('/plan tasks unassigned', /without an assignee|unassigned/i);
    expect(await unassigned.getByRole('button', { name: 'Assign…' }).count()).toBeGreaterThan(0);
    const words = await walk.command('/plan tasks runbook', /Runbook for rolling back a migration/);
    expect(await ui.text(words)).not.toContain('Backfill job with throttling');
    // A state button pressed in the list shows the task's card in its place.
    await words.getByRole('button', { name: 'Send to review' }).click();
    await page
      .locator('#messages .msg', { hasText: 'Runbook for rolling back a migration' })
      .getByText('in review')
      .first()
      .waitFor();
    await expect
      .poll(() => taskNamed('Runbook for rolling back a migration')?.state, { timeout: STEP_MS })
      .toBe('in review');

    await walk.as('guest');
    await walk.command('/plan tasks', GUEST_REFUSAL);
  }, 90_000);

  // README "Using it": `/plan feature new` · *New feature*; README "Features": the card, Advance with
  // its confirmation, Add assumption, an assumption's ⋮ menu, Edit.
  it('a feature: made with /plan feature new and ⚡ New feature, its card, an assumption, Advance after a confirmation', async () => {
    await walk.as('admin', 'platform');
    await walk.type('/plan feature new');
    const create = ui.modal('New feature');
    await create.getByLabel('Heading').fill('Status page for partners');
    await create.getByLabel('Priority').selectOption({ index: 4 });
    await create.getByRole('radio').nth(1).check();
    await create.getByRole('button', { name: 'Create' }).click();
    const card = page
      .locator('#messages .msg:not(.ephemeral)', { hasText: 'Status page for partners' })
      .last();
    await card.waitFor();
    await walk.closeModals();
    await card.getByText(/add at least one assumption/i).waitFor();
    expect(await card.getByRole('button', { name: 'Advance' }).count()).toBe(0);

    await card.getByRole('button', { name: 'Add assumption' }).click();
    const assumption = ui.modal('Add assumption');
    await assumption.locator('textarea, input[type=text]').first().fill('Partners check a status page first');
    await assumption.getByRole('button', { name: /Add|Save/ }).click();
    await card.getByText('Partners check a status page first').waitFor();
    await walk.closeModals();

    // In planning it can advance now: the confirmation names the next stage.
    await card.getByRole('button', { name: 'Advance' }).click();
    const confirm = page.getByRole('dialog').last();
    expect(await ui.text(confirm)).toMatch(/Validation/);
    await confirm.getByRole('button', { name: /Advance/ }).click();
    await card.getByText(/🧪 Validation/).waitFor();
    expect(featureNamed('Status page for partners')?.stage).toBe('validation');

    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = ui.modal(/Edit feature/);
    await edit.getByLabel('Heading').fill('Status page for API partners');
    await edit.getByRole('button', { name: /Save/ }).click();
    await page
      .locator('#messages .msg:not(.ephemeral)', { hasText: 'Status page for API partners' })
      .waitFor();
    await walk.closeModals();

    // ⚡ New feature from the member, choosing the team and channel.
    await walk.as('member', 'api');
    await walk.globalShortcut(/New feature/);
    const fromMenu = ui.modal('New feature');
    await fromMenu.getByLabel('Heading').waitFor();
    await walk.closeModal(fromMenu);

    await walk.as('guest');
    await walk.command('/plan feature new', GUEST_REFUSAL);
    await ui.shot('using-feature');
  }, 120_000);

  // README "Using it": `/plan features [stage]`, `/plan search <words>`; README "Features": Delete in
  // deep context only for owners and admins.
  it('/plan features by stage, /plan search: Delete in deep context is offered to the owner and the admin only', async () => {
    for (const role of CONNECTED_ROLES) {
      await walk.as(role);
      const deep = await walk.command('/plan features deep-context', /Deep context/);
      expect(await ui.text(deep)).toContain('Single sign-on with SAML');
      const found = await walk.command('/plan search SAML', 'Deep context matching “SAML”');
      await found.getByRole('button', { name: 'Read' }).waitFor();
      expect(await found.getByRole('button', { name: 'Delete' }).count()).toBe(role === 'member' ? 0 : 1);
      expect(await deep.getByRole('button', { name: 'Delete' }).count()).toBe(role === 'member' ? 0 : 1);
    }
    await walk.as('member');
    // Details opens the full card in a modal.
    const planning = await walk.command('/plan features planning', 'in Planning');
    await rowActions(planning, /Move sessions to Postgres/)
      .getByRole('button', { name: 'Details' })
      .click();
    const details = ui.modal('Feature');
    await details.getByText('Postgres handles 5k session writes per second').waitFor();
    await walk.closeModals();
    const validation = await walk.command('/plan features validation', 'in Validation');
    expect(await ui.text(validation)).toContain('Typed SDK for partners');
    expect(await ui.text(validation)).toContain('1 experiment is not done');
    const found = await walk.command('/plan search SAML', 'Deep context matching “SAML”');
    await found.getByRole('button', { name: 'Read' }).click();
    await ui
      .modal(/Single sign-on|Feature|Deep context/)
      .getByText('Single sign-on with SAML')
      .first()
      .waitFor();
    await walk.closeModals();

    await walk.as('guest');
    await walk.command('/plan features', GUEST_REFUSAL);
    await walk.command('/plan search SAML', GUEST_REFUSAL);
  }, 90_000);

  // README "Using it": `/plan admin`; README "Administering": each section.
  it('/plan admin: the owner and the admin open every section and change things there; the member and the guest are refused', async () => {
    for (const role of ['member', 'guest'] as const) {
      await walk.as(role);
      await walk.command('/plan admin', 'Only workspace admins can use /plan admin.');
    }
    await walk.as('owner');
    await walk.type('/plan admin');
    const admin = ui.modal('Administration');
    const open = (section: string) => walk.adminSection(section);
    const back = async (view: Locator) => {
      await view.locator('.modal-foot .btn').first().click();
      await admin.locator('.section', { hasText: 'Billing' }).waitFor();
    };

    // Notions: create one, then delete it (confirmed).
    let view = await open('Notions');
    await view.getByRole('button', { name: 'New notion' }).click();
    const notion = ui.modal('New notion');
    await notion.getByLabel('Notion').fill('observability');
    await notion.getByRole('button', { name: /Create|Save|Add/ }).click();
    await expect
      .poll(() => Object.values(playground.sandbox.state().notions).map((n) => n.value), { timeout: STEP_MS })
      .toContain('observability');
    await notion.getByText('The notion observability is created.').waitFor();
    await notion.locator('.modal-foot').getByRole('button', { name: 'Close' }).click();
    view = ui.modal('Notions');
    const row = view.locator('.block', {
      has: page.locator('.section', { hasText: /^\s*observability\s*$/ }),
    });
    await row.locator('xpath=following-sibling::div[1]').getByRole('button', { name: 'Delete' }).click();
    const sure = page.getByRole('dialog', { name: 'Delete the notion?' });
    await sure.getByRole('button', { name: 'Delete notion' }).click();
    await expect
      .poll(() => Object.values(playground.sandbox.state().notions).map((n) => n.value), { timeout: STEP_MS })
      .not.toContain('observability');
    await walk.closeModals();

    // Teams and channels: a new team.
    await walk.type('/plan admin');
    view = await open('Teams and channels');
    await view.getByRole('button', { name: 'New team' }).click();
    const team = ui.modal('New team');
    await team.getByLabel('Team name').fill('Research');
    await team.getByRole('button', { name: /Create|Save|Add/ }).click();
    await page.getByRole('dialog').last().getByText('Research').first().waitFor();
    await walk.closeModals();

    // Billing in plain words, with the price plans to upgrade to.
    await walk.type('/plan admin');
    view = await open('Billing');
    await view
      .getByText(/Price plans/)
      .first()
      .waitFor();
    // Upgrade: a checkout link whose 23-hour expiry is shown in the admin's own time zone.
    await view.getByRole('button', { name: 'Upgrade' }).first().click();
    const checkout = ui.modal('Upgrade');
    await checkout.getByRole('link', { name: 'open the checkout' }).waitFor();
    expect(await ui.text(checkout)).toMatch(/The link expires on .+, 23 hours after it was made\./);
    await walk.closeModals();
    await walk.type('/plan admin');

    // People: the organization's accounts with their Slack users.
    view = await open('People');
    await view
      .getByText(/Margaret Hamilton/)
      .first()
      .waitFor();
    expect(await view.getByRole('button', { name: 'Rename' }).count()).toBeGreaterThan(0);
    await back(view);

    // Invitations: the seeded one, and New invitation.
    view = await open('Invitations');
    await view.getByRole('button', { name: 'New invitation' }).waitFor();
    await back(view);
    await walk.closeModals();

    // The admin turns a digest off and on again in Links and digests.
    await walk.as('admin');
    await walk.type('/plan admin');
    view = await open('Links and digests');
    await view.getByRole('button', { name: 'Turn off' }).first().click();
    await view.getByText('Digest turned off.').waitFor();
    await view.getByRole('button', { name: 'Turn on' }).first().click();
    await page
      .getByRole('dialog')
      .last()
      .getByText(/Digest turned on/)
      .waitFor();
    const links = await playground.app.store.links.listByWorkspace('T0PLAYGRND');
    expect(links.every((l) => l.digestEnabled)).toBe(true);
    await ui.shot('using-admin');
    await walk.closeModals();
  }, 150_000);
  // README "Tasks": "DMs: the assignee is told when someone else assigns them or moves their task to
  // in review, the author when someone else marks it done — each naming who acted"; Assign… with the
  // candidates' Planning profile opening over the form.
  it('Assign… a teammate: their profile opens over the form; the assignee and the author are told in their DMs', async () => {
    await walk.as('owner');
    const card = await taskFromMessage('Retry-After', 'Add Retry-After to 429 answers');
    await card.getByRole('button', { name: 'Assign…' }).click();
    const assign = ui.modal('Assign task');
    const choice = assign.getByLabel('Assign to (candidates best fit first)');
    // The candidates, best fit first, each with its fit in words (the form fills after it opens).
    const alanOption = choice.locator('option', { hasText: /^Alan Turing — / });
    await alanOption.waitFor({ state: 'attached' });
    const alan = await alanOption.innerText();
    expect(alan).toMatch(/fit/);
    // Pressed inside a modal, a profile opens over it.
    await assign.getByRole('button', { name: 'Planning profile' }).first().click();
    await page.locator('.modal-head .stack-note', { hasText: '2 views deep' }).waitFor();
    await page
      .getByRole('dialog')
      .last()
      .getByText(/acts as/)
      .waitFor();
    await page.getByRole('dialog').last().locator('.modal-foot .btn').first().click();
    await page.locator('.modal-head .stack-note').waitFor({ state: 'detached' });
    await choice.selectOption({ label: alan });
    await assign.getByRole('button', { name: 'Assign', exact: true }).click();
    await card
      .getByText(/Alan Turing/)
      .first()
      .waitFor();
    await walk.closeModals();
    await card.getByRole('button', { name: 'Start', exact: true }).click();
    await card.getByText('in progress').first().waitFor();
    await card.getByRole('button', { name: 'Send to review', exact: true }).click();
    await card.getByText('in review').first().waitFor();

    // Feedback from the card's button: the assignee gets a DM with a Reply button.
    await card.getByRole('button', { name: 'Give feedback' }).click();
    const feedback = ui.modal('Give feedback');
    await feedback.getByLabel('Issue').selectOption({ index: 1 });
    await feedback.getByLabel('Feedback').fill('Send the header on 503 too.');
    await feedback.getByRole('button', { name: 'Send' }).click();
    await feedback.getByText('Feedback sent').waitFor();
    await walk.closeModals();

    await walk.as('member', 'api');
    await ui.actAs('U0ALAN');
    await walk.openDm();
    await page
      .locator('#messages .msg', {
        hasText: 'Ada Lovelace assigned you the task Add Retry-After to 429 answers.',
      })
      .waitFor();
    const moved = page.locator('#messages .msg', {
      hasText: 'Ada Lovelace moved your task Add Retry-After to 429 answers to in review.',
    });
    await moved.waitFor();
    const told = page.locator('#messages .msg', { hasText: 'Send the header on 503 too.' });
    expect(await ui.text(told)).toContain('Ada Lovelace');
    await told.getByRole('button', { name: 'Reply' }).waitFor();
    // Alan marks it done from the card: Ada, who made it, is told.
    await ui.openChannel('api');
    const source = page.locator('#messages .msg', { hasText: 'Retry-After' }).first();
    await source.getByRole('button', { name: /repl/ }).click();
    const alansView = page.locator('#thread-messages .msg:not(.ephemeral)', {
      hasText: 'Add Retry-After to 429 answers',
    });
    await alansView.getByRole('button', { name: 'Mark done', exact: true }).click();
    await alansView.getByText('done').first().waitFor();
    await walk.as('owner');
    await walk.openDm();
    await page
      .locator('#messages .msg', {
        hasText: 'Alan Turing marked your task Add Retry-After to 429 answers done.',
      })
      .waitFor();
    expect(taskNamed('Add Retry-After to 429 answers')?.state).toBe('done');
    await ui.shot('using-task-dms');
  }, 120_000);

  // README "Tasks": "Log discovery (message shortcut): … anywhere else in a linked channel, pick the
  // task in a searchable list of the channel's tasks. A confirmation is posted in the task card's
  // thread."; "Delete … (its author or an organization owner or admin), after a confirmation".
  it("Log discovery on a channel message picks the task from a list and confirms in the card's thread; the owner deletes a member's task", async () => {
    await walk.as('member');
    const card = await taskFromMessage('nightly export', 'Stream the nightly export');
    await page.locator('#thread-close').click();
    await walk.type('Streaming keeps memory flat at 10k tasks.');
    const said = page
      .locator('#messages .msg:not(.ephemeral)', { hasText: 'Streaming keeps memory flat' })
      .last();
    await said.waitFor();
    await walk.messageShortcut(said, /Log discovery/);
    const discovery = ui.modal('Log discovery');
    await ui.pickExternal(discovery.getByLabel(/Task/), 'Stream', 'Stream the nightly export');
    await discovery.getByRole('button', { name: /Log/ }).click();
    await discovery.getByText(/Discovery logged on Stream the nightly export/).waitFor();
    await walk.closeModal(discovery);
    const source = page.locator('#messages .msg', { hasText: 'nightly export' }).first();
    await source.getByRole('button', { name: /repl/ }).click();
    await page
      .locator('#thread-messages .msg', { hasText: 'logged a discovery on Stream the nightly export' })
      .waitFor();
    await card.getByText(/1 discover/).waitFor();
    expect(JSON.stringify(taskNamed('Stream the nightly export'))).toContain('Streaming keeps memory flat');

    // The organization's owner may delete a task someone else made.
    await walk.as('owner');
    await source.getByRole('button', { name: /repl/ }).click();
    await card.getByRole('button', { name: 'Delete' }).click();
    // The app's own confirmation, opened only for who may delete.
    const confirm = ui.modal('Delete task');
    await confirm.getByText('Delete this task?').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .locator('#thread-messages .msg:not(.ephemeral)', { hasText: 'This task was deleted.' })
      .first()
      .waitFor();
    expect(taskNamed('Stream the nightly export')).toBeUndefined();
  }, 120_000);

  // README "Features": "Add task (the create-task form with this feature chosen; the task card goes in
  // the feature card's thread)", an assumption's ⋮ menu (Edit assumption…, Experiment…, Delete
  // assumption…), *Log as evidence*, "Delete (confirmed …)".
  it("a feature card's Add task, an assumption's ⋮ Edit, Experiment… and Delete, Log as evidence, and Delete of the feature", async () => {
    await walk.as('member', 'discovery');
    await walk.type('/plan feature new');
    const create = ui.modal('New feature');
    await create.getByLabel('Heading').fill('Inline help in forms');
    await create.getByLabel('Priority').selectOption({ index: 2 });
    await create.getByRole('radio').nth(2).check();
    await create.getByRole('button', { name: 'Create' }).click();
    const card = page.locator('#messages .msg:not(.ephemeral)', { hasText: 'Inline help in forms' }).last();
    await card.waitFor();
    await walk.closeModals();

    await card.getByRole('button', { name: 'Add task' }).click();
    const task = ui.modal('Create task');
    await task.getByLabel('Heading').fill('Write the help texts');
    await task.getByRole('button', { name: 'Create' }).click();
    await task
      .getByText(/created/i)
      .first()
      .waitFor();
    await walk.closeModal(task);
    await card.getByRole('button', { name: /repl/ }).click();
    await page
      .locator('#thread-messages .msg:not(.ephemeral)', { hasText: 'Write the help texts' })
      // The task's own card: the thread's root, the feature card, lists the task too.
      .filter({ has: page.getByRole('button', { name: 'Give feedback' }) })
      .waitFor();
    await page.locator('#thread-close').click();
    expect(featureNamed('Inline help in forms')?.tasks.map((t) => t.heading)).toEqual([
      'Write the help texts',
    ]);

    await card.getByRole('button', { name: 'Add assumption' }).click();
    const assumption = ui.modal('Add assumption');
    await assumption.locator('textarea, input[type=text]').first().fill('People read inline help');
    await assumption.getByRole('button', { name: /Add|Save/ }).click();
    await card.getByText('People read inline help').waitFor();
    await walk.closeModals();

    await card.getByRole('button', { name: 'More options' }).first().click();
    await card.getByRole('button', { name: 'Edit assumption…' }).click();
    const edit = ui.modal('Edit assumption');
    await edit.locator('textarea, input[type=text]').first().fill('People read short inline help');
    await edit.getByRole('button', { name: /Save/ }).click();
    await card.getByText('People read short inline help').waitFor();
    await walk.closeModals();

    // Experiment…: running, with a participant picked as a Slack user.
    await card.getByRole('button', { name: 'More options' }).first().click();
    await card.getByRole('button', { name: 'Experiment…' }).click();
    const experiment = ui.modal('Experiment');
    await experiment.getByRole('radio', { name: /running/i }).check();
    await ui.pickExternal(experiment.getByLabel('Participants'), 'Kath', 'Katherine Johnson');
    await experiment.locator('.chip', { hasText: 'Katherine Johnson' }).waitFor();
    await experiment.getByRole('button', { name: 'Save' }).click();
    await card.getByText(/running/).waitFor();
    expect(await ui.text(card)).toContain('Katherine Johnson');
    await walk.closeModals();

    // Log as evidence: a message of the channel appended to that experiment's details.
    await walk.type('Five of six found the help without being told.');
    const said = page.locator('#messages .msg:not(.ephemeral)', { hasText: 'found the help without' }).last();
    await said.waitFor();
    await walk.messageShortcut(said, /Log as evidence/);
    const evidence = ui.modal('Log as evidence');
    await ui.pickExternal(evidence.getByLabel('Feature'), 'Inline', 'Inline help in forms');
    await ui.pickExternal(evidence.getByLabel('Assumption'), '', 'People read short inline help');
    await evidence.getByRole('button', { name: 'Log' }).click();
    await expect
      .poll(() => featureNamed('Inline help in forms')?.assumptions[0]?.experiment?.details ?? '', {
        timeout: STEP_MS,
      })
      .toContain('Five of six found the help without being told.');
    // The form's answer comes after the card was updated for it (the service is written first): a
    // menu opened on the card before that update is drawn would close under the click.
    await evidence.getByText(/Logged as evidence for/).waitFor();
    await walk.closeModals();

    await card.getByRole('button', { name: 'More options' }).first().click();
    await card.getByRole('button', { name: 'Delete assumption…' }).click();
    const sure = page.getByRole('dialog').last();
    await sure
      .getByRole('button', { name: /Delete/ })
      .last()
      .click();
    await card.getByText('People read short inline help').waitFor({ state: 'detached' });
    await walk.closeModals();
    expect(featureNamed('Inline help in forms')?.assumptions).toEqual([]);

    await card.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this feature?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => featureNamed('Inline help in forms'), { timeout: STEP_MS }).toBeUndefined();
    await ui.shot('using-feature-deleted');
  }, 120_000);

  // README "Features": "The digest's Advance button is the same press with the same confirmation, and
  // rewrites the digest's line".
  it("the digest's Advance button asks first, advances the feature and rewrites the digest's line", async () => {
    await walk.as('admin', 'api');
    const posted = page.locator('#messages .msg:not(.ephemeral)', { hasText: 'Planning digest' });
    const before = await posted.count();
    await page.getByRole('button', { name: "Post today's digest" }).click();
    const digest = posted.nth(before);
    await digest.waitFor();
    const line = digest
      .locator('.block', { has: page.locator('.section', { hasText: 'Audit log export' }) })
      .first();
    await line.getByRole('button', { name: 'Advance' }).click();
    const confirm = page.getByRole('dialog').last();
    expect(await ui.text(confirm)).toMatch(/Execution/);
    await confirm.getByRole('button', { name: /Advance/ }).click();
    await expect.poll(() => featureNamed('Audit log export')?.stage, { timeout: STEP_MS }).toBe('execution');
    await digest
      .locator('.section', { hasText: 'Audit log export' })
      .getByText(/execution/i)
      .first()
      .waitFor();
    await ui.shot('using-digest-advance');
  }, 90_000);

  // README "Administering": Invitations (New invitation, Revoke confirmed), Links and digests
  // (Change time).
  it('Administering: a new invitation, then revoked after a confirmation; the digest time form', async () => {
    await walk.as('admin');
    await walk.type('/plan admin');
    const _admin = ui.modal('Administration');
    const open = (section: string) => walk.adminSection(section);
    const invitations = () => Object.values(playground.sandbox.state().invitations).map((i) => i.inviteName);
    let view = await open('Invitations');
    await view.getByRole('button', { name: 'New invitation' }).click();
    const invitation = ui.modal('New invitation');
    await invitation.getByLabel('Team').selectOption({ label: 'Platform' });
    await invitation.getByLabel('Name').fill('Contractors');
    await invitation.getByLabel('Expires in (days)').fill('7');
    await invitation.getByLabel('Uses').fill('10');
    await invitation.getByRole('button', { name: 'Create' }).click();
    await expect.poll(invitations, { timeout: STEP_MS }).toContain('Contractors');
    await walk.closeModals();
    await walk.type('/plan admin');
    view = await open('Invitations');
    const row = view
      // Not the seeded "Design contractors".
      .locator('.block', { has: page.locator('.section', { hasText: /^\s*Contractors ·/ }) })
      .first()
      .locator(
        'xpath=following-sibling::div[contains(@class, "block")][.//div[contains(@class, "actions")]][1]',
      );
    await row.getByRole('button', { name: 'Revoke' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke the invitation?' });
    await revoke.getByRole('button', { name: /Revoke/ }).click();
    await view.getByText('The invitation Contractors is revoked: its link no longer works.').waitFor();
    await expect.poll(invitations, { timeout: STEP_MS }).not.toContain('Contractors');
    await ui.shot('using-admin-invitation-revoked');
    await walk.closeModals();

    await walk.type('/plan admin');
    view = await open('Links and digests');
    await view.getByRole('button', { name: 'Change time' }).first().click();
    const time = ui.modal('Digest time');
    await time.locator('input[type=time], select').first().waitFor();
    await walk.closeModals();
  }, 120_000);
  // README "Administering": People (Regenerate token, confirmed: "their next command just works";
  // Close, confirmed: "the person is asked to reconnect"; Re-open), Teams and channels ("a team's
  // default channel cannot be deleted, so it has no Delete and a line under it says why"), Links and digests (Include
  // weekends, Unlink confirmed).
  it("Administering: a person's token regenerated, their account closed and re-opened; the default channel kept; weekends and unlink", async () => {
    await walk.as('admin');
    await walk.type('/plan admin');
    const _admin = ui.modal('Administration');
    const open = (section: string) => walk.adminSection(section);
    const confirmWith = async (title: string, button: string) => {
      await page.getByRole('dialog', { name: title }).getByRole('button', { name: button }).click();
    };
    const dennis = async (shows: string | RegExp) => {
      await walk.closeModals();
      await ui.actAs('U0DENNIS');
      await ui.openChannel('api');
      await walk.command('/plan whoami', shows);
      await walk.as('admin');
      await walk.type('/plan admin');
    };

    let people = await open('People');
    await rowActions(people, /Dennis Ritchie/)
      .getByRole('button', { name: 'Regenerate token' })
      .click();
    await confirmWith('Regenerate the token?', 'Regenerate');
    await people.getByText(/Dennis Ritchie has a new token, stored for @Dennis Ritchie/).waitFor();
    await dennis('You act as Dennis Ritchie in organization Northwind Robotics as member.');

    people = await open('People');
    await rowActions(people, /Dennis Ritchie/)
      .getByRole('button', { name: 'Close account' })
      .click();
    await confirmWith('Close the account?', 'Close account');
    await people
      .getByText(/Dennis Ritchie.* is closed/)
      .first()
      .waitFor();
    await dennis(
      'Your connection to the Team Planning Service stopped working (the token was revoked or expired). Reconnect to continue.',
    );

    people = await open('People');
    await rowActions(people, /Dennis Ritchie/)
      .getByRole('button', { name: 'Re-open' })
      .click();
    await confirmWith('Re-open the account?', 'Re-open');
    await people.getByText(/Dennis Ritchie has a new token/).waitFor();
    await dennis('You act as Dennis Ritchie in organization Northwind Robotics as member.');

    const teams = await open('Teams and channels');
    await rowActions(teams, /^\s*Platform\s*$/)
      .getByRole('button', { name: 'Open' })
      .click();
    const platform = page.getByRole('dialog').last();
    await platform.getByText('General (default)').waitFor();
    // The default channel offers no Delete, and the line under it says why; its Rename stays.
    const defaultRow = rowActions(platform, /General \(default\)/);
    await defaultRow.getByRole('button', { name: 'Rename' }).waitFor();
    expect(await defaultRow.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await platform
      .getByText("A team's default channel cannot be deleted or left without the team")
      .first()
      .waitFor();
    expect(
      Object.values(playground.sandbox.state().teams)
        .find((t) => t.teamName === 'Platform')
        ?.channels.some((c) => c.isDefault),
    ).toBe(true);
    await walk.closeModals();

    await walk.type('/plan admin');
    const links = await open('Links and digests');
    await rowActions(links, '#mobile').getByRole('button', { name: 'Include weekends' }).click();
    await rowActions(links, '#mobile').getByRole('button', { name: 'Skip weekends' }).waitFor();
    expect(await playground.app.store.links.get('T0PLAYGRND', 'C0MOBILE')).toMatchObject({
      weekdaysOnly: false,
    });
    await rowActions(links, '#mobile').getByRole('button', { name: 'Unlink' }).click();
    await confirmWith('Unlink the channel?', 'Unlink');
    await expect
      .poll(() => playground.app.store.links.get('T0PLAYGRND', 'C0MOBILE'), { timeout: STEP_MS })
      .toBeUndefined();
    await walk.closeModals();
    await ui.openChannel('mobile');
    await page.locator('#channel-topic', { hasText: 'Not linked' }).waitFor();
    await ui.shot('using-admin-people-teams-links');
  }, 150_000);
});
