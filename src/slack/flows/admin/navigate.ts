/**
 * Moving through the admin modal: a section of the root view is pushed (loading at once, filled
 * after); within a section view, a page, a team's channels, a channel's members, a search or
 * "back" update the view in place, with its hash so an older click never overwrites a newer view.
 */
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { slackErrorCode } from '../../../clients.js';
import {
  type AdminPlace,
  type Flash,
  placeTitle,
  SECTIONS,
  type SectionName,
} from '../../blocks/admin/common.js';
import { notice } from '../../blocks/messages.js';
import type { Acting } from '../../context/identity.js';
import { planningOf } from '../../context/middleware.js';
import { loadModal, modalRequest } from '../../context/modal.js';
import { privateSurface, showFailure, viewSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import type { ActionArgs } from '../../listeners/router.js';
import { ADMINS_ONLY, isWorkspaceAdmin } from './open.js';
import { renderPlace } from './place.js';

const isSection = (name: string | undefined): name is SectionName => Boolean(name && name in SECTIONS);

/**
 * Every request from inside the admin modal is checked again: the modal may have been opened by
 * someone who is no longer an admin.
 */
export async function stillAdmin(args: {
  client: WebClient;
  context: ActionArgs['context'];
  respond?: ActionArgs['respond'];
}): Promise<boolean> {
  const planning = planningOf(args.context);
  if (await isWorkspaceAdmin(args.client, planning.slackUserId)) return true;
  await privateSurface(args, planning.slackUserId).show(notice(ADMINS_ONLY));
  return false;
}

/** Pushes the section named by the root view's button. */
export async function pushSection(svc: Services, args: ActionArgs, name: string | undefined): Promise<void> {
  if (!isSection(name) || !(await stillAdmin(args))) return;
  const place: AdminPlace = { s: name, p: 1 };
  await loadModal(
    {
      ...modalRequest(svc, args, args.body.trigger_id, `admin ${name}`),
      title: placeTitle(place),
      push: true,
    },
    (acting) => renderPlace(svc, acting, place),
  );
}

export interface ViewRef {
  id: string;
  hash?: string;
}

/** Shows `place` in the view `view` (with its hash when known), or the failure there in one sentence. */
export async function showPlace(
  svc: Services,
  args: { client: WebClient; context: ActionArgs['context'] },
  view: ViewRef,
  place: AdminPlace,
  flash?: Flash,
  acting?: Acting,
): Promise<void> {
  const planning = planningOf(args.context);
  try {
    const next: ModalView = await renderPlace(svc, acting ?? (await planning.acting()), place, flash);
    await args.client.views.update({
      view_id: view.id,
      ...(view.hash ? { hash: view.hash } : {}),
      view: next,
    });
  } catch (error) {
    // A newer view is already shown (another click was quicker): it stays.
    if (slackErrorCode(error) === 'hash_conflict') return;
    await showFailure(svc.deps, viewSurface(args.client, view.id, placeTitle(place)), error, {
      action: `admin ${place.s}`,
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}

/** A page, a team, a channel or back: the section view shows the new place. */
export async function goTo(svc: Services, args: ActionArgs, place: AdminPlace | undefined): Promise<void> {
  const view = args.body.view;
  if (!view || !place || !(await stillAdmin(args))) return;
  await showPlace(svc, args, { id: view.id, hash: view.hash }, place);
}
