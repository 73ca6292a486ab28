/** A feature card's Advance button (after its confirmation dialog): applied once, cards refreshed. */
import { md } from '../../../blockkit/index.js';
import { parseFeatureButton } from '../../blocks/feature.js';
import { notice } from '../../blocks/messages.js';
import { planningOf } from '../../context/middleware.js';
import { privateSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { pressAdvance } from '../../flows/feature.js';
import { type ActionArgs, actionValue } from '../router.js';

export function featureAdvanceAction(svc: Services) {
  return async (args: ActionArgs) => {
    const value = parseFeatureButton(actionValue(args.action));
    if (!value) {
      const surface = privateSurface(args, planningOf(args.context).slackUserId);
      await surface.show(notice(md`This button is out of date: run \`/plan features\` for fresh cards.`));
      return;
    }
    await pressAdvance(svc, args, value, value.stage);
  };
}
