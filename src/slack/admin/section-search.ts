/**
 * Searching a section that the service searches (notions): the search box is an input, so it
 * arrives either as Enter in the box (a block action) or as the view's Search button (a submission,
 * acked with a loading view then filled). Both show page 1 of the results.
 */

import { afterPendingAcks } from '../bolt/ack.js';
import type { ActionArgs, SubmitArgs } from '../bolt/router.js';
import { fieldValue, type StateValues } from '../kit/form.js';
import { loadingView, noticeView } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { type AdminPlace, placeOf, placeTitle } from './common.js';
import { ADMIN_FIELD } from './ids.js';
import { showPlace, stillAdmin } from './navigate.js';
import { ADMINS_ONLY } from './root.js';

function searched(place: AdminPlace, values: StateValues): AdminPlace {
  const q = fieldValue(values, ADMIN_FIELD.search)?.trim().slice(0, 256);
  return { s: place.s, p: 1, ...(q ? { q } : {}) };
}

/** Enter in the search box. */
export async function searchAction(svc: Services, args: ActionArgs): Promise<void> {
  const view = args.body.view;
  const place = placeOf(view?.private_metadata);
  if (!view || !place || !(await stillAdmin(args))) return;
  await showPlace(svc, args, { id: view.id }, searched(place, view.state.values as StateValues));
}

/** The Search button of a section view. */
export async function searchSubmission(svc: Services, args: SubmitArgs): Promise<void> {
  const { view } = args;
  const place = placeOf(view.private_metadata);
  if (!place) {
    await args.ack();
    return;
  }
  await args.ack({ response_action: 'update', view: loadingView(placeTitle(place), 'Searching…') });
  await afterPendingAcks();
  if (!(await stillAdmin(args))) {
    await args.client.views.update({ view_id: view.id, view: noticeView(placeTitle(place), ADMINS_ONLY) });
    return;
  }
  await showPlace(svc, args, { id: view.id }, searched(place, view.state.values as StateValues));
}

export function adminSearchAction(svc: Services) {
  return (args: ActionArgs) => searchAction(svc, args);
}

export function adminSectionSubmission(svc: Services) {
  return (args: SubmitArgs) => searchSubmission(svc, args);
}
