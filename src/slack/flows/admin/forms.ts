/**
 * Opening an admin form over the section view it was asked from (pushed). Forms that need the
 * service (the teams of an invitation, an account's current name) open loading and fill; the
 * others open at once. The form remembers the section view, to refresh it once it is submitted.
 */
import type { ModalView } from '@slack/types';
import type { Invitation, PlanningClient } from '../../../planning/index.js';
import { NotFoundError } from '../../../planning/index.js';
import {
  FORM_KINDS,
  type FormRequest,
  FormRequest as FormRequestSchema,
  formActionId,
  placeOf,
} from '../../blocks/admin/common.js';
import {
  type FormMeta,
  invitationForm,
  isNameForm,
  isPersonForm,
  linkPickForm,
  NAME_FORMS,
  nameForm,
  PERSON_FORMS,
  personForm,
  shareForm,
} from '../../blocks/admin/forms.js';
import type { Acting } from '../../context/identity.js';
import { loadModal, modalRequest, pushModal } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { type ActionArgs, actionValue } from '../../listeners/router.js';
import { parseCarried } from '../../round-trip.js';
import { stillAdmin } from './navigate.js';

/** An invitation of the organization, found through the list: reading one would count a view. */
export async function findInvitation(planning: PlanningClient, inviteId: string): Promise<Invitation> {
  for await (const invitation of planning.invitations.list({ pageSize: 100 })) {
    if (invitation.id === inviteId) return invitation;
  }
  // Said as the service says a missing invitation: "that no longer exists".
  throw new NotFoundError('the invitation is not in the list', {
    status: 404,
    errorId: 'not-found',
    operation: 'invitations.list',
    method: 'GET',
    path: '/invitations',
  });
}

/** The form's title while it loads. */
function titleOf(request: FormRequest): string {
  if (isNameForm(request.f)) return NAME_FORMS[request.f].title;
  if (isPersonForm(request.f)) return PERSON_FORMS[request.f].title;
  return OTHER_TITLES[request.f as keyof typeof OTHER_TITLES] ?? 'Administration';
}

const OTHER_TITLES = {
  invite: 'New invitation',
  editInvite: 'Edit invitation',
  share: 'Share invitation',
  link: 'Link a Slack channel',
} as const;

/** Every form button's action id, for the listener index. */
export const FORM_ACTION_IDS = FORM_KINDS.map(formActionId);

export async function pushForm(svc: Services, args: ActionArgs): Promise<void> {
  const request = parseCarried(FormRequestSchema, actionValue(args.action));
  if (!request || !(await stillAdmin(args))) return;
  const view = args.body.view;
  const at = placeOf(view?.private_metadata);
  const meta: FormMeta = { ...request, ...(view ? { v: view.id } : {}), ...(at ? { at } : {}) };
  const req = modalRequest(svc, args, args.body.trigger_id, `admin form ${request.f}`);

  const load = (build: (acting: Acting) => Promise<ModalView>) =>
    loadModal({ ...req, title: titleOf(request), push: true }, build);
  const f = meta.f;
  if (f === 'invite') {
    await load(async ({ planning }) =>
      invitationForm({ meta, teams: (await planning.teams.listAll({ pageSize: 100 })).teams }),
    );
  } else if (f === 'editInvite' && meta.id) {
    const id = meta.id;
    await load(async ({ planning }) => {
      const [invitation, teams] = await Promise.all([
        findInvitation(planning, id),
        planning.teams.listAll({ pageSize: 100 }),
      ]);
      return invitationForm({ meta, teams: teams.teams, invitation });
    });
  } else if (f === 'renameAccount' && meta.id) {
    const id = meta.id;
    await load(async ({ planning }) => {
      const account = await planning.serviceAccounts.read(id);
      return nameForm({ ...meta, f, n: (account.userName ?? meta.n ?? '').slice(0, 80) });
    });
  } else if (f === 'share') {
    await pushModal(req, shareForm(meta));
  } else if (f === 'link') {
    await pushModal(req, linkPickForm(meta));
  } else if (isNameForm(f)) {
    await pushModal(req, nameForm({ ...meta, f }));
  } else if (isPersonForm(f)) {
    await pushModal(req, personForm({ ...meta, f }));
  }
}
