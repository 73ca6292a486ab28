/**
 * The README's flows a person meets in their first hour beyond the first walk, walked in the
 * playground's page as the owner, the admin, a member and the guest: disconnecting and coming back,
 * Create task's assignee told in their DM, Delete on a shared card, Change reply, the last digest,
 * Home after its settings and its own recent activity, Billing's checkout, the admin's renames and
 * members, a stale card. Each step is clicked or typed as a person would and checked on what the
 * page shows; the sandbox's state and the app's store are read only to confirm what stuck. Each
 * `it` names the README passage it walks.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Playground } from '../../src/playground/index.js';
import { describeWithBrowser } from '../helpers/browser.js';
import { type PlaygroundPage, STEP_MS } from '../helpers/playground-page.js';
import {
  GUEST_REFUSAL,
  MAY_NOT_DELETE,
  ROLES,
  rowActions,
  type Walk,
  walkOnePage,
} from '../helpers/readme-walk.js';

describeWithBrowser('README first hour, walked in the playground as each role', () => {
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
  const taskNamed = (heading: string) =>
    features()
      .flatMap((f) => f.tasks)
      .find((t) => t.heading === heading);
  const accounts = () => Object.values(playground.sandbox.state().accounts);
  /** What a person would copy from the service's web app: their service-account token. */
  const tokenOf = (userName: string) => {
    const account = accounts().find((a) => a.userName === userName && !a.closedTime);
    if (!account) throw new Error(`no open account named ${userName}`);
    return account.serviceToken;
  };
  /** Any private answer (channel or thread) showing `shows`, once there is one more than `before`. */
  const anyEphemeral = (shows: string | RegExp) => page.locator('.msg.ephemeral', { hasText: shows });
  /** The DM messages with the app showing `shows`. */
  const dmMessages = (shows: string | RegExp) => page.locator('#messages .msg', { hasText: shows });

  /** A task made from the message showing `messageText` in #api, as the person acting; its card. */
  async function taskFromMessage(
    messageText: string,
    heading: string,
    assignee?: string,
  ): Promise<{ card: Locator; source: Locator }> {
    await ui.openChannel('api');
    const source = page.locator('#messages .msg', { hasText: messageText }).first();
    await walk.messageShortcut(source, /Create task/);
    const create = ui.modal('Create task');
    await create.getByLabel('Heading').fill(heading);
    await ui.pickExternal(create.getByLabel('Feature'), '', /Rate-limit the public API/);
    if (assignee) await create.getByLabel('Assignee').selectOption({ label: assignee });
    await create.getByRole('button', { name: 'Create' }).click();
    await create
      .getByText(/created/i)
      .first()
      .waitFor();
    await walk.closeModal(create);
    await source.getByRole('button', { name: /repl/ }).click();
    const card = page.locator('#thread-messages .msg:not(.ephemeral)', { hasText: heading });
    await card.waitFor();
    return { card, source };
  }

  /** Opens `/plan admin` and pushes `section` over it; the view pushed. */
  async function adminSection(section: string): Promise<Locator> {
    await walk.type('/plan admin');
    return walk.adminSection(section);
  }

  // README "Using it": Create task — "the assignee is told when someone else assigns them — … in the
  // Create task form … once"; Give feedback — "Once replied, the DM's button is Change reply: its
  // form says … that it replaces the reply already given … and the author is told the reply changed".
  it('Create task with an assignee: told once in their DM; their feedback Reply becomes Change reply, whose form says it replaces, and the giver is told it changed', async () => {
    await walk.as('member');
    const heading = 'Cap the export page size';
    const { card } = await taskFromMessage('nightly export', heading, 'Alan Turing');
    await card
      .getByText(/assigned to @Alan Turing/)
      .first()
      .waitFor();
    expect(taskNamed(heading)?.assigneeUserId).toBe(accounts().find((a) => a.userName === 'Alan Turing')?.id);

    // The member gives feedback from the card.
    await card.getByRole('button', { name: 'Give feedback' }).click();
    const feedback = ui.modal('Give feedback');
    await feedback.getByLabel('Issue').selectOption({ index: 1 });
    await feedback.getByLabel('Feedback').fill('Say the cap in the export docs.');
    await feedback.getByRole('button', { name: 'Send' }).click();
    await feedback.getByText('Feedback sent').waitFor();
    await walk.closeModals();

    // Alan's DM: the assignment once, then the feedback with Reply.
    await walk.closeModals();
    await ui.actAs('U0ALAN');
    await walk.openDm();
    const assigned = dmMessages(`Margaret Hamilton assigned you the task ${heading}.`);
    await assigned.waitFor();
    const told = dmMessages('Say the cap in the export docs.');
    await told.waitFor();
    expect(await assigned.count()).toBe(1);
    await told.getByRole('button', { name: 'Reply', exact: true }).click();
    const reply = ui.modal('Reply to feedback');
    await reply.getByText("The feedback's author is told of your reply.").waitFor();
    await reply.getByLabel('Your reply').fill('Added to the export page.');
    await reply.getByRole('button', { name: 'Reply', exact: true }).click();
    await reply.getByText(/Reply recorded/).waitFor();
    await walk.closeModals();

    // The same DM now offers Change reply; its form says, before typing, what it replaces.
    await told.getByText('You replied. Change reply replaces your reply.').waitFor();
    expect(await told.getByRole('button', { name: 'Reply', exact: true }).count()).toBe(0);
    await told.getByRole('button', { name: 'Change reply' }).click();
    const change = ui.modal('Change your reply');
    await change.getByText('This replaces the reply already given:').waitFor();
    await change.getByText('Added to the export page.').first().waitFor();
    await change.getByText("The feedback's author is told that your reply changed.").waitFor();
    await change.getByLabel('Your new reply').fill('Added to the export page and the changelog.');
    await change.getByRole('button', { name: 'Replace reply' }).click();
    await change.getByText(/Reply changed: it replaces your earlier one/).waitFor();
    await walk.closeModals();
    await ui.shot('first-hour-change-reply');

    // The giver is told of the reply, then that it changed, with the new words.
    await walk.as('member');
    await walk.openDm();
    await dmMessages(`Alan Turing replied to your feedback on ${heading}`).waitFor();
    const changed = dmMessages(`Alan Turing changed their reply to your feedback on ${heading}`);
    await changed.waitFor();
    expect(await ui.text(changed)).toContain('Added to the export page and the changelog.');
    expect(JSON.stringify(taskNamed(heading))).toContain('Added to the export page and the changelog.');
  }, 120_000);

  // README "Tasks": "The card is everyone's, so Delete has no dialog of its own: whoever may not
  // delete the task is told why at once, privately; whoever may gets a confirmation".
  it("Delete on the owner's task card: a member is told why at once with no dialog; the admin confirms in the app's modal and the card says it is deleted", async () => {
    await walk.as('owner');
    const heading = 'Document the 429 budget';
    const { source } = await taskFromMessage('Retry-After', heading);

    for (const person of ['U0MARGARET', 'U0ALAN']) {
      await ui.actAs(person);
      await ui.openChannel('api');
      await source.getByRole('button', { name: /repl/ }).click();
      const card = page.locator('#thread-messages .msg:not(.ephemeral)', { hasText: heading });
      // Told privately: nobody else's refusal shows to this person, and theirs comes at once.
      const refusals = anyEphemeral(MAY_NOT_DELETE);
      await card.waitFor();
      await expect.poll(() => refusals.count(), { timeout: STEP_MS }).toBe(0);
      await card.getByRole('button', { name: 'Delete' }).click();
      await refusals.first().waitFor();
      expect(await page.locator('#modal-root .overlay').count()).toBe(0);
    }
    expect(taskNamed(heading)).toBeDefined();
    await ui.shot('first-hour-delete-refused');

    await walk.as('admin');
    await source.getByRole('button', { name: /repl/ }).click();
    const card = page.locator('#thread-messages .msg:not(.ephemeral)', { hasText: heading });
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = ui.modal('Delete task');
    await confirm.getByText('Delete this task?').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .locator('#thread-messages .msg:not(.ephemeral)', { hasText: 'This task was deleted.' })
      .first()
      .waitFor();
    await walk.closeModals();
    expect(taskNamed(heading)).toBeUndefined();
  }, 120_000);

  // README "Using it": `/plan digest` — "show this channel's digest settings, next run and last
  // digest (… when, in your own time zone, where, and a link to it)"; Administering › Links and
  // digests: "the real next digest and the last one (when, where, a link to it)".
  it("the last digest: none before; after Post today's digest, /plan digest and the admin's Links and digests say when and where, with a link", async () => {
    await walk.as('member', 'platform');
    const before = await walk.command('/plan digest', 'Daily digest in #platform');
    expect(await ui.text(before)).toContain('No digest posted yet.');

    const posted = await walk.ephemeralCount('Posted the digest in #platform');
    await page.getByRole('button', { name: "Post today's digest" }).click();
    await walk.nextEphemeral('Posted the digest in #platform', posted);
    const after = await walk.command('/plan digest', 'Last digest:');
    expect(await ui.text(after)).toMatch(/Last digest: .+ at .+ in #platform \(open it\)\./);
    const open = after.getByRole('link', { name: 'open it' });
    expect(await open.getAttribute('href')).toMatch(/C0PLATFORM/);
    await ui.shot('first-hour-last-digest');

    await walk.as('admin', 'platform');
    const links = await adminSection('Links and digests');
    const row = links.locator('.block', { hasText: '#platform' }).first();
    await links
      .getByText(/Last digest: .+ in #platform/)
      .first()
      .waitFor();
    expect(await ui.text(row)).toContain('#platform');
    await walk.closeModals();

    await walk.as('guest');
    await walk.command('/plan digest', GUEST_REFUSAL);
  }, 90_000);

  // README "Home tab and notifications": quiet hours "saved once both ends are picked: the first end
  // stays shown as picked until the second is, then the tab is drawn again from what was saved";
  // Profile: "a checkbox on /plan connect …, shown on Home with a button that changes it (turning it
  // on applies the profile at once)".
  it('Home: quiet hours picked end by end, then the tab drawn from what was saved; Use my Slack name and photo turned on from Home', async () => {
    await walk.as('member');
    const home = await walk.openHome('Quiet hours');
    // The tab as read for her (not the first, cached or loading one).
    await home.getByText('Loading…').first().waitFor({ state: 'detached' });
    await home.getByText('Runbook for rolling back a migration').first().waitFor();
    const hours = home.locator('select[data-action-id]');
    await hours.nth(0).selectOption('21:00');
    await home.getByText('now choose until when').waitFor();
    // The first end stays shown as picked.
    await expect.poll(() => hours.nth(0).inputValue(), { timeout: STEP_MS }).toBe('21:00');
    await hours.nth(1).selectOption('06:00');
    // Drawn again from what was saved: the prompt gone, both ends shown, without reopening the tab.
    await home.getByText('now choose until when').waitFor({ state: 'detached' });
    await expect.poll(() => hours.nth(1).inputValue(), { timeout: STEP_MS }).toBe('06:00');
    expect(await hours.nth(0).inputValue()).toBe('21:00');
    expect((await playground.app.store.notifications.prefs('T0PLAYGRND', ROLES.member.id))?.quiet).toEqual({
      start: '21:00',
      end: '06:00',
    });

    // A pasted account keeps its name and photo until its person says otherwise, here on Home.
    await home.getByText('Its name and photo stay as they are in the planning service').waitFor();
    await home.getByRole('button', { name: 'Use my Slack name and photo' }).click();
    await home.getByText('Its name and photo follow your Slack profile.').waitFor();
    await home.getByRole('button', { name: 'Stop following Slack' }).waitFor();
    await home.getByText('Your account now takes your Slack name and photo.').waitFor();
    expect((await playground.app.store.identities.get('T0PLAYGRND', ROLES.member.id))?.followsProfile).toBe(
      true,
    );
    await ui.shot('first-hour-home-settings');
  }, 90_000);

  // README "Home tab and notifications": "recent activity that is their own … each line naming the
  // task (and its feature) or the feature, and who did it where the app knows — a task created from
  // Slack …".
  it("Home's recent activity: each line names the task, its feature and who made it, and is the person's own", async () => {
    await walk.as('member');
    const heading = 'Log the export duration';
    await taskFromMessage('nightly export', heading);
    await page.locator('#thread-close').click();
    const line = `Task ${heading} in Rate-limit the public API was created by @Margaret Hamilton`;
    let home = await walk.openHome('Recent activity');
    await home.getByText(line).waitFor();
    await ui.shot('first-hour-home-activity');

    // Someone else's Home does not list it: neither theirs nor assigned to them.
    await walk.as('admin');
    home = await walk.openHome('Recent activity');
    await home.locator('.header-block', { hasText: 'Recent activity' }).waitFor();
    await home.getByText(`You act as ${ROLES.admin.name}`).waitFor();
    expect(await ui.text(home)).not.toContain(heading);
  }, 90_000);

  // README "Administering" › Billing: "Upgrade (a checkout link …; Done once paid shows Billing
  // again as the service has it then) or, when subscribed, Switch to it and Cancel subscription
  // (confirmed)".
  it('Billing as the owner: Upgrade, pay on the checkout page, Done shows the subscription; Switch to it, then Cancel subscription, each confirmed', async () => {
    await walk.as('owner');
    let billing = await adminSection('Billing');
    await billing.getByText('it is on the free plan').waitFor();
    await billing.getByRole('button', { name: 'Upgrade' }).first().click();
    const checkout = ui.modal('Upgrade');
    const link = checkout.getByRole('link', { name: 'open the checkout' });
    // Paying happens on the provider's page, in a tab of its own.
    const [paid] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await paid.getByText(/Subscription active for Northwind Robotics/).waitFor();
    await paid.close();
    await checkout.getByRole('button', { name: 'Done' }).click();
    billing = page.getByRole('dialog').last();
    const status = () =>
      billing.locator('.section', { hasText: /Subscribed to|On a trial of|was cancelled/ }).first();
    await billing.getByRole('button', { name: 'Cancel subscription' }).waitFor();
    expect(await ui.text(status())).toMatch(/Subscribed to|On a trial of/);
    const subscription = () => playground.sandbox.state().orgs[playground.sandbox.orgId]?.subscription;
    expect(subscription()?.status).toBeDefined();
    await ui.shot('first-hour-billing-done');

    // Switch to another plan, confirmed: Billing names the new one.
    const before = await ui.text(status());
    await billing.getByRole('button', { name: 'Switch to it' }).first().click();
    await page
      .getByRole('dialog', { name: 'Change the plan?' })
      .getByRole('button', { name: 'Change plan' })
      .click();
    await expect.poll(() => ui.text(status()), { timeout: STEP_MS }).not.toBe(before);

    // Cancel, confirmed: it stops renewing.
    await billing.getByRole('button', { name: 'Cancel subscription' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel the subscription?' })
      .getByRole('button', { name: 'Cancel subscription' })
      .click();
    await billing.getByText(/was cancelled; it ends/).waitFor();
    expect(subscription()?.status).toBe('cancelled');
    await walk.closeModals();
  }, 120_000);

  // README "Using it": `/plan disconnect [--close]` — "your account stays open …, and your next
  // command asks whether to Connect again … or Paste a token — the app never makes you a new
  // account unasked. --close, after a confirmation, also closes the account, and says that its
  // history stays with the closed account".
  it('a member disconnects and comes back: the next command asks; a new account, Connect again to it, then --close, and her own token pasted back', async () => {
    // The owner saves the organization's admin token, so that the app can make accounts.
    await walk.as('owner');
    await walk.type('/plan connect admin');
    const organization = ui.modal('Connect organization');
    await organization.getByLabel('Service-account token').fill(tokenOf('Ada Lovelace'));
    await organization.getByRole('button', { name: 'Connect' }).click();
    // The form is replaced by what came of it.
    await page
      .getByRole('dialog')
      .last()
      .getByText(/Organization .*Northwind Robotics.* connected/)
      .waitFor();
    await walk.closeModals();

    // The guest has no account to leave, and is told so (nothing needs an account here).
    await walk.as('guest');
    await walk.command('/plan disconnect', 'You are not connected, so there is nothing to forget.');

    const seeded = tokenOf('Margaret Hamilton');
    const count = accounts().length;
    await walk.as('member');
    await walk.command('/plan disconnect', 'Disconnected: the app no longer acts for you.');

    // Her next command asks; nothing is made for her meanwhile.
    let asked = await walk.command('/plan tasks mine', 'You disconnected the account you had connected');
    await asked.getByRole('button', { name: 'Paste a token' }).waitFor();
    expect(accounts().length).toBe(count);

    // Start with a new account: one new, empty account.
    await asked.getByRole('button', { name: 'Start with a new account' }).click();
    await anyEphemeral('Connected with a new planning account the app made for you').first().waitFor();
    expect(accounts().length).toBe(count + 1);
    await walk.command(
      '/plan grade @Margaret Hamilton kubernetes 8',
      'Your self-evaluation of kubernetes (8) is recorded.',
    );

    // Disconnected again, the app made that account: Connect again gives it back, with her grade.
    const disconnected = await walk.command(
      '/plan disconnect',
      'Disconnected: the app no longer acts for you.',
    );
    expect(await ui.text(disconnected)).toContain(
      'Your planning account stays open with your tasks and grades',
    );
    asked = await walk.command('/plan grades', 'Connect again to get your planning account back');
    await asked.getByRole('button', { name: 'Paste a token' }).waitFor();
    await asked.getByRole('button', { name: 'Connect again' }).click();
    await anyEphemeral('Connected again with the planning account the app made for you').first().waitFor();
    expect(accounts().length).toBe(count + 1);
    const grades = await walk.command('/plan grades', 'kubernetes');
    expect(await ui.text(grades)).toMatch(/kubernetes/);
    await ui.shot('first-hour-connect-again');

    // --close asks first, then says the history stays with the closed account.
    const ask = await walk.command('/plan disconnect --close', 'Close your account in the planning service?');
    await ask.getByRole('button', { name: 'Close my account' }).click();
    await page
      .getByRole('dialog', { name: 'Close your account?' })
      .getByRole('button', { name: 'Close it' })
      .click();
    await anyEphemeral('its tasks, grades and history stay with the closed account. If you use the app again')
      .first()
      .waitFor();
    expect(accounts().filter((a) => a.closedTime).length).toBeGreaterThan(0);
    asked = await walk.command(
      '/plan whoami',
      'You disconnected and your previous planning account is closed',
    );
    await asked.getByRole('button', { name: 'Start with a new account' }).waitFor();

    // She pastes her own token back: the seeded account, with its tasks.
    await asked.getByRole('button', { name: 'Paste a token' }).click();
    const connect = ui.modal('Connect your account');
    await connect.getByLabel('Service-account token').fill(seeded);
    await connect.getByRole('button', { name: 'Connect' }).click();
    await page
      .getByRole('dialog')
      .last()
      .getByText(/You now act as .*Margaret Hamilton/)
      .waitFor();
    await walk.closeModals();
    const mine = await walk.command('/plan tasks mine', 'Your tasks');
    expect(await ui.text(mine)).toContain('Runbook for rolling back a migration');
    expect(accounts().length).toBe(count + 1);
    await ui.shot('first-hour-disconnect-close');
  }, 150_000);

  // README "Tasks": "A press on a card that no longer shows the task as it is (changed elsewhere …)
  // refreshes the card and says what changed instead of applying".
  it("a stale list: the owner sends a task to review, then the member's older Send to review says it was out of date, changes nothing and shows the task as it is", async () => {
    const heading = 'Runbook for rolling back a migration';
    await walk.as('member');
    const hers = await walk.command('/plan tasks runbook', heading);
    await hers.getByRole('button', { name: 'Send to review', exact: true }).waitFor();

    await walk.as('owner');
    const his = await walk.command('/plan tasks runbook', heading);
    await his.getByRole('button', { name: 'Send to review', exact: true }).click();
    await page.locator('#messages .msg', { hasText: heading }).getByText('in review').first().waitFor();
    await expect.poll(() => taskNamed(heading)?.state, { timeout: STEP_MS }).toBe('in review');

    await walk.as('member');
    const before = await walk.ephemeralCount('This button was out of date');
    await hers.getByRole('button', { name: 'Send to review', exact: true }).click();
    const said = await walk.nextEphemeral('This button was out of date', before);
    expect(await ui.text(said)).toContain('Nothing was changed');
    await page.locator('#messages .msg', { hasText: heading }).getByText('in review').first().waitFor();
    expect(taskNamed(heading)?.state).toBe('in review');
    await ui.shot('first-hour-stale-press');
  }, 90_000);

  // README "Features": "Delete (confirmed; in deep context only owners and admins …)"; "A feature in
  // deep context is read-only: its card keeps only Delete".
  it("a feature taken to deep context on its card keeps only Delete: the member's press is refused in one sentence, the admin's deletes it", async () => {
    const heading = 'Offline mode for field techs';
    const stage = () => features().find((f) => f.heading === heading)?.stage;
    await walk.as('admin', 'discovery');
    await walk.type('/plan feature new');
    const create = ui.modal('New feature');
    await create.getByLabel('Heading').fill(heading);
    await create.getByLabel('Priority').selectOption({ index: 3 });
    await create.getByRole('radio').nth(0).check();
    await create.getByRole('button', { name: 'Create' }).click();
    const posted = page.locator('#messages .msg:not(.ephemeral)', { hasText: heading }).last();
    await posted.waitFor();
    // The card itself, whatever is posted after it.
    const card = page.locator(`#messages .msg[data-ts="${await posted.getAttribute('data-ts')}"]`);
    await walk.closeModals();

    await card.getByRole('button', { name: 'Add assumption' }).click();
    const assumption = ui.modal('Add assumption');
    await assumption.locator('textarea, input[type=text]').first().fill('Techs lose signal in basements');
    await assumption.getByRole('button', { name: /Add|Save/ }).click();
    await card.getByText('Techs lose signal in basements').waitFor();
    await walk.closeModals();
    // Each press names the next stage; the card marks it (bold) once the feature is there.
    const advance = async (next: string, expected: string) => {
      await card.getByRole('button', { name: 'Advance' }).click();
      const confirm = page.getByRole('dialog').last();
      expect(await ui.text(confirm)).toContain(next);
      await confirm.getByRole('button', { name: /Advance/ }).click();
      // The stages line marks the current stage with its icon ("Ready to advance to *X*" has none).
      await card
        .locator('strong, b', { hasText: new RegExp(`\\S\\s+${next}\\s*$`) })
        .first()
        .waitFor();
      expect(stage()).toBe(expected);
    };
    await advance('Validation', 'validation');

    // Its experiment done, it can go on to execution, then to deep context (it has no task).
    await card.getByRole('button', { name: 'More options' }).first().click();
    await card.getByRole('button', { name: 'Experiment…' }).click();
    const experiment = ui.modal('Experiment');
    await experiment.getByRole('radio', { name: /^done/i }).first().check();
    await experiment.getByRole('button', { name: 'Save' }).click();
    await card.getByRole('button', { name: 'Advance' }).waitFor();
    await walk.closeModals();
    await advance('Execution', 'execution');
    await advance('Deep context', 'deep context');
    await card.getByText(/Read-only: it is in deep context/).waitFor();
    expect(await card.getByRole('button', { name: 'Add assumption' }).count()).toBe(0);

    // The member presses the card's Delete: refused in one sentence, the feature kept.
    await walk.as('member', 'discovery');
    const refusals = anyEphemeral(
      'Only owners and admins of your organization can delete a feature in deep context.',
    );
    const before = await refusals.count();
    await card.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this feature?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await refusals.nth(before).waitFor();
    expect(stage()).toBe('deep context');
    await ui.shot('first-hour-deep-context-delete-refused');

    await walk.as('admin', 'discovery');
    await card.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this feature?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(stage, { timeout: STEP_MS }).toBeUndefined();
  }, 120_000);

  // README "Administering": People (rename), Invitations (Edit), Teams and channels (rename teams and
  // channels, a channel's members (Remove) and prospects (Add), Add member / Remove member, A person's
  // teams), Notions (rename, search).
  it("Administering as the owner and the admin: renames of an account, a team, a channel and a notion; notion search; a channel's prospect added and removed; a person's teams after Add and Remove member; an invitation edited", async () => {
    const state = () => playground.sandbox.state();
    const saved = (text: string | RegExp) =>
      page.getByRole('dialog').last().getByText(text).first().waitFor();
    const save = async (label: string, value: string) => {
      const form = page.getByRole('dialog').last();
      await form.getByLabel(label).fill(value);
      await form.getByRole('button', { name: 'Save' }).click();
    };

    // Notions, as the admin: search narrows the list; a rename sticks.
    await walk.as('admin');
    let view = await adminSection('Notions');
    await view.getByLabel('Search').fill('post');
    await view.getByLabel('Search').press('Enter');
    await view.locator('.section', { hasText: /^\s*typescript\s*$/ }).waitFor({ state: 'detached' });
    await view.locator('.section', { hasText: /^\s*postgres\s*$/ }).waitFor();
    await rowActions(view, /^\s*postgres\s*$/)
      .getByRole('button', { name: 'Rename' })
      .click();
    await save('Notion', 'postgresql');
    await saved('The notion is now called postgresql.');
    expect(Object.values(state().notions).map((n) => n.value)).toContain('postgresql');
    await walk.closeModals();

    // People, as the owner: an account renamed.
    await walk.as('owner');
    view = await adminSection('People');
    await rowActions(view, /Dennis Ritchie/)
      .getByRole('button', { name: 'Rename' })
      .click();
    await save('Name', 'Dennis M. Ritchie');
    await saved('The account is now called Dennis M. Ritchie.');
    expect(accounts().map((a) => a.userName)).toContain('Dennis M. Ritchie');
    await walk.closeModals();

    // Invitations: the seeded one edited.
    view = await adminSection('Invitations');
    await rowActions(view, /Design contractors/)
      .getByRole('button', { name: 'Edit' })
      .click();
    const edit = ui.modal('Edit invitation');
    await edit.getByLabel('Uses').fill('25');
    await edit.getByRole('button', { name: 'Save' }).click();
    await saved('The invitation Design contractors is saved.');
    expect(
      Object.values(state().invitations).find((i) => i.inviteName === 'Design contractors'),
    ).toMatchObject({
      inviteUsesMax: 25,
    });
    await walk.closeModals();

    // Teams and channels: a team renamed; in Platform, a channel renamed (its Slack header follows).
    view = await adminSection('Teams and channels');
    await rowActions(view, /^\s*Mobile\s*$/)
      .getByRole('button', { name: 'Rename' })
      .click();
    await save('Team name', 'Mobile apps');
    await saved('The team is now called Mobile apps.');
    await walk.closeModals();
    await ui.openChannel('mobile');
    await page.locator('#channel-topic', { hasText: 'Mobile apps › General' }).waitFor();

    view = await adminSection('Teams and channels');
    await rowActions(view, /^\s*Platform\s*$/)
      .getByRole('button', { name: 'Open' })
      .click();
    let platform = page.getByRole('dialog').last();
    await rowActions(platform, /^\s*Infrastructure/)
      .getByRole('button', { name: 'Rename' })
      .click();
    await save('Channel name', 'Infra');
    await saved('The channel is now called Infra.');
    await walk.closeModals();
    await ui.openChannel('infrastructure');
    await page.locator('#channel-topic', { hasText: 'Platform › Infra' }).waitFor();

    // A channel's members: a prospect added, then removed after a confirmation.
    view = await adminSection('Teams and channels');
    await rowActions(view, /^\s*Platform\s*$/)
      .getByRole('button', { name: 'Open' })
      .click();
    platform = page.getByRole('dialog').last();
    await rowActions(platform, /^\s*Infra\b/)
      .getByRole('button', { name: 'Members' })
      .click();
    const members = page.getByRole('dialog').last();
    await members.getByText('Prospects').first().waitFor();
    const margaret = members.locator('.section', { hasText: 'Margaret Hamilton' });
    await margaret.getByRole('button', { name: 'Add', exact: true }).click();
    await margaret.getByRole('button', { name: 'Remove', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Remove from the channel?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await margaret.getByRole('button', { name: 'Add', exact: true }).waitFor();
    await walk.closeModals();

    // A person's teams, then Add member and Remove member in Platform, each seen in her teams.
    const teamsOf = async (expected: RegExp, absent?: RegExp) => {
      view = await adminSection('Teams and channels');
      await view.getByRole('button', { name: "A person's teams" }).click();
      const form = ui.modal("A person's teams");
      await form.getByLabel('Person').selectOption({ label: 'Barbara Liskov' });
      await form.getByRole('button', { name: 'Show' }).click();
      const shown = page.getByRole('dialog').last();
      await shown.getByText(expected).first().waitFor();
      if (absent) expect(await ui.text(shown)).not.toMatch(absent);
      await walk.closeModals();
    };
    await teamsOf(/is in 2 teams/, /Platform/);
    const member = async (button: string, label: string, submit: string, said: RegExp) => {
      view = await adminSection('Teams and channels');
      await rowActions(view, /^\s*Platform\s*$/)
        .getByRole('button', { name: 'Open' })
        .click();
      platform = page.getByRole('dialog').last();
      await platform.getByRole('button', { name: button }).click();
      const form = page.getByRole('dialog').last();
      await form.getByLabel(label).selectOption({ label: 'Barbara Liskov' });
      await form.getByRole('button', { name: submit, exact: true }).click();
      await saved(said);
      await walk.closeModals();
    };
    await member('Add member', 'Person to add', 'Add', /Barbara Liskov joined the team/);
    await teamsOf(/is in 3 teams/);
    await member('Remove member', 'Person to remove', 'Remove', /Barbara Liskov left the team/);
    await teamsOf(/is in 2 teams/, /Platform/);
    await ui.shot('first-hour-admin-renames-members');
  }, 180_000);
});
