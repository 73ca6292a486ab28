/**
 * Searching a section that the service searches (notions): the search box is an input, so it
 * arrives either as Enter in the box (a block action) or as the view's Search button (a submission,
 * acked with a loading view then filled). Both show page 1 of the results.
 */
import { type AdminPlace, placeOf, placeTitle } from '../../blocks/admin/common.js';
import { loadingView, noticeView } from '../../blocks/views.js';
import { afterPendingAcks } from '../../context/ack.js';
import type { Services } from '../../context/services.js';
import { fieldValue, type StateValues } from '../../forms.js';
import { FIELD } from '../../ids.js';
import type { ActionArgs, SubmitArgs } from '../../listeners/router.js';
import { showPlace, stillAdmin } from './navigate.js';
import { ADMINS_ONLY } from './open.js';

function searched(place: AdminPlace, values: StateValues): AdminPlace {
  const q = fieldValue(values, FIELD.search)?.trim().slice(0, 256);
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
