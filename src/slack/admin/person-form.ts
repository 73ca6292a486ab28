/**
 * The person forms — one Slack person: added to or removed from a team, added to a channel, or
 * their teams shown — and what each does.
 */
import type { ModalView } from '@slack/types';
import { context, input, type Mrkdwn, md, mention, modal, section } from '../../blockkit/index.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, read, slackUserId } from '../kit/form.js';
import { FormProblem, type SubmissionSpec } from '../kit/submission.js';
import { done, type FormMeta, formMetaOf, meta, metaField, problemBlocks } from './form-common.js';
import { ADMIN_FIELD, ADMIN_VIEW } from './ids.js';
import { personTeamsView } from './teams.js';

/** What a person form does, by form. */
export const PERSON_FORMS = {
  teamAdd: { title: 'Add to team', label: 'Person to add', submit: 'Add' },
  teamRemove: { title: 'Remove from team', label: 'Person to remove', submit: 'Remove' },
  channelAdd: { title: 'Add to channel', label: 'Person to add', submit: 'Add' },
  personTeams: { title: "A person's teams", label: 'Person', submit: 'Show' },
} as const;
export type PersonFormKind = keyof typeof PERSON_FORMS;
export const isPersonForm = (kind: string): kind is PersonFormKind => kind in PERSON_FORMS;

export function personForm(
  m: FormMeta & { form: PersonFormKind },
  picked?: string,
  problem?: Mrkdwn,
): ModalView {
  const spec = PERSON_FORMS[m.form];
  const where =
    m.form === 'teamAdd' || m.form === 'teamRemove'
      ? md`Team *${m.name || m.teamId || ''}*.`
      : m.form === 'channelAdd'
        ? md`Channel *${m.name || m.channelId || ''}*; they join its team too if they are not in it.`
        : md`Every team the person is in.`;
  return modal({
    callbackId: ADMIN_VIEW.person,
    title: spec.title,
    submit: spec.submit,
    close: 'Back',
    privateMetadata: meta(m),
    blocks: [
      section(where),
      input(spec.label, ADMIN_FIELD.person.block, {
        type: 'users_select',
        action_id: ADMIN_FIELD.person.action,
        ...(picked ? { initial_user: picked } : {}),
      }),
      context(
        md`People get a planning account the first time the app acts for them, when the workspace allows it.`,
      ),
      ...problemBlocks(problem),
    ],
  });
}

const PersonInput = form({
  meta: read.metadata(
    ADMIN_FIELD.person,
    metaField.refine((m) => isPersonForm(m.form), 'This form is from an older version.'),
    formMetaOf,
  ),
  person: read.value(ADMIN_FIELD.person, slackUserId('Choose a person.')),
});
type PersonInput = FormOutput<typeof PersonInput>;

export const personSubmission: SubmissionSpec<PersonInput> = {
  action: 'admin person',
  title: 'Members',
  working: 'Working…',
  parse: PersonInput.parse,
  retry: (data, problem) =>
    personForm({ ...data.meta, form: data.meta.form as PersonFormKind }, data.person, problem),
  run: async (svc, data, args) => {
    const planning = planningOf(args.context);
    const acting = await planning.acting();
    const { meta, person } = data;
    const team = meta.teamId;
    const where = md`*${meta.name || team || ''}*`;
    // Reading or removing never creates an account for someone; adding may, for the addition only:
    // whether it is allowed is the organization's roles' to say (an admin whose account is a member
    // is refused), so an account made for it is closed when the service refuses (kit/identity.ts).
    const known = async () => {
      const identity = await svc.deps.store.identities.get(planning.workspaceId, person);
      if (!identity)
        throw new FormProblem(md`${mention(person)} has no planning account here, so is in no team.`);
      return identity.planningUserId;
    };
    switch (meta.form as PersonFormKind) {
      case 'personTeams': {
        const userId = await known();
        const page = await acting.planning.teams.listUser(userId, { pageSize: 100 });
        return {
          text: md`${mention(person)}'s teams.`,
          view: personTeamsView(person, page.teams, page.total),
        };
      }
      case 'teamRemove': {
        if (!team) throw new FormProblem(md`This form no longer says which team.`);
        await acting.planning.teams.unassign(team, await known());
        return done(svc, args, meta, acting, md`${mention(person)} left the team ${where}.`);
      }
      case 'teamAdd': {
        if (!team) throw new FormProblem(md`This form no longer says which team.`);
        const named = await planning.named([person]);
        await named.apply(([p]) => acting.planning.teams.assign(team, p.planningUserId));
        return done(svc, args, meta, acting, md`${mention(person)} joined the team ${where}.`);
      }
      case 'channelAdd': {
        if (!team || !meta.channelId) throw new FormProblem(md`This form no longer says which channel.`);
        const channelId = meta.channelId;
        const named = await planning.named([person]);
        await named.apply(([p]) => acting.planning.channels.assign(team, channelId, p.planningUserId));
        return done(svc, args, meta, acting, md`${mention(person)} joined the channel ${where}.`);
      }
    }
  },
};
