/**
 * The digest's Advance button (after the same confirmation dialog as a feature card's): the same
 * press as the card's — applied once, as the user who pressed it, the feature's cards refreshed.
 */
import { md } from '../../blockkit/index.js';
import { AdvanceButtonValue } from '../../digest/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { pressAdvance } from '../features/index.js';
import { planningOf } from '../kit/acting.js';
import { notice } from '../kit/messages.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { privateSurface } from '../kit/surfaces.js';

export async function advanceFeatureAction(svc: Services, args: ActionArgs) {
  const target = parseCarried(AdvanceButtonValue, actionValue(args.action));
  // Without the stage it was shown for, a retried press could advance twice: such old buttons are refused.
  if (!target?.stage) {
    const surface = privateSurface(args, planningOf(args.context).slackUserId);
    await surface.show(notice(md`This button is out of date; the next digest has fresh ones.`));
    return;
  }
  await pressAdvance(svc, args, target, target.stage);
}
