/** The digest's Advance button: advances the feature as the user who pressed it, and tells only them. */
import { md } from '../../../blockkit/index.js';
import { AdvanceButtonValue } from '../../../digest/index.js';
import { notice } from '../../blocks/messages.js';
import { planningOf } from '../../context/middleware.js';
import { respondSurface, showFailure } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { parseCarried } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';

export function advanceFeatureAction(svc: Services) {
  return async ({ action, respond, context }: ActionArgs) => {
    const surface = respondSurface(respond);
    const planning = planningOf(context);
    try {
      const target = parseCarried(AdvanceButtonValue, actionValue(action));
      if (!target) {
        await surface.show(notice(md`This button is out of date; the next digest has fresh ones.`));
        return;
      }
      const { planning: service } = await planning.acting();
      const feature = await service.features.advance(target.teamId, target.channelId, target.featureId);
      await surface.show(
        notice(md`:arrow_forward: *${feature.heading ?? feature.id}* is now in *${feature.stage}*.`),
      );
    } catch (error) {
      await showFailure(svc.deps, surface, error, {
        action: 'advance feature',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}
