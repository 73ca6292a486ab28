/**
 * The admin modal over signed HTTP against the sandbox: opened by workspace admins only, each
 * section pushed from the root view, forms submitted, confirmed buttons applied once.
 */
import type { ViewStateValue } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatLocal, nextRun } from '../../../src/digest/time.js';
import { createPlanningClient } from '../../../src/planning/index.js';
import { FormRequest, formActionId } from '../../../src/slack/admin/common.js';
import { ADMIN_ACTION, ADMIN_FIELD, ADMIN_VIEW } from '../../../src/slack/admin/ids.js';
import { FIELD, type Field } from '../../../src/slack/kit/ids.js';
import { toWire } from '../../../src/slack/kit/round-trip.js';
import { LINK_FIELD, LINK_VIEW } from '../../../src/slack/link/ids.js';
import {
  choice,
  eventually,
  Harness,
  submitted,
  TEAM,
  text,
  user,
  viewIdOf,
} from '../../helpers/slack-harness.js';

const createClient = (baseUrl: string, token: string) => createPlanningClient({ baseUrl, token, retries: 0 });

const ADMIN = 'U1';
const REFUSED = 'Only workspace admins can administer the organization from Slack.';

type View = Record<string, unknown> & { callback_id?: string; private_metadata?: string };

const json = (value: unknown) => JSON.stringify(value);
const number = (value: string): ViewStateValue => ({ type: 'number_input', value });
const conversation = (id: string): ViewStateValue =>
  ({ type: 'conversations_select', selected_conversation: id }) as ViewStateValue;

/** The latest views.update of `viewId` whose view matches `match`. */
async function updated(h: Harness, viewId: string, match: (view: View) => boolean = () => true) {
  const call = await h.slack.waitFor('views.update', (b) => b.view_id === viewId && match(b.view as View));
  return call.body.view as View;
}

/** The channels a team's view offers Delete for (their ids, from the buttons' values). */
function deletableChannels(view: View): string[] {
  const blocks = (view.blocks ?? []) as { elements?: { action_id?: string; value?: string }[] }[];
  return blocks.flatMap((b) =>
    (b.elements ?? [])
      .filter((e) => e.action_id === ADMIN_ACTION.deleteChannel)
      .map((e) => (JSON.parse(e.value ?? '{}') as { id?: string }).id ?? ''),
  );
}

async function openAdmin(h: Harness, as = ADMIN) {
  expect((await h.command('admin', as)).status).toBe(200);
  const open = await h.slack.waitFor('views.open');
  const rootId = (
    await h.slack.waitFor('views.update', (b) => (b.view as View).callback_id === ADMIN_VIEW.root)
  ).body.view_id as string;
  expect(json(open.body.view)).toContain('Loading');
  return rootId;
}

/** The id of the next view the app pushes from `since` (an index into the recorded calls). */
async function pushed(h: Harness, since: number) {
  return viewIdOf(await h.slack.waitFor('views.push', undefined, { since }));
}

/** Pushes a section from the root view; resolves with the section view's id once it is filled. */
async function openSection(h: Harness, rootId: string, name: string, as = ADMIN) {
  const since = h.slack.calls.length;
  await h.press({ view: rootId }, ADMIN_ACTION.section, { value: name, user: as });
  const pushedId = await pushed(h, since);
  await updated(h, pushedId, (v) => v.callback_id === ADMIN_VIEW.section);
  return pushedId;
}

/**
 * Billing opened and *Upgrade* pressed on its first enabled plan: the section's and the pushed
 * checkout's view ids, and the checkout as Slack shows it once filled.
 */
async function openCheckout(h: Harness) {
  const rootId = await openAdmin(h);
  const sectionId = await openSection(h, rootId, 'billing');
  const [plan] = (await h.owner().billing.planList()).pricePlans.filter((p) => p.isEnabled !== false);
  const since = h.slack.calls.length;
  await h.press({ view: sectionId }, ADMIN_ACTION.checkout, {
    value: json({ id: plan!.id, n: plan!.productName ?? plan!.id }),
  });
  const checkoutId = await pushed(h, since);
  const view = await updated(h, checkoutId, (v) => json(v).includes('open the checkout'));
  return { plan: plan!, sectionId, checkoutId, view };
}

/** Opens a form from a section view; resolves with the form view's id once it is shown. */
function openAdminForm(h: Harness, sectionId: string, request: FormRequest, callbackId: string, as = ADMIN) {
  return h.openForm(
    () =>
      h.press({ view: sectionId }, formActionId(request.form), {
        value: toWire(FormRequest, request),
        user: as,
      }),
    callbackId,
  );
}

async function submit(h: Harness, viewId: string, values: [Field, ViewStateValue][], as = ADMIN) {
  const res = await h.submit(viewId, values, { user: as });
  expect(res.status).toBe(200);
  return res.body ? res.json() : {};
}

