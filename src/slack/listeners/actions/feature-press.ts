/**
 * A feature card's Advance and Delete buttons (a deep-context result's Delete too), after their
 * confirmation dialog: applied once through the card press (flows/feature.ts), cards refreshed. For
 * Delete the service decides who may: anyone before deep context, only owners and admins in it.
 */
import { md } from '../../../blockkit/index.js';
import { type FeatureCoords, parseFeatureButton } from '../../blocks/feature.js';
import { notice } from '../../blocks/messages.js';
import { planningOf } from '../../context/middleware.js';
import { privateSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { type ActionArgs, actionValue } from '../router.js';

type FeaturePress = (svc: Services, args: ActionArgs, coords: FeatureCoords, stage: string) => Promise<void>;

export function featurePressAction(svc: Services, press: FeaturePress) {
  return async (args: ActionArgs) => {
    const value = parseFeatureButton(actionValue(args.action));
    if (!value) {
      const surface = privateSurface(args, planningOf(args.context).slackUserId);
      await surface.show(notice(md`This button is out of date: run \`/plan features\` for fresh cards.`));
      return;
    }
    await press(svc, args, value, value.stage);
  };
}
