/** Binds the shortcuts declared in the manifest. */
import type { App, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { SHORTCUT } from '../../ids.js';
import { router } from '../router.js';
import { createTaskShortcut } from './create-task.js';
import { giveFeedbackShortcut } from './give-feedback.js';
import { gradePeerShortcut } from './grade-peer.js';

export function registerShortcuts(app: App, svc: Services) {
  // Keyed by type too: a message shortcut's listener reads the message a global one lacks.
  app.shortcut(
    /.*/,
    router(
      ({ shortcut }: SlackShortcutMiddlewareArgs) => `${shortcut.type}:${shortcut.callback_id}`,
      {
        [`message_action:${SHORTCUT.createTask}`]: createTaskShortcut(svc),
        [`message_action:${SHORTCUT.giveFeedback}`]: giveFeedbackShortcut(),
        [`shortcut:${SHORTCUT.gradePeer}`]: gradePeerShortcut(),
      },
      async ({ ack }) => ack(),
    ),
  );
}
