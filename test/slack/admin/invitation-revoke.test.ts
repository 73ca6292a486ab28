/**
 * Revoking an invitation updates the messages that shared it (issue 36 item 10): a share in a
 * channel is remembered as the invitation's card, and Revoke — pressed in the admin modal over
 * signed HTTP, applied once — turns that message into one line saying the link no longer works.
 * On SQLite and PostgreSQL.
 */
import type { ViewStateValue } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FormRequest, formActionId } from '../../../src/slack/admin/common.js';
import { ADMIN_ACTION, ADMIN_FIELD, ADMIN_VIEW } from '../../../src/slack/admin/ids.js';
import { toWire } from '../../../src/slack/kit/round-trip.js';
import { describeWithPostgres, type PgSchema, withPgSchema } from '../../helpers/postgres.js';
import { eventually, Harness, type HarnessOptions, TEAM } from '../../helpers/slack-harness.js';

const ADMIN = 'U1';
const json = (value: unknown) => JSON.stringify(value);
const conversation = (id: string): ViewStateValue =>
  ({ type: 'conversations_select', selected_conversation: id }) as ViewStateValue;

/** The admin modal's invitations section, opened by the admin; resolves with its view id. */
async function invitationsSection(h: Harness): Promise<string> {
  const sectionId = await h.adminSection('invitations', ADMIN);
  await h.slack.waitFor(
    'views.update',
    (b) => b.view_id === sectionId && json(b.view).includes('Invitation links let people join'),
  );
  return sectionId;
}

function revokeFollows(options: () => HarnessOptions) {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start(options());
    h.slack.users.set(ADMIN, { id: ADMIN, name: 'boss', isAdmin: true, tz: 'America/New_York' });
    await h.connect(ADMIN, 'owner');
  });
  afterEach(() => h.close());

  it('a channel message that shared the invitation says it was revoked, once, and is forgotten', async () => {
    const invitation = await h.owner().invitations.create({
      teamId: h.fixture.teamId,
      inviteName: 'Spring interns',
    });
    const sectionId = await invitationsSection(h);
    const request: FormRequest = { form: 'share', id: invitation.id, name: 'Spring interns' };
    const shareId = await h.openForm(
      () =>
        h.press({ view: sectionId }, formActionId(request.form), {
          value: toWire(FormRequest, request),
          user: ADMIN,
        }),
      ADMIN_VIEW.share,
    );
    expect(
      (await h.submit(shareId, [[ADMIN_FIELD.shareChannel, conversation('C7')]], { user: ADMIN })).status,
    ).toBe(200);
    const post = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'C7');
    await eventually(() => post.answer !== undefined, 'the share posted');
    const shared = String(post.answer?.ts);
    expect(json(post.body.blocks)).toContain(`/invitations/${invitation.id}`);
    // Remembered once the share is done (its form says so).
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === shareId && json(b.view).includes('was shared in'),
    );
    expect(await h.store.cards.list(TEAM, 'invitation', invitation.id)).toMatchObject([
      { slackChannelId: 'C7', messageTs: shared },
    ]);

    // Revoke, pressed twice with the same view and hash (a double click): applied once.
    const value = json({ id: invitation.id, n: 'Spring interns' });
    const hash = String(h.slack.views.get(sectionId)?.hash);
    await h.press({ view: sectionId, hash }, ADMIN_ACTION.revokeInvitation, { value, user: ADMIN });
    await h.press({ view: sectionId, hash }, ADMIN_ACTION.revokeInvitation, { value, user: ADMIN });
    const update = await h.slack.waitFor('chat.update', (b) => b.channel === 'C7' && b.ts === shared);
    expect(json(update.body)).toContain('This invitation was revoked: its link no longer works.');
    expect(json(update.body)).not.toContain(`/invitations/${invitation.id}`);
    await eventually(
      () =>
        h.slack
          .called('views.update')
          .some((c) => c.body.view_id === sectionId && json(c.body.view).includes('is revoked')),
      'the revoke answered',
    );
    expect(h.sandbox.requests.count('invitationDelete')).toBe(1);
    expect(h.slack.called('chat.update').filter((c) => c.body.ts === shared)).toHaveLength(1);
    expect(await h.store.cards.list(TEAM, 'invitation', invitation.id)).toEqual([]);
    // The message in the channel now reads as revoked.
    expect(h.slack.workspace.find('C7', shared)?.text).toContain('This invitation was revoked');
  });

  it('a message Slack no longer has does not keep the revoke from working', async () => {
    const invitation = await h
      .owner()
      .invitations.create({ teamId: h.fixture.teamId, inviteName: 'Gone msg' });
    await h.store.cards.record({
      workspaceId: TEAM,
      kind: 'invitation',
      entityId: invitation.id,
      slackChannelId: 'C7',
      messageTs: '1.000001',
    });
    const sectionId = await invitationsSection(h);
    const value = json({ id: invitation.id, n: 'Gone msg' });
    await h.press({ view: sectionId }, ADMIN_ACTION.revokeInvitation, { value, user: ADMIN });
    await eventually(
      () =>
        h.slack
          .called('views.update')
          .some((c) => c.body.view_id === sectionId && json(c.body.view).includes('is revoked')),
      'the revoke answered',
    );
    expect((await h.owner().invitations.list()).invitations.map((i) => i.id)).not.toContain(invitation.id);
    expect(await h.store.cards.list(TEAM, 'invitation', invitation.id)).toEqual([]);
  });
}

describe('revoking a shared invitation [sqlite]', () => {
  revokeFollows(() => ({}));
});

describeWithPostgres('revoking a shared invitation [postgres]', () => {
  let pg: PgSchema | undefined;
  beforeAll(async () => {
    pg = await withPgSchema('invitation_revoke');
  });
  afterAll(() => pg?.drop());
  revokeFollows(() => ({ postgres: pg! }));
});
