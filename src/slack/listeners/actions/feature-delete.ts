/**
 * A feature card's (or a deep-context result's) Delete button, after its confirmation dialog. The
 * service decides who may: anyone before deep context, only owners and admins in it.
 */
import { md } from '../../../blockkit/index.js';
import { parseFeatureButton } from '../../blocks/feature.js';
import { notice } from '../../blocks/messages.js';
import { planningOf } from '../../context/middleware.js';
import { privateSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { pressDelete } from '../../flows/feature.js';
import { type ActionArgs, actionValue } from '../router.js';

export function featureDeleteAction(svc: Services) {
  return async (args: ActionArgs) => {
    const value = parseFeatureButton(actionValue(args.action));
    if (!value) {
      const surface = privateSurface(args, planningOf(args.context).slackUserId);
      await surface.show(notice(md`This button is out of date: run \`/plan features\` for fresh cards.`));
      return;
    }
    await pressDelete(svc, args, value, value.stage);
  };
}
