/** Binds the buttons and dispatching selects. */
import type { App, BlockAction, ButtonAction, StaticSelectAction } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { ACTION, DIGEST_ACTION } from '../../ids.js';
import { advanceFeatureAction } from './advance-feature.js';
import { connectOpenAction } from './connect-open.js';
import { feedbackOpenAction } from './feedback-open.js';
import { replyOpenAction } from './reply-open.js';
import { teamPickedAction } from './team-picked.js';

export function registerActions(app: App, svc: Services) {
  app.action<BlockAction<ButtonAction>>(ACTION.connectOpen, connectOpenAction());
  app.action<BlockAction<ButtonAction>>(ACTION.feedbackOpen, feedbackOpenAction());
  app.action<BlockAction<ButtonAction>>(ACTION.replyOpen, replyOpenAction());
  app.action<BlockAction<StaticSelectAction>>(ACTION.teamPicked, teamPickedAction(svc));
  // The digest composes this button; the app answers it.
  app.action<BlockAction<ButtonAction>>(DIGEST_ACTION.advanceFeature, advanceFeatureAction(svc));
}
