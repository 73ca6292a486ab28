/**
 * Opening an admin form: each form button (`admin_form_<form>`, its value saying for what) pushes
 * its form over the section view it was pressed in — at once, or loading first when the form shows
 * what the service or the store holds (the teams to invite to, the invitation or account changed,
 * the link's digest). Each form, with what its submission does, is in its own file.
 */
import type { ModalView } from '@slack/types';
import { channelMention, md } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import type { Acting } from '../kit/identity.js';
import { loadModal, modalRequest, noticeView, pushModal } from '../kit/modal.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { FORM_KINDS, FormRequest, formActionId, placeOf, shortName } from './common.js';
import { digestTimeForm } from './digest-time-form.js';
import type { FormMeta } from './form-common.js';
import { invitationForm } from './invitation-form.js';
import { findInvitation } from './invitations.js';
import { linkPickForm } from './link-pick-form.js';
import { isNameForm, NAME_FORMS, nameForm } from './name-form.js';
import { isPersonForm, PERSON_FORMS, personForm } from './person-form.js';
import { shareForm } from './share-form.js';

/** The form's title while it loads. */
function titleOf(request: FormRequest): string {
  if (isNameForm(request.form)) return NAME_FORMS[request.form].title;
  if (isPersonForm(request.form)) return PERSON_FORMS[request.form].title;
  return OTHER_TITLES[request.form as keyof typeof OTHER_TITLES] ?? 'Administration';
}

const OTHER_TITLES = {
  invite: 'New invitation',
  editInvite: 'Edit invitation',
  share: 'Share invitation',
  link: 'Link a Slack channel',
  digestTime: 'Digest time',
} as const;

/** Every form button's action id, for the listener index. */
export const FORM_ACTION_IDS = FORM_KINDS.map(formActionId);

export async function pushForm(svc: Services, args: ActionArgs): Promise<void> {
  const request = parseCarried(FormRequest, actionValue(args.action));
  if (!request) return;
  const view = args.body.view;
  const parentPlace = placeOf(view?.private_metadata);
  const meta: FormMeta = {
    ...request,
    ...(view ? { parentViewId: view.id } : {}),
    ...(parentPlace ? { parentPlace } : {}),
  };
  const req = modalRequest(svc, args, args.body.trigger_id, `admin form ${request.form}`);

  const load = (build: (acting: Acting) => Promise<ModalView>) =>
    loadModal({ ...req, title: titleOf(request), push: true }, build);
  const form = meta.form;
  if (form === 'invite') {
    await load(async ({ planning }) =>
      invitationForm({ meta, teams: (await planning.teams.listAll({ pageSize: 100 })).teams }),
    );
  } else if (form === 'editInvite' && meta.id) {
    const id = meta.id;
    await load(async ({ planning }) => {
      const [invitation, teams] = await Promise.all([
        findInvitation(planning, id),
        planning.teams.listAll({ pageSize: 100 }),
      ]);
      return invitationForm({ meta, teams: teams.teams, invitation });
    });
  } else if (form === 'renameAccount' && meta.id) {
    const id = meta.id;
    await load(async ({ planning }) => {
      const account = await planning.serviceAccounts.read(id);
      return nameForm({ ...meta, form, name: shortName(account.userName ?? meta.name) });
    });
  } else if (form === 'share') {
    await pushModal(req, shareForm(meta));
  } else if (form === 'link') {
    await pushModal(req, linkPickForm(meta));
  } else if (form === 'digestTime' && meta.id) {
    const slackChannelId = meta.id;
    await load(async (acting) => {
      const link = await svc.deps.store.links.get(acting.workspaceId, slackChannelId);
      return link
        ? digestTimeForm(meta, link)
        : noticeView('Digest time', md`${channelMention(slackChannelId)} is not linked any more.`);
    });
  } else if (isNameForm(form)) {
    await pushModal(req, nameForm({ ...meta, form }));
  } else if (isPersonForm(form)) {
    await pushModal(req, personForm({ ...meta, form }));
  }
}
