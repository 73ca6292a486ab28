/**
 * A feature button pressed (Advance, Delete) redraws what it was pressed on, as the kit's press
 * allows (kit/press.ts `redraw`): a `/plan features` list is listed again with the same stage filter
 * (its rows carry it in their block ids), and a Details modal shows the feature as it is now. The
 * feature's remembered cards are updated by the press itself.
 */
import { md } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { notice } from '../kit/messages.js';
import { actsAsOrgAdmin } from '../kit/planning-account.js';
import type { Services } from '../kit/services.js';
import { type FeatureCoords, type FeatureView, featureCoordsFrom, parseFeatureButton } from './card.js';
import { featureDetailsModal } from './details.js';
import { featuresPage, listFilterOf } from './list.js';
import { pressAdvance, pressDelete, stale } from './live.js';

type Redraw = (after: FeatureView | undefined) => Promise<void>;

/** How to redraw the list or the Details modal the button was pressed in; undefined elsewhere. */
export function redrawOf(svc: Services, args: ActionArgs, coords: FeatureCoords): Redraw | undefined {
  const planning = planningOf(args.context);
  const { view } = args.body;
  if (view?.type === 'modal' && featureCoordsFrom(view)?.featureId === coords.featureId) {
    return async (after) => {
      const deletesDeepContext = after ? await actsAsOrgAdmin(await planning.acting()) : false;
      await args.client.views.update({
        view_id: view.id,
        view: featureDetailsModal(after, deletesDeepContext),
      });
    };
  }
  const list = listFilterOf((args.action as { block_id?: string }).block_id);
  const channel = args.body.channel?.id;
  const { respond } = args;
  if (list && channel && respond) {
    return async () => {
      const link = await svc.deps.store.links.get(planning.workspaceId, channel);
      const page = link
        ? await featuresPage(await planning.acting(), link, list.filter)
        : notice(md`This channel is no longer linked to a planning channel.`);
      await respond({ replace_original: true, ...page });
    };
  }
  return undefined;
}

type FeaturePress = typeof pressAdvance;

/** A feature card's press: the button's feature and stage, or why the button is out of date. */
async function featurePress(svc: Services, args: ActionArgs, press: FeaturePress) {
  const value = parseFeatureButton(actionValue(args.action));
  if (!value) {
    await stale(args);
    return;
  }
  await press(svc, args, value, value.stage, redrawOf(svc, args, value));
}

export const advanceAction = (svc: Services, args: ActionArgs) => featurePress(svc, args, pressAdvance);
export const deleteAction = (svc: Services, args: ActionArgs) => featurePress(svc, args, pressDelete);
