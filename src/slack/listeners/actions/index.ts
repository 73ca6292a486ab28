/** Binds the buttons and dispatching selects. */
import type { App } from '@slack/bolt';
import { DIGEST_ACTIONS } from '../../../digest/index.js';
import type { Services } from '../../context/services.js';
import { ACTION } from '../../ids.js';
import { type ActionArgs, ackThenRoute } from '../router.js';
import { advanceFeatureAction } from './advance-feature.js';
import { connectOpenAction } from './connect-open.js';
import { disconnectAction } from './disconnect.js';
import { feedbackOpenAction } from './feedback-open.js';
import { notifyPrefsAction } from './notify-prefs.js';
import { replyOpenAction } from './reply-open.js';
import { teamPickedAction } from './team-picked.js';

export function registerActions(app: App, svc: Services) {
  app.action(
    /.*/,
    ackThenRoute<ActionArgs>((args) => args.action.action_id, {
      [ACTION.connectOpen]: connectOpenAction(svc),
      [ACTION.feedbackOpen]: feedbackOpenAction(svc),
      [ACTION.replyOpen]: replyOpenAction(svc),
      [ACTION.teamPicked]: teamPickedAction(svc),
      // The digest composes this button; the app answers it.
      [DIGEST_ACTIONS.advanceFeature]: advanceFeatureAction(svc),
      // Account and the Home tab.
      [ACTION.accountClose]: disconnectAction(svc, true),
      [ACTION.disconnect]: disconnectAction(svc, false),
      [ACTION.notifyKinds]: notifyPrefsAction(svc),
      [ACTION.quietStart]: notifyPrefsAction(svc),
      [ACTION.quietEnd]: notifyPrefsAction(svc),
    }),
  );
}
