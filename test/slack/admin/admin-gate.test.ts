/**
 * The admin forms are for workspace admins, at the moment they are submitted: a plain member who
 * sends an admin form's callback id (a crafted view_submission), and an admin demoted while the
 * form was open, change nothing in the service, send nothing to anyone, and are told why in the
 * modal — the router's gate, not each form, refuses them. The refused person here even holds the
 * organization owner's planning account, so the service itself would have allowed every change.
 */
import type { ViewStateValue } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_FIELD } from '../../../src/slack/admin/ids.js';
import { invitationForm } from '../../../src/slack/admin/invitation-form.js';
import { linkPickForm } from '../../../src/slack/admin/link-pick-form.js';
import { nameForm } from '../../../src/slack/admin/name-form.js';
import { personForm } from '../../../src/slack/admin/person-form.js';
import { shareForm } from '../../../src/slack/admin/share-form.js';
import type { Field } from '../../../src/slack/kit/ids.js';
import { choice, Harness, text, user } from '../../helpers/slack-harness.js';

const REFUSED = 'Only workspace admins can administer the organization from Slack.';
const json = (value: unknown) => JSON.stringify(value);
const number = (value: string): ViewStateValue => ({ type: 'number_input', value });
const conversation = (id: string): ViewStateValue =>
  ({ type: 'conversations_select', selected_conversation: id }) as ViewStateValue;

interface AdminForm {
  name: string;
  /** The form as the admin modal pushes it, and what is typed into it. */
  view(h: Harness): Promise<{ view: ModalView; values: [Field, ViewStateValue][] }>;
  /** The service's operations the form would call. */
  operations: string[];
}

const FORMS: AdminForm[] = [
  {
    name: 'a new invitation',
    view: async (h) => ({
      view: invitationForm({
        meta: { form: 'invite' },
        teams: [{ id: h.fixture.teamId, teamName: 'Core team' }],
      }),
      values: [
        [ADMIN_FIELD.inviteTeam, choice(h.fixture.teamId, 'Core team')],
        [ADMIN_FIELD.inviteName, text('Spring interns')],
        [ADMIN_FIELD.inviteRole, choice('member')],
        [ADMIN_FIELD.inviteDays, number('7')],
        [ADMIN_FIELD.inviteUses, number('3')],
      ],
    }),
    operations: ['invitationCreate', 'invitationUpdate'],
  },
  {
    name: 'sharing an invitation with a person and in a channel',
    view: async (h) => {
      const invitation = await h.owner().invitations.create({
        teamId: h.fixture.teamId,
        inviteName: 'Existing',
        inviteOrgRole: 'member',
        inviteUsesMax: 1,
        inviteExpireDays: 3,
      });
      return {
        view: shareForm({ form: 'share', id: invitation.id, name: 'Existing' }),
        values: [[ADMIN_FIELD.sharePerson, user('U7')]],
      };
    },
    operations: ['invitationList', 'invitationRead'],
  },
  {
    name: 'a new team (one name)',
    view: async () => ({
      view: nameForm({ form: 'newTeam' }),
      values: [[ADMIN_FIELD.name, text('Shadow team')]],
    }),
    operations: ['teamCreate'],
  },
  {
    name: 'adding a Slack person to a team',
    view: async (h) => ({
      view: personForm({ form: 'teamAdd', teamId: h.fixture.teamId, name: 'Core team' }),
      values: [[ADMIN_FIELD.person, user('U7')]],
    }),
    operations: ['teamAssign', 'serviceAccountCreate'],
  },
  {
    name: 'picking a Slack channel to link',
    view: async () => ({
      view: linkPickForm({ form: 'link' }),
      values: [[ADMIN_FIELD.slackChannel, conversation('C42')]],
    }),
    operations: ['teamListAll'],
  },
];

describe('admin forms refused to non-admins at submission', () => {
  let h: Harness;
  beforeEach(async () => {
    // Provisioning on: a form naming a person must not create an account for them either.
    h = await Harness.start({ provisioning: true });
    h.slack.users.set('U7', { id: 'U7', name: 'picked' });
  });
  afterEach(() => h.close());

  /** Submits `form` as `who` and checks that nothing happened but a refusal in the modal. */
  async function refused(form: AdminForm, who: string) {
    const { view, values } = await form.view(h);
    const viewId = await h.openedModal(who, view);
    const invitationsBefore = (await h.owner().invitations.list()).invitations.length;
    const teamsBefore = (await h.owner().teams.listAll()).teams.length;
    const before = {
      requests: form.operations.map((op) => h.sandbox.requests.count(op)),
      posts: h.slack.called('chat.postMessage').length,
    };

    const res = await h.submit(viewId, values, { user: who });
    expect(res.status).toBe(200);
    // Acked with the working view (nothing in the form is wrong), then told why in the modal.
    const told = await h.slack.waitFor('views.update', (b) => b.view_id === viewId);
    expect(json(told.body.view)).toContain(REFUSED);

    expect(form.operations.map((op) => h.sandbox.requests.count(op))).toEqual(before.requests);
    expect(h.slack.called('chat.postMessage')).toHaveLength(before.posts);
    expect((await h.owner().invitations.list()).invitations).toHaveLength(invitationsBefore);
    expect((await h.owner().teams.listAll()).teams).toHaveLength(teamsBefore);
    expect(await h.store.identities.get('T0TEST', 'U7')).toBeUndefined();
    // The modal is not left on its working view: the refusal is the last thing it shows.
    expect(json(h.slack.views.get(viewId))).toContain(REFUSED);
  }

  it.each(FORMS.map((f) => [f.name, f] as const))(
    '%s, sent by a plain member holding an owner account, changes nothing',
    async (_name, form) => {
      h.slack.users.set('U3', { id: 'U3', name: 'member' });
      await h.connect('U3', 'owner');
      await refused(form, 'U3');
    },
  );

  it.each(FORMS.map((f) => [f.name, f] as const))(
    '%s, submitted after its admin was demoted, changes nothing',
    async (_name, form) => {
      h.slack.users.set('U1', { id: 'U1', name: 'boss', isAdmin: true });
      await h.connect('U1', 'owner');
      const { view } = await form.view(h);
      // The form was built for an admin; Slack now says they are not one any more.
      h.slack.users.set('U1', { id: 'U1', name: 'boss', isAdmin: false });
      expect(view.callback_id).toBeDefined();
      await refused(form, 'U1');
    },
  );

  it('the same submission from an admin does the work (the refusal is the gate, not the form)', async () => {
    h.slack.users.set('U1', { id: 'U1', name: 'boss', isAdmin: true });
    await h.connect('U1', 'owner');
    const form = FORMS[2]!;
    const { view, values } = await form.view(h);
    const viewId = await h.openedModal('U1', view);
    await h.submit(viewId, values, { user: 'U1' });
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && json(b.view).includes('Shadow team'),
    );
    expect((await h.owner().teams.listAll()).teams.map((t) => t.teamName)).toContain('Shadow team');
  });
});
