/** The digest's Advance button: advances the feature as the user who pressed it, and tells only them. */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { md } from '../../blocks/kit.js';
import { notice } from '../../blocks/messages.js';
import { parseCarried } from '../../carried.js';
import { afterPendingAcks } from '../../context/ack.js';
import { planningOf } from '../../context/middleware.js';
import { respondSurface, showFailure } from '../../context/reply.js';
import type { Services } from '../../context/services.js';

/** The digest's AdvanceButtonValue, checked: it comes back from Slack as text. */
const AdvanceValue = z.object({
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  featureId: z.string().min(1),
});

export function advanceFeatureAction(svc: Services) {
  return async ({
    ack,
    action,
    respond,
    context,
  }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs) => {
    await ack();
    await afterPendingAcks();
    const surface = respondSurface(respond);
    const planning = planningOf(context);
    try {
      const target = parseCarried(AdvanceValue, action.value);
      if (!target) {
        await surface.show(notice('This button is out of date; the next digest has fresh ones.'));
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
