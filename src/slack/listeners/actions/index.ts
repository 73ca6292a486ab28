/** Binds the buttons and dispatching selects. */
import type { App, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { ACTION, DIGEST_ACTION } from '../../ids.js';
import { router } from '../router.js';
import { advanceFeatureAction } from './advance-feature.js';
import { connectOpenAction } from './connect-open.js';
import { feedbackOpenAction } from './feedback-open.js';
import { replyOpenAction } from './reply-open.js';
import { teamPickedAction } from './team-picked.js';

export function registerActions(app: App, svc: Services) {
  app.action<BlockAction>(
    /.*/,
    router(
      (args: SlackActionMiddlewareArgs<BlockAction>) => args.action.action_id,
      {
        [ACTION.connectOpen]: connectOpenAction(),
        [ACTION.feedbackOpen]: feedbackOpenAction(),
        [ACTION.replyOpen]: replyOpenAction(),
        [ACTION.teamPicked]: teamPickedAction(svc),
        // The digest composes this button; the app answers it.
        [DIGEST_ACTION.advanceFeature]: advanceFeatureAction(svc),
      },
      async ({ ack }) => ack(),
    ),
  );
}
