/**
 * A feature card's Details: the feature in full, with its assumptions, experiments and tasks, in a modal.
 */
import type { ModalView } from '@slack/types';
import { md, modal } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import type { Acting } from '../kit/identity.js';
import { VIEW } from '../kit/ids.js';
import { loadModal, noticeView } from '../kit/modal.js';
import { actsAsOrgAdmin } from '../kit/planning-account.js';
import type { Services } from '../kit/services.js';
import { type FeatureCoords, type FeatureView, featureBlocks, parseFeatureButton } from './card.js';
import { type Req, readFeatureView, request, stale } from './live.js';

export const DETAILS_TITLE = 'Feature';

/**
 * The card in a modal, with its buttons as the one who looks may use them (a press there answers in
 * their DM, and redraws the modal); `undefined` once the feature is gone.
 */
export function featureDetailsModal(view: FeatureView | undefined, deletesDeepContext: boolean): ModalView {
  if (!view) return noticeView(DETAILS_TITLE, md`:wastebasket: This feature was deleted.`);
  return modal({
    callbackId: VIEW.info,
    title: DETAILS_TITLE,
    blocks: featureBlocks(view, { deletesDeepContext }),
  });
}

/** The Details modal of the feature at `coords`, read as `acting`. */
export async function readFeatureDetails(svc: Services, acting: Acting, coords: FeatureCoords) {
  const [view, deletesDeepContext] = await Promise.all([
    readFeatureView(svc, acting, coords),
    actsAsOrgAdmin(acting),
  ]);
  return featureDetailsModal(view, deletesDeepContext);
}

export function openFeatureDetails(svc: Services, req: Req, coords: FeatureCoords) {
  return loadModal({ ...req, title: DETAILS_TITLE }, (acting) => readFeatureDetails(svc, acting, coords));
}

export async function featureDetailsAction(svc: Services, args: ActionArgs) {
  const value = parseFeatureButton(actionValue(args.action));
  if (!value) return stale(args);
  await openFeatureDetails(svc, request(svc, args, 'feature details open'), value);
}
