/**
 * Searching a section that the service searches (notions): the search box is an input, so it
 * arrives either as Enter in the box (a block action) or as the view's Search button (a submission,
 * acked with a loading view then filled). Both show page 1 of the results.
 */

import { cutToLength } from '../../blockkit/index.js';
import type { ActionArgs, ViewHandler } from '../bolt/routes.js';
import { fieldValue, type StateValues } from '../kit/form.js';
import { loadingView } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { type AdminPlace, placeOf, placeTitle } from './common.js';
import { ADMIN_FIELD } from './ids.js';
import { showPlace } from './navigate.js';

function searched(place: AdminPlace, values: StateValues): AdminPlace {
  const q = fieldValue(values, ADMIN_FIELD.search)?.trim();
  // Within what the place's schema takes back (`q`: 256), never in the middle of a character.
  const term = q ? cutToLength(q, 256) : undefined;
  return { section: place.section, page: 1, ...(term ? { search: term } : {}) };
}

/** Enter in the search box. */
export async function searchAction(svc: Services, args: ActionArgs): Promise<void> {
  const view = args.body.view;
  const place = placeOf(view?.private_metadata);
  if (!view || !place) return;
  await showPlace(svc, args, { id: view.id }, searched(place, view.state.values as StateValues));
}

/** The Search button of a section view: acked with a loading view, then page 1 of the results. */
export const searchSubmission: ViewHandler<Services> = (svc, args) => {
  const { view } = args;
  const place = placeOf(view.private_metadata);
  if (!place) return { ack: undefined };
  return {
    ack: { response_action: 'update', view: loadingView(placeTitle(place), 'Searching…') },
    work: () => showPlace(svc, args, { id: view.id }, searched(place, view.state.values as StateValues)),
  };
};
