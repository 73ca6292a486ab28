/** Binds the shortcuts declared in the manifest. */
import type { App, GlobalShortcut, MessageShortcut } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { SHORTCUT } from '../../ids.js';
import { createTaskShortcut } from './create-task.js';
import { giveFeedbackShortcut } from './give-feedback.js';
import { gradePeerShortcut } from './grade-peer.js';

export function registerShortcuts(app: App, svc: Services) {
  app.shortcut<MessageShortcut>(
    { callback_id: SHORTCUT.createTask, type: 'message_action' },
    createTaskShortcut(svc),
  );
  app.shortcut<MessageShortcut>(
    { callback_id: SHORTCUT.giveFeedback, type: 'message_action' },
    giveFeedbackShortcut(),
  );
  app.shortcut<GlobalShortcut>({ callback_id: SHORTCUT.gradePeer, type: 'shortcut' }, gradePeerShortcut());
}
