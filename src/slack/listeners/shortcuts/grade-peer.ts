/**
 * "Grade a peer" (global shortcut): the grading form, opened at once (it needs no data); a user who
 * cannot act yet sees Connect in its place.
 */
import type { AllMiddlewareArgs, GlobalShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { gradeModal } from '../../blocks/grade.js';
import { afterPendingAcks } from '../../context/ack.js';
import { planningOf } from '../../context/middleware.js';
import { connectBeforeForm, viewSurface } from '../../context/reply.js';

export function gradePeerShortcut() {
  return async ({
    ack,
    shortcut,
    client,
    context,
  }: SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs) => {
    await ack();
    await afterPendingAcks();
    const opened = await client.views.open({ trigger_id: shortcut.trigger_id, view: gradeModal() });
    await connectBeforeForm(
      planningOf(context),
      viewSurface(client, opened.view?.id as string, 'Grade a peer'),
    );
  };
}