describe('Administering from Slack', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    h.slack.users.set(ADMIN, { id: ADMIN, name: 'boss', isAdmin: true, tz: 'America/New_York' });
    await h.connect(ADMIN, 'owner');
  });
  afterEach(() => h.close());

  it('refuses the modal to a workspace member, from /plan admin and from the Home button', async () => {
    await h.connect('U2', 'member');
    await h.command('admin', 'U2');
    const said = await h.slack.waitFor('respond');
    expect(json(said.body)).toContain('Only workspace admins can use `/plan admin`');

    await h.press({ home: {} }, ADMIN_ACTION.openModal, { user: 'U2' });
    await h.slack.waitFor('respond', (b) => json(b).includes('Only workspace admins can administer'));
    expect(h.slack.called('views.open')).toHaveLength(0);
  });

  /** The Home tab's "Manage links and digests" pressed by `as`. */
  const homeLinksButton = (as = ADMIN) => h.press({ home: {} }, ADMIN_ACTION.openModal, { user: as });

  it("opens the admin modal at its links section from the Home tab's button, this workspace's links only (issue 23 item 9)", async () => {
    await h.link('C1', ADMIN);
    await h.link('C2', ADMIN);
    // Another workspace's link, in the same store: never shown, never changed from here.
    await h.store.links.upsert({
      workspaceId: 'T0OTHER',
      slackChannelId: 'C9',
      teamId: h.fixture.teamId,
      channelId: h.fixture.channelId,
      createdBy: 'U9',
    });
    await homeLinksButton();
    const opened = await h.slack.waitFor('views.open');
    const sectionId = viewIdOf(opened);
    const shown = await updated(h, sectionId, (v) => v.callback_id === ADMIN_VIEW.section);
    expect(JSON.parse(shown.private_metadata!)).toMatchObject({ s: 'links', p: 1 });
    expect(json(shown)).toContain('Links and digests');
    expect(json(shown)).toContain('<#C1>');
    expect(json(shown)).toContain('<#C2>');
    expect(json(shown)).not.toContain('C9');
    // Each with its settings, the real next run and where it is linked.
    const c1 = (await h.store.links.get(TEAM, 'C1'))!;
    expect(json(shown)).toContain(`Next digest: *${formatLocal(nextRun(c1, new Date()), c1.timeZone)}*`);
    expect(json(shown)).toContain('Linked to *Core team');

    // The root view has an Open button for it like the other sections.
    const rootId = await openAdmin(h);
    const root = h.slack.views.get(rootId)!;
    expect(json(root)).toContain('Links and digests');
    const viaRoot = await openSection(h, rootId, 'links');
    expect(json(h.slack.views.get(viaRoot))).toContain('<#C2>');
  });

  it('Links and digests says when and where each channel’s last digest is, with a link to it (issue 36 item 3)', async () => {
    await h.link('C1', ADMIN);
    await h.link('C2', ADMIN);
    await h.command('digest now', ADMIN, 'C1');
    await h.slack.waitFor('respond', (b) => json(b).includes('Posted the digest'));
    const posted = (await h.store.links.get(TEAM, 'C1'))?.lastDigestNow;
    expect(posted).toBeDefined();

    const rootId = await openAdmin(h);
    const shown = json(h.slack.views.get(await openSection(h, rootId, 'links')));
    const seconds = Math.floor(posted!.postedAt.getTime() / 1000);
    const permalink = `/archives/C1/p${posted!.messageTs.replace('.', '')}|open it>`;
    expect(shown).toContain(`Last digest: <!date^${seconds}^{date_short_pretty} at {time}|`);
    expect(shown).toContain(`> in <#C1> (<`);
    expect(shown).toContain(permalink);
    // C2 has had none.
    expect(shown.match(/Last digest:/g)).toHaveLength(1);
    expect(shown).toContain('No digest posted yet.');
  });

  it('changes a linked channel’s digest — off and on, weekends, time and zone — and unlinks it, checked in the store (issue 23 item 9)', async () => {
    await h.link('C1', ADMIN);
    await h.store.links.upsert({
      workspaceId: 'T0OTHER',
      slackChannelId: 'C9',
      teamId: h.fixture.teamId,
      channelId: h.fixture.channelId,
      createdBy: 'U9',
    });
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'links');
    const C1 = json({ id: 'C1' });

    await h.press({ view: sectionId }, ADMIN_ACTION.digestOff, { value: C1 });
    await updated(h, sectionId, (v) => json(v).includes('Digest turned off.'));
    expect(await h.store.links.get(TEAM, 'C1')).toMatchObject({ digestEnabled: false });
    expect(json(h.slack.views.get(sectionId))).toContain(ADMIN_ACTION.digestOn);

    await h.press({ view: sectionId }, ADMIN_ACTION.weekendsOn, { value: C1 });
    await updated(h, sectionId, (v) => json(v).includes('Weekends included.'));
    expect(await h.store.links.get(TEAM, 'C1')).toMatchObject({ weekdaysOnly: false });

    await h.press({ view: sectionId }, ADMIN_ACTION.digestOn, { value: C1 });
    await updated(h, sectionId, (v) => json(v).includes('Digest turned on.'));
    expect(await h.store.links.get(TEAM, 'C1')).toMatchObject({ digestEnabled: true, weekdaysOnly: false });

    // Time and zone: a form, refused on its field without a time, then saved as /plan digest saves it.
    const formId = await openAdminForm(h, sectionId, { form: 'digestTime', id: 'C1' }, ADMIN_VIEW.digestTime);
    const form = json(h.slack.views.get(formId));
    expect(form).toContain('"initial_time":"09:00"');
    const bad = await submit(h, formId, [[LINK_FIELD.timeZone, choice('Europe/Paris')]]);
    expect(bad).toMatchObject({
      response_action: 'errors',
      errors: { [LINK_FIELD.digestTime.block]: 'Choose a time.' },
    });
    await submit(h, formId, [
      [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '07:45' } as ViewStateValue],
      [LINK_FIELD.timeZone, choice('Europe/Paris')],
    ]);
    const after = await updated(h, sectionId, (v) =>
      json(v).includes('Digest time set to 07:45 (Europe/Paris).'),
    );
    const c1 = (await h.store.links.get(TEAM, 'C1'))!;
    expect(c1).toMatchObject({ digestTime: '07:45', timeZone: 'Europe/Paris', digestEnabled: true });
    expect(json(after)).toContain(`Next digest: *${formatLocal(nextRun(c1, new Date()), 'Europe/Paris')}*`);

    // Another workspace's channel, in a crafted button: not this workspace's link, left alone.
    await h.press({ view: sectionId }, ADMIN_ACTION.unlink, { value: json({ id: 'C9' }) });
    await updated(h, sectionId, (v) => json(v).includes('is not linked any more'));
    expect(await h.store.links.get('T0OTHER', 'C9')).toBeDefined();

    await h.press({ view: sectionId }, ADMIN_ACTION.unlink, { value: C1 });
    await updated(h, sectionId, (v) => json(v).includes('no digest is posted there'));
    expect(await h.store.links.get(TEAM, 'C1')).toBeUndefined();
    expect(json(h.slack.views.get(sectionId))).toContain('No channel is linked yet');
  });

  it('refuses the links section, its buttons and its form to a workspace member, changing nothing (issue 23 item 9)', async () => {
    await h.link('C1', ADMIN);
    h.slack.users.set('U2', { id: 'U2', name: 'member' });
    await h.connect('U2', 'member');
    const before = await h.store.links.get(TEAM, 'C1');

    await homeLinksButton('U2');
    await h.slack.waitFor('respond', (b) => json(b).includes(REFUSED));
    expect(h.slack.called('views.open')).toHaveLength(0);

    // The admin's section view, its buttons and form sent by the member (a crafted request).
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'links');
    await h.press({ view: sectionId }, ADMIN_ACTION.digestOff, { value: json({ id: 'C1' }), user: 'U2' });
    await h.press({ view: sectionId }, ADMIN_ACTION.unlink, { value: json({ id: 'C1' }), user: 'U2' });
    const formId = await openAdminForm(h, sectionId, { form: 'digestTime', id: 'C1' }, ADMIN_VIEW.digestTime);
    const refused = await submit(
      h,
      formId,
      [
        [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '06:00' } as ViewStateValue],
        [LINK_FIELD.timeZone, choice('Europe/Paris')],
      ],
      'U2',
    );
    expect(refused).toMatchObject({ response_action: 'update' });
    await h.slack.waitFor('views.update', (b) => b.view_id === formId && json(b.view).includes(REFUSED));
    await eventually(
      () => h.slack.called('respond').filter((c) => json(c.body).includes(REFUSED)).length >= 3,
      'the home button and both presses refused',
    );
    expect(await h.store.links.get(TEAM, 'C1')).toEqual(before);
  });

  it('creates, shares (channel and person), edits and revokes an invitation — the revoke once', async () => {
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'invitations');
    expect(json(h.slack.views.get(sectionId))).toContain('No invitation on this page');

    // Create: bad input first, answered on its fields without any call.
    const formId = await openAdminForm(h, sectionId, { form: 'invite' }, ADMIN_VIEW.invitation);
    const bad = await submit(h, formId, [
      [ADMIN_FIELD.inviteTeam, choice(h.fixture.teamId, 'Core team')],
      [ADMIN_FIELD.inviteName, text('ab')],
      [ADMIN_FIELD.inviteRole, choice('member')],
      [ADMIN_FIELD.inviteDays, number('31')],
      [ADMIN_FIELD.inviteUses, number('0')],
    ]);
    expect(bad).toMatchObject({ response_action: 'errors' });
    expect(Object.values(bad.errors as Record<string, string>).join(' ')).toMatch(/At least 3 characters/);
    expect((bad.errors as Record<string, string>)[ADMIN_FIELD.inviteDays.block]).toMatch(/At most 30 days/);
    expect((await h.owner().invitations.list()).invitations).toHaveLength(0);

    await submit(h, formId, [
      [ADMIN_FIELD.inviteTeam, choice(h.fixture.teamId, 'Core team')],
      [ADMIN_FIELD.inviteName, text('Spring interns')],
      [ADMIN_FIELD.inviteRole, choice('member')],
      [ADMIN_FIELD.inviteDays, number('7')],
      [ADMIN_FIELD.inviteUses, number('0')],
    ]);
    await updated(h, formId, (v) => json(v).includes('is created'));
    const [created] = (await h.owner().invitations.list()).invitations;
    expect(created).toMatchObject({
      inviteName: 'Spring interns',
      teamId: h.fixture.teamId,
      inviteUsesMax: 0,
    });
    // The section it came from shows it, with uses and views.
    const list = await updated(h, sectionId, (v) => json(v).includes('Spring interns'));
    expect(json(list)).toContain('0 uses (no limit)');
    expect(json(list)).toContain('0 views');

    // Share in a channel: the service's own invitation page, the expiry in each reader's zone.
    const shareId = await openAdminForm(
      h,
      sectionId,
      { form: 'share', id: created!.id, name: 'Spring interns' },
      ADMIN_VIEW.share,
    );
    await submit(h, shareId, [[ADMIN_FIELD.shareChannel, conversation('C7')]]);
    const post = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'C7');
    const url = `${h.sandbox.url}/invitations/${created!.id}`;
    expect(json(post.body.blocks)).toContain(url);
    expect(json(post.body.blocks)).toMatch(/<!date\^\d+\^/);
    expect(json(post.body.blocks)).toContain('Core team');
    // Sharing read nothing through the invitation itself: no view was counted.
    expect((await h.owner().invitations.list()).invitations[0]!.inviteViews).toBe(0);

    // Share with a person: a DM.
    h.slack.users.set('U5', { id: 'U5', name: 'newcomer' });
    const dmShareId = await openAdminForm(
      h,
      sectionId,
      { form: 'share', id: created!.id, name: 'Spring interns' },
      ADMIN_VIEW.share,
    );
    const neither = await submit(h, dmShareId, []);
    expect(neither).toMatchObject({ response_action: 'errors' });
    await submit(h, dmShareId, [[ADMIN_FIELD.sharePerson, user('U5')]]);
    await h.slack.waitFor('conversations.open', (b) => b.users === 'U5');
    const dm = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DU5');
    expect(json(dm.body.blocks)).toContain(url);

    // Edit: a new name and a use limit.
    const editId = await openAdminForm(
      h,
      sectionId,
      { form: 'editInvite', id: created!.id, name: 'Spring interns' },
      ADMIN_VIEW.invitation,
    );
    expect(json(h.slack.views.get(editId))).toContain('Spring interns');
    await submit(h, editId, [
      [ADMIN_FIELD.inviteTeam, choice(h.fixture.teamId, 'Core team')],
      [ADMIN_FIELD.inviteName, text('Summer interns')],
      [ADMIN_FIELD.inviteRole, choice('admin')],
      [ADMIN_FIELD.inviteUses, number('5')],
    ]);
    await updated(h, editId, (v) => json(v).includes('is saved'));
    const [edited] = (await h.owner().invitations.list()).invitations;
    expect(edited).toMatchObject({ inviteName: 'Summer interns', inviteOrgRole: 'admin', inviteUsesMax: 5 });
    expect(edited!.expiresAt).toBe(created!.expiresAt);

    // Revoke, sent three times (Slack's retry, a double click: same view, same hash): applied once.
    const value = json({ id: created!.id, n: 'Summer interns' });
    const shown = String(h.slack.views.get(sectionId)?.hash);
    const revokedAnswers = () =>
      h.slack
        .called('views.update')
        .filter((c) => c.body.view_id === sectionId && json(c.body.view).includes('is revoked')).length;
    await h.press({ view: sectionId, hash: shown }, ADMIN_ACTION.revokeInvitation, { value });
    await h.press({ view: sectionId, hash: shown }, ADMIN_ACTION.revokeInvitation, { value });
    await eventually(() => revokedAnswers() >= 1, 'the revoke answered');
    // Once done, a late copy shows the same outcome instead of acting (or saying it is gone).
    await h.press({ view: sectionId, hash: shown }, ADMIN_ACTION.revokeInvitation, { value });
    await eventually(() => revokedAnswers() >= 2, 'the late copy answered');
    expect((await h.owner().invitations.list()).invitations).toHaveLength(0);
    const answers = h.slack.called('views.update').filter((c) => c.body.view_id === sectionId);
    expect(answers.some((c) => json(c.body.view).includes('no longer exists'))).toBe(false);
    expect(h.sandbox.requests.count('invitationDelete')).toBe(1);
  });

  it('shares an invitation after a required "where" — nothing marked optional — and refuses a share to nobody on its field (issue 23 item 6)', async () => {
    const invitation = await h.owner().invitations.create({
      teamId: h.fixture.teamId,
      inviteName: 'Autumn',
      inviteOrgRole: 'member',
      inviteUsesMax: 1,
      inviteExpireDays: 3,
    });
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'invitations');
    const request = { form: 'share', id: invitation.id, name: 'Autumn' } as const;
    const shareId = await openAdminForm(h, sectionId, request, ADMIN_VIEW.share);
    type Input = { type: string; block_id?: string; optional?: boolean; dispatch_action?: boolean };
    const inputsOf = (view: unknown) =>
      ((view as { blocks: Input[] }).blocks ?? []).filter((b) => b.type === 'input');
    const opened = inputsOf(h.slack.views.get(shareId));
    expect(opened.map((b) => b.block_id)).toEqual([
      ADMIN_FIELD.shareTo.block,
      ADMIN_FIELD.shareChannel.block,
    ]);
    expect(opened.some((b) => b.optional)).toBe(false);
    expect(opened[0]?.dispatch_action).toBe(true);

    const radio = (to: string) =>
      ({
        type: 'radio_buttons',
        selected_option: { value: to, text: { type: 'plain_text', text: to } },
      }) as ViewStateValue;
    const posts = h.slack.called('chat.postMessage').length;
    const noChannel = await submit(h, shareId, [[ADMIN_FIELD.shareTo, radio('channel')]]);
    expect(noChannel).toMatchObject({
      response_action: 'errors',
      errors: { [ADMIN_FIELD.shareChannel.block]: 'Choose a channel.' },
    });

    // "With one person": the form asks for the person instead, required.
    await h.choose({ view: shareId }, ADMIN_FIELD.shareTo, radio('person'));
    const redrawn = await updated(h, shareId, (v) => json(v).includes(ADMIN_FIELD.sharePerson.action));
    const inputs = inputsOf(redrawn);
    expect(inputs.map((b) => b.block_id)).toEqual([ADMIN_FIELD.shareTo.block, ADMIN_FIELD.sharePerson.block]);
    expect(inputs.some((b) => b.optional)).toBe(false);
    const noPerson = await submit(h, shareId, [[ADMIN_FIELD.shareTo, radio('person')]]);
    expect(noPerson).toMatchObject({
      response_action: 'errors',
      errors: { [ADMIN_FIELD.sharePerson.block]: 'Choose a person.' },
    });
    // Nothing was sent anywhere.
    expect(h.slack.called('chat.postMessage')).toHaveLength(posts);
    expect(h.slack.called('conversations.open')).toHaveLength(0);
  });

  it('regenerates an account (the person keeps working) and closes one, each confirmed', async () => {
    h.slack.users.set('U3', { id: 'U3', name: 'member' });
    await h.connect('U3', 'member');
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'people');
    const people = json(h.slack.views.get(sectionId));
    // Each account with the Slack user it belongs to; never a token.
    expect(people).toContain('<@U3>');
    expect(people).not.toContain(h.sandbox.memberToken);
    expect(people).toContain('Regenerate the token?');
    // Its red button is not mistaken for the modal's own Close (issue 23 item 6).
    expect(people).toContain('"text":"Close account"');
    expect(people).not.toMatch(/"text":"Close","emoji":true\},"action_id":"[^"]*close/);

    const value = json({ id: h.sandbox.memberId, n: 'member' });
    await h.press({ view: sectionId }, ADMIN_ACTION.regenerate, { value });
    const after = await updated(h, sectionId, (v) => json(v).includes('has a new token'));
    expect(json(after)).toContain('stored for <@U3>');
    const stored = await h.store.identities.get(TEAM, 'U3');
    expect(stored!.token).not.toBe(h.sandbox.memberToken);
    expect(json(after)).not.toContain(stored!.token);
    // The old token stopped working; the person's next command works with the stored one.
    await expect(createClient(h.sandbox.url, h.sandbox.memberToken).account.read()).rejects.toThrow();
    await h.command('whoami', 'U3');
    const whoami = await h.slack.waitFor('respond', (b) => json(b).includes('You act as'));
    expect(json(whoami.body)).toContain('Connection: OK');

    await h.press({ view: sectionId }, ADMIN_ACTION.closeAccount, { value });
    await updated(h, sectionId, (v) => json(v).includes('is closed'));
    const closed = await h.owner().serviceAccounts.read(h.sandbox.memberId);
    expect(closed.closedTime).toBeGreaterThan(0);
    expect(h.sandbox.requests.count('serviceAccountClose')).toBe(1);
    // The person is told to reconnect rather than acting with a closed account.
    await h.command('whoami', 'U3');
    await h.slack.waitFor('respond', (b) => json(b).includes('Reconnect'));
  });

  it('keeps a provisioned account closed until an admin re-opens it', async () => {
    await h.close();
    h = await Harness.start({ provisioning: true });
    h.slack.users.set(ADMIN, { id: ADMIN, name: 'boss', isAdmin: true });
    await h.connect(ADMIN, 'owner');
    h.slack.users.set('U6', { id: 'U6', name: 'newbie' });
    await h.command('whoami', 'U6');
    await h.slack.waitFor('respond', (b) => json(b).includes('You act as'));
    const provisioned = (await h.store.identities.get(TEAM, 'U6'))!;
    expect(provisioned.origin).toBe('provisioned');

    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'people');
    expect(json(h.slack.views.get(sectionId))).toContain('<@U6>');
    const value = json({ id: provisioned.serviceAccountId, n: 'newbie' });
    await h.press({ view: sectionId }, ADMIN_ACTION.closeAccount, { value });
    await updated(h, sectionId, (v) => json(v).includes('<@U6> can no longer act'));

    // Not renewed (which would re-open it) behind the admin's back.
    const regenerations = h.sandbox.requests.count('serviceAccountRegenerate');
    await h.command('whoami', 'U6');
    await h.slack.waitFor('respond', (b) => json(b).includes('Reconnect'));
    expect(h.sandbox.requests.count('serviceAccountRegenerate')).toBe(regenerations);
    expect((await h.owner().serviceAccounts.read(provisioned.serviceAccountId)).closedTime).toBeGreaterThan(
      0,
    );

    // Re-opened by the admin: the person works again, without pasting anything.
    await h.press({ view: sectionId }, ADMIN_ACTION.regenerate, { value });
    await updated(h, sectionId, (v) => json(v).includes('stored for <@U6>'));
    const before = h.slack.called('respond').length;
    await h.command('whoami', 'U6');
    await eventually(
      () =>
        h.slack
          .called('respond')
          .slice(before)
          .some((c) => json(c.body).includes('You act as')),
      'whoami after the re-open',
    );
  });

  it('creates a team, a channel in it and adds a member picked in Slack', async () => {
    h.slack.users.set('U3', { id: 'U3', name: 'member' });
    await h.connect('U3', 'member');
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'teams');
    const newTeam = await openAdminForm(h, sectionId, { form: 'newTeam' }, ADMIN_VIEW.name);
    await submit(h, newTeam, [[ADMIN_FIELD.name, text('Platform')]]);
    await updated(h, newTeam, (v) => json(v).includes('is created'));
    const team = (await h.owner().teams.listAll()).teams.find((t) => t.teamName === 'Platform');
    expect(team).toBeDefined();
    await updated(h, sectionId, (v) => json(v).includes('Platform'));

    await h.press({ view: sectionId }, ADMIN_ACTION.open, { value: json({ s: 'team', p: 1, t: team!.id }) });
    const teamShown = await updated(h, sectionId, (v) => json(v).includes('(default)'));
    // The default channel is not offered for deletion, and says why; another channel is.
    const defaultId = (await h.owner().teams.read(team!.id)).channels.find((c) => c.isDefault)!.id;
    expect(deletableChannels(teamShown)).not.toContain(defaultId);
    expect(json(teamShown)).toContain('default channel cannot be deleted');
    const newChannel = await openAdminForm(
      h,
      sectionId,
      { form: 'newChannel', teamId: team!.id, name: 'Platform' },
      ADMIN_VIEW.name,
    );
    await submit(h, newChannel, [
      [ADMIN_FIELD.name, text('Infra')],
      [ADMIN_FIELD.description, text('Servers & <things>')],
    ]);
    await updated(h, newChannel, (v) => json(v).includes('is created'));
    const read = await h.owner().teams.read(team!.id);
    expect(read.channels.map((c) => c.channelName)).toContain('Infra');
    const infra = read.channels.find((c) => c.channelName === 'Infra')!;
    const withInfra = await updated(h, sectionId, (v) => json(v).includes('Infra'));
    expect(deletableChannels(withInfra)).toEqual([infra.id]);

    const add = await openAdminForm(
      h,
      sectionId,
      { form: 'teamAdd', teamId: team!.id, name: 'Platform' },
      ADMIN_VIEW.person,
    );
    await submit(h, add, [[ADMIN_FIELD.person, user('U3')]]);
    await updated(h, add, (v) => json(v).includes('joined the team'));
    const teams = await h.owner().teams.listUser(h.sandbox.memberId);
    expect(teams.teams.map((t) => t.id)).toContain(team!.id);

    // The default channel cannot go: the refusal says the rule.
    const general = read.channels.find((c) => c.isDefault)!;
    await h.press({ view: sectionId }, ADMIN_ACTION.deleteChannel, {
      value: json({ id: general.id, t: team!.id, n: 'General' }),
    });
    await updated(h, sectionId, (v) => json(v).includes('default channel cannot be deleted'));
  });

  it('deletes a notion, confirmed', async () => {
    const notion = await h.owner().notions.create({ value: 'TypeScript' });
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'notions');
    const shown = json(h.slack.views.get(sectionId));
    expect(shown).toContain('TypeScript');
    expect(shown).toContain('Delete the notion?');
    await h.press({ view: sectionId }, ADMIN_ACTION.deleteNotion, {
      value: json({ id: notion.id, n: 'TypeScript' }),
    });
    await updated(h, sectionId, (v) => json(v).includes('and its experiences are deleted'));
    await expect(h.owner().notions.read(notion.id)).rejects.toThrow();
  });

  it("gives a checkout link with its expiry in the admin's own time zone", async () => {
    const { plan, sectionId, view } = await openCheckout(h);
    expect(json(h.slack.views.get(sectionId))).toContain('no subscription');
    // Prices say their currency (issue 23 item 6).
    expect(json(h.slack.views.get(sectionId))).toMatch(/\$\d+\.\d\d USD per (month|year)/);
    const expires = /expires on \*([^*]+)\*/.exec(json(view))?.[1];
    expect(expires).toMatch(/\(America\/New_York\)$/);
    const checkout = await h.owner().billing.planCheckout(plan.id, {});
    // The same rule applied to a link prepared now: 23 hours, shown in New York time.
    expect(new Date(checkout.expiresAt!).getTime() - Date.now()).toBeGreaterThan(22 * 3600_000);
    expect(expires).toMatch(/^\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} /);
    expect(formatLocal(new Date(checkout.expiresAt!), 'America/New_York').slice(-18)).toBe(
      expires!.slice(-18),
    );
  });

  it('shows Billing again as the service has it once the admin pays and presses Done (issue 36 item 5)', async () => {
    const { sectionId, checkoutId, view } = await openCheckout(h);
    expect(json(h.slack.views.get(sectionId))).toContain('no subscription');
    // Paying happens outside Slack: the checkout link, opened, starts the subscription.
    const url = /<(https?:[^|>]+)\|open the checkout>/.exec(json(view))?.[1];
    expect(url).toBeDefined();
    expect((await fetch(url!)).ok).toBe(true);
    expect((await h.owner().billing.subscriptionRead())?.status).toBe('active');

    const res = await h.submit(checkoutId, []);
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const billing = json(await updated(h, sectionId, (v) => json(v).includes('Subscribed to')));
    expect(billing).not.toContain('no subscription');
    expect(billing).toContain('_current plan_');
    expect(billing).not.toContain(ADMIN_ACTION.checkout);
  });

  it('shows Billing again as the service has it when the admin goes Back from the checkout (issue 36 item 5)', async () => {
    const { sectionId, checkoutId, view } = await openCheckout(h);
    expect(h.slack.views.get(checkoutId)?.notify_on_close).toBe(true);
    const url = /<(https?:[^|>]+)\|open the checkout>/.exec(json(view))?.[1];
    expect((await fetch(url!)).ok).toBe(true);

    // Back: Slack shows Billing again as it was, and tells the app, which draws it as it is now.
    const res = await h.interact({
      type: 'view_closed',
      view: { ...submitted(checkoutId, h.slack.views.get(checkoutId)!, []), previous_view_id: sectionId },
      is_cleared: false,
    });
    expect(res.status).toBe(200);
    const billing = json(await updated(h, sectionId, (v) => json(v).includes('Subscribed to')));
    expect(billing).not.toContain('no subscription');
  });

  it('Back from a checkout whose carried place is not Billing changes nothing', async () => {
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'notions');
    const shown = h.slack.views.get(sectionId)!;
    const before = h.slack.calls.length;
    for (const metadata of ['not json', shown.private_metadata]) {
      const res = await h.interact({
        type: 'view_closed',
        view: {
          ...submitted(
            sectionId,
            { ...shown, callback_id: ADMIN_VIEW.checkout, private_metadata: metadata },
            [],
          ),
          previous_view_id: rootId,
        },
        is_cleared: false,
      });
      expect(res.status).toBe(200);
    }
    await h.pressesSettled();
    expect(h.slack.calls.slice(before).filter((c) => c.method === 'views.update')).toEqual([]);
  });

  it('Done on a checkout whose carried place is not Billing only closes it', async () => {
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'notions');
    const shown = h.slack.views.get(sectionId)!;
    for (const metadata of ['not json', shown.private_metadata]) {
      const res = await h.interact({
        type: 'view_submission',
        view: {
          ...submitted(
            sectionId,
            { ...shown, callback_id: ADMIN_VIEW.checkout, private_metadata: metadata },
            [],
          ),
          previous_view_id: rootId,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toBe('');
    }
  });

  it('says in one sentence when the admin’s member-role account is refused by the service', async () => {
    h.slack.users.set('U4', { id: 'U4', name: 'slack-admin', isAdmin: true });
    await h.connect('U4', 'member');
    const rootId = await openAdmin(h, 'U4');
    const sectionId = await openSection(h, rootId, 'notions', 'U4');
    const formId = await openAdminForm(h, sectionId, { form: 'newNotion' }, ADMIN_VIEW.name, 'U4');
    const before = h.slack.called('views.push').length;
    expect(before).toBeGreaterThan(0);
    await submit(h, formId, [[ADMIN_FIELD.name, text('Rust')]], 'U4');
    const back = await updated(h, formId, (v) => json(v).includes('refused'));
    expect(json(back)).toContain(
      'The planning service refused: Only an organization owner or admin can create notions. Nothing was changed.',
    );
    // The form comes back with what was typed.
    expect(json(back)).toContain('Rust');
    expect((await h.owner().notions.search({ searchTerm: 'Rust' })).notions).toHaveLength(0);
  });

  it("pages a long list with the service's paging, and searches notions", async () => {
    const owner = h.owner();
    for (let i = 1; i <= 23; i++)
      await owner.notions.create({ value: `Skill ${String(i).padStart(2, '0')}` });
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'notions');
    const first = json(h.slack.views.get(sectionId));
    expect(first).toContain('Page 1 of 2 · 23 notions');
    const next = /"action_id":"admin_page_next","value":"((?:[^"\\]|\\.)*)"/.exec(first)?.[1];
    expect(next).toBeDefined();
    await h.press({ view: sectionId }, ADMIN_ACTION.pageNext, { value: JSON.parse(`"${next}"`) as string });
    const second = await updated(h, sectionId, (v) => json(v).includes('Page 2 of 2'));
    expect((json(second).match(/"\*Skill \d\d\*"/g) ?? []).length).toBe(3);

    // The Search button: page 1 of what matches.
    const res = await h.submit(sectionId, [[ADMIN_FIELD.search, text('Skill 1')]]);
    expect(res.json()).toMatchObject({ response_action: 'update' });
    const found = await updated(h, sectionId, (v) => json(v).includes('Page 1 of 1 · 10 notions'));
    expect(json(found)).toContain('Skill 10');
    expect(json(found)).not.toContain('Skill 09');
  });

  it('links a Slack channel from the admin modal through the link form', async () => {
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'teams');
    const pickId = await openAdminForm(h, sectionId, { form: 'link' }, ADMIN_VIEW.linkPick);
    await submit(h, pickId, [[ADMIN_FIELD.slackChannel, conversation('C42')]]);
    const form = await updated(h, pickId, (v) => v.callback_id === LINK_VIEW.link);
    expect(json(form)).toContain('<#C42>');
    await submit(h, pickId, [
      [FIELD.team, choice(h.fixture.teamId, 'Core team')],
      [FIELD.channel, choice(h.fixture.channelId, 'General')],
      [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '09:00' } as ViewStateValue],
      [LINK_FIELD.timeZone, choice('America/New_York')],
    ]);
    await eventually(async () => Boolean(await h.store.links.get(TEAM, 'C42')), 'the link saved');
    expect(await h.store.links.get(TEAM, 'C42')).toMatchObject({
      teamId: h.fixture.teamId,
      channelId: h.fixture.channelId,
    });
  });

  it("shows a channel's members and prospects, adds and removes one, and a person's teams", async () => {
    h.slack.users.set('U3', { id: 'U3', name: 'member' });
    await h.connect('U3', 'member');
    const { teamId, channelId } = h.fixture;
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'teams');
    await h.press({ view: sectionId }, ADMIN_ACTION.open, {
      value: json({ s: 'channel', p: 1, t: teamId, c: channelId }),
    });
    const channel = await updated(h, sectionId, (v) => json(v).includes('*Prospects*'));
    expect(json(channel)).toContain('<@U3>');

    const member = json({ id: h.sandbox.memberId, t: teamId, c: channelId, n: 'member' });
    await h.press({ view: sectionId }, ADMIN_ACTION.addProspect, { value: member });
    await updated(h, sectionId, (v) => json(v).includes('joined the channel'));
    let members = (await h.owner().channels.listMembers(teamId, channelId)).members.map((m) => m.id);
    expect(members).toContain(h.sandbox.memberId);

    const teamsOf = await openAdminForm(h, sectionId, { form: 'personTeams' }, ADMIN_VIEW.person);
    await submit(h, teamsOf, [[ADMIN_FIELD.person, user('U3')]]);
    const shown = await updated(h, teamsOf, (v) => json(v).includes('is in'));
    expect(json(shown)).toContain('Core team');

    await h.press({ view: sectionId }, ADMIN_ACTION.removeChannelMember, { value: member });
    await updated(h, sectionId, (v) => json(v).includes('left the channel'));
    members = (await h.owner().channels.listMembers(teamId, channelId)).members.map((m) => m.id);
    expect(members).not.toContain(h.sandbox.memberId);
  });

  it('changes and cancels a subscription, confirmed, and lists invoices with their links', async () => {
    const plans = (await h.owner().billing.planList()).pricePlans.filter((p) => p.isEnabled !== false);
    h.sandbox.subscribe(h.sandbox.orgId, plans[0]!.id);
    const rootId = await openAdmin(h);
    const sectionId = await openSection(h, rootId, 'billing');
    const billing = json(h.slack.views.get(sectionId));
    expect(billing).toContain('Subscribed to');
    expect(billing).toContain('renews <!date^');
    expect(billing).toContain('Change the plan?');
    expect(billing).not.toContain(ADMIN_ACTION.checkout);
    expect(billing).toMatch(/<https?:[^|]+\|[^>]*paid>/);

    await h.press({ view: sectionId }, ADMIN_ACTION.changePlan, {
      value: json({ id: plans[1]!.id, n: 'Next plan' }),
    });
    await updated(h, sectionId, (v) => json(v).includes('The subscription is now on'));
    expect((await h.owner().billing.subscriptionRead())?.pricePlan?.id).toBe(plans[1]!.id);

    await h.press({ view: sectionId }, ADMIN_ACTION.cancelSubscription, {
      value: json({ id: plans[1]!.id }),
    });
    const cancelled = await updated(h, sectionId, (v) => json(v).includes('The subscription is cancelled'));
    expect(json(cancelled)).toContain('was cancelled; it ends');
    expect((await h.owner().billing.subscriptionRead())?.status).toBe('cancelled');
  });
});
