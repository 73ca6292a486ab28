/**
 * The digest's Advance button (after the same confirmation dialog as a feature card's): the same
 * press as the card's — applied once, as the user who pressed it, the feature's cards refreshed —
 * and the digest's own line redrawn to show the feature as it is now, after an advance as after a
 * press the line was out of date for (the digest is the app's own message).
 */
import type { KnownBlock } from '@slack/types';
import { md } from '../../blockkit/index.js';
import { AdvanceButtonValue, digestWithRowNow } from '../../digest/index.js';
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
  const digest = args.body.message as { ts?: string; text?: string; blocks?: KnownBlock[] } | undefined;
  const channel = args.body.channel?.id;
  const blockId = (args.action as { block_id?: string }).block_id;
  const redraw =
    digest?.ts && digest.blocks && channel && blockId
      ? async (after: { feature: Parameters<typeof digestWithRowNow>[3] } | undefined) => {
          // chat.update without metadata keeps the digest's own (its day and channel, for recovery).
          await args.client.chat.update({
            channel,
            ts: digest.ts as string,
            text: digest.text ?? '',
            blocks: digestWithRowNow(digest.blocks as KnownBlock[], blockId, target, after?.feature),
          });
        }
      : undefined;
  await pressAdvance(svc, args, target, target.stage, redraw);
}
