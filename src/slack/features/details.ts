/**
 * A feature card's Details: the feature in full, with its assumptions, experiments and tasks, in a modal.
 */
import type { ModalView } from '@slack/types';
import { modal } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { VIEW } from '../kit/ids.js';
import { loadModal } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { type FeatureCoords, featureBlocks, parseFeatureButton } from './card.js';
import { type Req, readFeatureView, request, stale } from './live.js';

/** The card in a modal, with its buttons (a press there answers in the user's DM). */
export function openFeatureDetails(svc: Services, req: Req, coords: FeatureCoords) {
  const title = 'Feature';
  return loadModal({ ...req, title }, async (acting): Promise<ModalView> => {
    const view = await readFeatureView(svc, acting, coords);
    return modal({ callbackId: VIEW.info, title, blocks: featureBlocks(view) });
  });
}

export async function featureDetailsAction(svc: Services, args: ActionArgs) {
  const value = parseFeatureButton(actionValue(args.action));
  if (!value) return stale(args);
  await openFeatureDetails(svc, request(svc, args, 'feature details open'), value);
}
