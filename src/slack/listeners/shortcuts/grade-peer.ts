/** "Grade a peer" (global shortcut): the grading form, opened at once (it needs no data). */
import type { AllMiddlewareArgs, GlobalShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { gradeModal } from '../../blocks/grade.js';
import { afterPendingAcks } from '../../context/ack.js';

export function gradePeerShortcut() {
  return async ({
    ack,
    shortcut,
    client,
  }: SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs) => {
    await ack();
    await afterPendingAcks();
    await client.views.open({ trigger_id: shortcut.trigger_id, view: gradeModal() });
  };
}
