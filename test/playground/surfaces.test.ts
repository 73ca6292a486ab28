/**
 * The playground in a real browser, surface by surface (issue 23 items 11–17): what the README's
 * "Using it" offers, driven as a person would — clicking, typing, switching people — and checked on
 * what the page shows, with the app's store or the sandbox read only to confirm what stuck.
 * Waits are on conditions (a locator appearing), never on time.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Playground } from '../../src/playground/index.js';
import { describeWithBrowser } from '../helpers/browser.js';
import { openPlaygroundPage, type PlaygroundPage, STEP_MS } from '../helpers/playground-page.js';

describeWithBrowser('playground surfaces in a browser', () => {
  let ui: PlaygroundPage;
  let playground: Playground;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    ui = await openPlaygroundPage();
    ({ playground, page, pageErrors } = ui);
  }, 60_000);

  // One test's open modal never blocks the next: close whatever is open, as a person would.
  beforeEach(async () => {
    const open = page.locator('#modal-root .overlay .modal-head button[aria-label="Close"]');
    for (let i = 0; i < 5 && (await open.count()) > 0; i++) {
      const before = await page
        .locator('#modal-root .modal-head h2')
        .innerText()
        .catch(() => '');
      await open.first().click();
      await page
        .locator('#modal-root .modal-head h2', { hasText: before })
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
    }
  });

  afterAll(async () => {
    expect(pageErrors).toEqual([]);
    await ui?.close();
  });

  const shot = (name: string) => ui.shot(name);
  const modal = (title: string | RegExp) => ui.modal(title);
  const text = (locator: Locator) => ui.text(locator);
  const actAs = (userId: string) => ui.actAs(userId);
  const openChannel = (name: string) => ui.openChannel(name);
  const pickExternal = (field: Locator, query: string, option: string | RegExp) =>
    ui.pickExternal(field, query, option);
  async function openHome() {
    await page.locator('#apps a', { hasText: 'Team Planning' }).click();
    await page.locator('#app-tabs button', { hasText: 'Home' }).click();
    await page.locator('#home .header-block', { hasText: 'Notifications' }).waitFor();
  }
  async function command(line: string) {
    await page.locator('#composer-text').fill(line);
    await page.locator('#composer-text').press('Enter');
  }
  async function closeModal(dialog: Locator) {
    await dialog
      .getByRole('button', { name: /Close|Done|Cancel/ })
      .first()
      .click();
    await dialog.waitFor({ state: 'detached' });
  }
  /** A form done with: closed if it is still open (some forms close themselves, some show a result). */
  async function dismiss(dialog: Locator) {
    if ((await dialog.count()) > 0) await closeModal(dialog).catch(() => undefined);
  }

  /** A task from a message in #api, as a person makes one; returns its card in the thread. */
  async function taskFromMessage(messageText: string, heading: string) {
    await openChannel('api');
    const source = page.locator('#messages .msg', { hasText: messageText }).first();
    await source.hover();
    await source.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: /Create task/ }).click();
    const create = modal('Create task');
    await create.getByLabel('Heading').fill(heading);
    await pickExternal(create.getByLabel('Feature'), '', /Rate-limit the public API/);
    await create.getByRole('button', { name: 'Create' }).click();
    await create
      .getByText(/created/i)
      .first()
      .waitFor();
    await closeModal(create);
    await source.getByRole('button', { name: /repl/ }).click();
    const card = page.locator('#thread-messages .msg', { hasText: heading });
    await card.waitFor();
    return card;
  }

  it('the seeded welcome says what to try in the first minute (item 15)', async () => {
    await openChannel('api');
    const welcome = page.locator('#messages .msg', { hasText: 'Welcome to the playground' });
    const said = await text(welcome);
    expect(said).toContain('⋮ More actions → Create task');
    expect(said).toContain('⚡ Shortcuts (top bar) → New feature');
    expect(said).toContain('Acting as');
    expect(said).toMatch(/Team Planning → Home/);
    // What it names is there: the ⋮ menu, the ⚡ menu's New feature, the person switcher, Home.
    await page.locator('#lightning').click();
    await page.getByRole('menuitem', { name: /New feature/ }).waitFor();
    await page.locator('#lightning').click();
    expect(await page.locator('#person option', { hasText: 'Alan Turing' }).count()).toBe(1);
    await shot('s15-welcome');
  }, 60_000);

  it("the channel header and *Post today's digest* follow /plan link and /plan unlink (item 14); an unknown command keeps the composer's text (item 16)", async () => {
    await actAs('U0ADA');
    await openChannel('general');
    await page.locator('#channel-topic', { hasText: 'Not linked' }).waitFor();
    expect(await page.getByRole('button', { name: "Post today's digest" }).isHidden()).toBe(true);

    await command('/plan link');
    const link = modal('Link this channel');
    await link.getByLabel('Planning team').selectOption({ label: 'Mobile' });
    await link.getByLabel('Planning channel').selectOption({ label: 'General (default)' });
    await link.getByRole('button', { name: 'Link' }).click();
    await link.getByText(/is linked to/).waitFor();
    // Still in the modal: the header already says what the channel is linked to.
    await page.locator('#channel-topic', { hasText: 'Mobile › General' }).waitFor();
    await closeModal(link);
    await page.getByRole('button', { name: "Post today's digest" }).waitFor();
    await shot('s14-linked-header');

    await command('/plan unlink');
    await page.locator('#channel-topic', { hasText: 'Not linked' }).waitFor();
    await page.getByRole('button', { name: "Post today's digest" }).waitFor({ state: 'hidden' });

    await command('/nope something typed');
    await page.locator('.toast', { hasText: '/nope is not a valid command' }).waitFor();
    expect(await page.locator('#composer-text').inputValue()).toBe('/nope something typed');
    await page.locator('#composer-text').fill('');
  }, 90_000);

  it('renders a second quote, a typed link, reader-local dates and long permalinks, and opens a linked reply with its thread root (item 16)', async () => {
    await actAs('U0ADA');
    await openChannel('product');
    const slack = playground.workspace;
    // The app quotes what people wrote (evidence, discoveries): two quotes in one text.
    slack.post({
      channel: 'C0PRODUCT',
      user: 'U0BOTPLAN',
      botId: 'B0PLAYGRND',
      text: '>first quote\nbetween\n>second quote',
    });
    const quoted = page.locator('#messages .msg', { hasText: 'between' }).last();
    await quoted.locator('blockquote', { hasText: 'second quote' }).waitFor();
    expect(await quoted.locator('blockquote').count()).toBe(2);

    await command('see <https://example.com/docs|the docs> now');
    const typed = page.locator('#messages .msg', { hasText: 'the docs' }).last();
    await typed.waitFor();
    expect(await text(typed.locator('.mrkdwn'))).toContain('see <https://example.com/docs|the docs> now');
    expect(await typed.locator('a[href="https://example.com/docs"]').count()).toBe(1);

    // A long permalink from the app stays inside the thread pane.
    const root = slack.post({ channel: 'C0PRODUCT', user: 'U0KATHERINE', text: 'The root of a thread' });
    const long = `https://northwind.slack.com/archives/C0PRODUCT/p${'1'.repeat(120)}`;
    const reply = slack.post({
      channel: 'C0PRODUCT',
      user: 'U0BOTPLAN',
      botId: 'B0PLAYGRND',
      threadTs: root.ts,
      text: `Logged <${long}> at <!date^1795641316^{date_short} at {time}|2026-11-25 21:15 UTC>`,
    });
    // A permalink to the reply opens the thread with its root first.
    await page.goto(`${playground.url}archives/C0PRODUCT/p${reply.ts.replace('.', '')}`);
    await page.locator(`body[data-user="U0ADA"]`).waitFor({ state: 'attached' });
    const thread = page.locator('#thread-messages');
    await thread.locator('.msg', { hasText: 'Logged' }).waitFor();
    expect(await text(thread.locator('.msg').first())).toContain('The root of a thread');
    const logged = thread.locator('.msg', { hasText: 'Logged' });
    expect(await text(logged)).toContain('Nov 25, 2026 at 9:15 PM');
    expect(await text(logged)).not.toContain('GMT');
    const pane = await thread.boundingBox();
    const linkBox = await logged.locator('a').first().boundingBox();
    expect(linkBox && pane && linkBox.x + linkBox.width <= pane.x + pane.width + 1).toBe(true);
    await shot('s16-thread-from-permalink');
  }, 60_000);

  it("sends the Home tab's state with its actions: notification choices and quiet hours stick (item 11); the experience chart is served (item 12)", async () => {
    await actAs('U0ADA');
    // An experience of her own, so that Home has a chart to draw.
    await openChannel('api');
    await command('/plan grade @Ada Lovelace typescript 7');
    await page.locator('#messages .msg.ephemeral', { hasText: /typescript/ }).waitFor();
    await openHome();
    const home = page.locator('#home');
    const feedbackBox = home.getByRole('checkbox', { name: 'Feedback on my tasks' });
    expect(await feedbackBox.isChecked()).toBe(true);
    await feedbackBox.uncheck();
    const store = playground.app.store.notifications;
    await expect
      .poll(async () => (await store.prefs('T0PLAYGRND', 'U0ADA'))?.muted ?? [], { timeout: STEP_MS })
      .toEqual(['feedback']);

    const selects = home.locator('select[data-action-id]');
    await selects.nth(0).selectOption('22:00');
    await home.getByText('now choose until when').waitFor();
    await selects.nth(1).selectOption('07:00');
    await expect
      .poll(async () => (await store.prefs('T0PLAYGRND', 'U0ADA'))?.quiet, { timeout: STEP_MS })
      .toEqual({ start: '22:00', end: '07:00' });
    // Reopened, the tab shows what was saved.
    await page.locator('#app-tabs button', { hasText: 'Messages' }).click();
    await openHome();
    await home
      .locator('select[data-action-id] >> nth=1')
      .locator('option:checked', { hasText: '07:00' })
      .waitFor({ state: 'attached' });
    expect(await home.locator('select[data-action-id]').nth(0).inputValue()).toBe('22:00');
    expect(await home.getByRole('checkbox', { name: 'Feedback on my tasks' }).isChecked()).toBe(false);
    expect(await home.getByRole('checkbox', { name: 'A task is assigned to me' }).isChecked()).toBe(true);

    const chart = home.locator('.image-block img');
    await chart.waitFor();
    await expect
      .poll(
        () =>
          chart.evaluate(
            (img) =>
              (img as { complete: boolean; naturalWidth: number }).complete &&
              (img as { naturalWidth: number }).naturalWidth,
          ),
        {
          timeout: STEP_MS,
        },
      )
      .toBeGreaterThan(0);
    await shot('s11-home-preferences-and-chart');
  }, 90_000);

  it("sets a task's notions with a multi external select, shown as chips (item 13)", async () => {
    await actAs('U0ADA');
    const card = await taskFromMessage('Retry-After', 'Send Retry-After on every 429');
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = modal('Edit task');
    const notions = edit.getByLabel('Notions');
    await expect(edit.locator('.unknown-block').count()).resolves.toBe(0);
    await pickExternal(notions, 'type', 'typescript');
    await edit.locator('.chip', { hasText: 'typescript' }).waitFor();
    await shot('s13-notions-chips');
    await edit.getByRole('button', { name: 'Save' }).click();
    const notionsOf = () => {
      const state = playground.sandbox.state();
      const task = Object.values(state.features)
        .flatMap((f) => f.tasks)
        .find((t) => t.heading === 'Send Retry-After on every 429');
      return (task?.notionIds ?? []).map((id) => state.notions[id]?.value);
    };
    await expect.poll(notionsOf, { timeout: STEP_MS }).toEqual(['typescript']);
  }, 90_000);

  // -- Item 17: every surface of the README's "Using it", as a person uses it ------------------

  it('tasks: /plan tasks lists them with their buttons; Start, Assign…, Details, Log discovery and Delete on the card', async () => {
    await actAs('U0ADA');
    await openChannel('api');
    await command('/plan tasks');
    const list = page.locator('#messages .msg.ephemeral').last();
    await list.getByRole('button', { name: 'Details' }).first().waitFor();
    expect(await list.getByRole('button', { name: 'Assign…' }).count()).toBeGreaterThan(0);

    const card = await taskFromMessage('nightly export', 'Page the nightly export by 1,000');
    await card.getByRole('button', { name: 'Start' }).click();
    await card.getByText(/in progress/).waitFor();

    await card.getByRole('button', { name: 'Assign…' }).click();
    const assign = modal('Assign task');
    await assign.getByLabel('Assign to (candidates best fit first)').selectOption({ label: 'Assign to me' });
    await assign.getByRole('button', { name: 'Assign', exact: true }).click();
    await card
      .getByText(/Ada Lovelace/)
      .first()
      .waitFor();
    await dismiss(assign);

    await card.getByRole('button', { name: 'Log discovery' }).click();
    const discovery = modal('Log discovery');
    await discovery
      .locator('textarea, input[type=text]')
      .first()
      .fill('The export query has no index on created_at.');
    await discovery.getByRole('button', { name: /Log|Save/ }).click();
    await card.getByText(/1 discover/).waitFor();
    await dismiss(discovery);

    await card.getByRole('button', { name: 'Details' }).click();
    const details = modal('Task details');
    await details.getByText('The export query has no index on created_at.').waitFor();
    await shot('s17-task-details');
    await closeModal(details);

    // Delete on the shared card has no dialog of its own: the app asks Ada, the task's author.
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = modal('Delete task');
    await confirm.getByText('Delete this task?').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    // The card itself becomes one line, and the presser is told in the confirmation.
    await page
      .locator('#thread-messages .msg:not(.ephemeral)', { hasText: 'This task was deleted.' })
      .waitFor();
    await confirm.getByText('Task deleted.').waitFor();
    await shot('s17-task-deleted');
    await dismiss(confirm);
  }, 120_000);

  it('features and experiments: /plan feature new, its card, an assumption, an experiment with participants as chips; evidence from a message; search', async () => {
    await actAs('U0ADA');
    await openChannel('discovery');
    // From the channel, the team and channel default to its link (⚡ New feature asks for them).
    await command('/plan feature new');
    const create = modal('New feature');
    await create.getByLabel('Heading').fill('Guided first minute');
    await create.getByLabel('Priority').selectOption({ index: 3 });
    await create.getByRole('radio').first().check();
    await create.getByRole('button', { name: 'Create' }).click();
    await shot('s17-feature-created');
    await page.locator('#messages .msg', { hasText: 'Guided first minute' }).first().waitFor();
    await dismiss(create);
    const card = page.locator('#messages .msg:not(.ephemeral)', { hasText: 'Guided first minute' }).last();
    await card.getByText(/add at least one assumption/i).waitFor();

    await card.getByRole('button', { name: 'Add assumption' }).click();
    const assumption = modal('Assumption');
    await assumption.locator('textarea, input[type=text]').first().fill('Newcomers read the first message');
    await assumption.getByRole('button', { name: /Add|Save|Create/ }).click();
    await card.getByText('Newcomers read the first message').waitFor();
    await dismiss(assumption);

    await card.getByRole('button', { name: 'More options' }).first().click();
    await card.getByRole('button', { name: 'Experiment…' }).click();
    const experiment = modal('Experiment');
    await experiment.getByRole('radio', { name: /running/i }).check();
    await pickExternal(experiment.getByLabel('Participants'), 'Alan', 'Alan Turing');
    await experiment.locator('.chip', { hasText: 'Alan Turing' }).waitFor();
    await pickExternal(experiment.getByLabel('Participants'), 'Kath', 'Katherine Johnson');
    await experiment.getByRole('button', { name: 'Remove Katherine Johnson' }).click();
    await shot('s17-experiment-participants');
    await experiment.getByRole('button', { name: 'Save' }).click();
    await card.getByText(/running/).waitFor();
    expect(await text(card)).toContain('Alan Turing');
    expect(await text(card)).not.toContain('Katherine Johnson');
    await dismiss(experiment);

    // Evidence: a person's message appended to the experiment's details.
    await command('Three of four newcomers scrolled past the welcome.');
    const source = page.locator('#messages .msg', { hasText: 'scrolled past the welcome' }).last();
    await source.hover();
    await source.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: /Log as evidence/ }).click();
    const evidence = modal('Log as evidence');
    await pickExternal(evidence.getByLabel('Feature'), 'Guided', 'Guided first minute');
    await pickExternal(evidence.getByLabel('Assumption'), '', 'Newcomers read the first message');
    await evidence.getByRole('button', { name: 'Log' }).click();
    await expect
      .poll(
        () =>
          Object.values(playground.sandbox.state().features)
            .find((f) => f.heading === 'Guided first minute')
            ?.assumptions.some((a) => JSON.stringify(a).includes('scrolled past the welcome')),
        { timeout: STEP_MS },
      )
      .toBe(true);
    await closeModal(evidence).catch(() => undefined);

    await command('/plan search SAML');
    const found = page.locator('#messages .msg.ephemeral', { hasText: 'Single sign-on with SAML' }).last();
    await found.getByRole('button', { name: 'Read' }).click();
    await modal(/Deep context|Single sign-on/)
      .getByText('Single sign-on with SAML')
      .first()
      .waitFor();
    await shot('s17-search-read');
    await closeModal(modal(/Deep context|Single sign-on/));
  }, 150_000);

  it('admin: /plan admin opens People, Invitations, Teams and channels, Notions, Billing, Links and digests', async () => {
    await actAs('U0ADA');
    await openChannel('api');
    await command('/plan admin');
    const admin = modal('Administration');
    const expected: [string, RegExp][] = [
      ['People', /Grace Hopper/],
      ['Invitations', /New invitation/],
      ['Teams and channels', /Platform/],
      ['Notions', /typescript/],
      ['Billing', /Price plans/],
      ['Links and digests', /Next digest/],
    ];
    for (const [section, shows] of expected) {
      // Case matters: "Invite people" is not the People section.
      await admin
        .locator('.section', { hasText: new RegExp(section) })
        .getByRole('button', { name: 'Open' })
        .click();
      const pushed = page.locator('.modal-head .stack-note', { hasText: '2 views deep' });
      await pushed.waitFor();
      const view = page.getByRole('dialog').last();
      await view.getByText(shows).first().waitFor();
      await shot(`s17-admin-${section.split(' ')[0]?.toLowerCase()}`);
      await view.locator('.modal-foot .btn').first().click();
      await admin.locator('.section', { hasText: 'Billing' }).waitFor();
    }
    await closeModal(admin);

    // Home's "Manage links and digests" lands in that section, where a digest is turned off.
    await openHome();
    await page.locator('#home').getByRole('button', { name: 'Manage links and digests' }).click();
    const links = modal('Links and digests');
    await links
      .getByText(/Next digest/)
      .first()
      .waitFor();
    await links.getByRole('button', { name: 'Turn off' }).first().click();
    await links.getByText('Digest turned off.').waitFor();
    const stored = await playground.app.store.links.listByWorkspace('T0PLAYGRND');
    expect(stored.filter((l) => !l.digestEnabled)).toHaveLength(1);
    await shot('s17-admin-links-from-home');
    await closeModal(links);
  }, 120_000);

  it('the guest: Gus sees only his channels and is refused planning, in one sentence', async () => {
    await actAs('U0GUEST');
    expect(await page.locator('#channels a').allInnerTexts()).toEqual(['# general', '# product']);
    await openChannel('product');
    await command('/plan tasks');
    await page.locator('#messages .msg.ephemeral', { hasText: /guest/ }).waitFor();
    await shot('s17-guest');
    await actAs('U0ADA');
  }, 60_000);
});
