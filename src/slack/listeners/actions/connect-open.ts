/** The Connect button (in a message or a modal): opens the token form. */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { connectModal } from '../../blocks/connect.js';
import { afterPendingAcks } from '../../context/ack.js';

export function connectOpenAction() {
  return async ({ ack, body, client }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs) => {
    await ack();
    await afterPendingAcks();
    if (body.view) await client.views.update({ view_id: body.view.id, view: connectModal() });
    else await client.views.open({ trigger_id: body.trigger_id, view: connectModal() });
  };
}
