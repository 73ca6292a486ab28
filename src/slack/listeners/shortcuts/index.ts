/** Binds the shortcuts declared in the manifest, message and global ones in their own tables. */
import type { App } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { SHORTCUT } from '../../ids.js';
import {
  ackThen,
  type GlobalShortcutArgs,
  type Handler,
  lookup,
  type MessageShortcutArgs,
  type ShortcutArgs,
} from '../router.js';
import { createTaskShortcut } from './create-task.js';
import { giveFeedbackShortcut } from './give-feedback.js';
import { gradePeerShortcut } from './grade-peer.js';
import { logDiscoveryShortcut } from './log-discovery.js';
import { logEvidenceShortcut } from './log-evidence.js';
import { newFeatureShortcut } from './new-feature.js';

export function registerShortcuts(app: App, svc: Services) {
  const message = lookup<MessageShortcutArgs>({
    [SHORTCUT.createTask]: createTaskShortcut(svc),
    [SHORTCUT.giveFeedback]: giveFeedbackShortcut(svc),
    [SHORTCUT.logDiscovery]: logDiscoveryShortcut(svc),
    [SHORTCUT.logEvidence]: logEvidenceShortcut(svc),
  });
  const global = lookup<GlobalShortcutArgs>({
    [SHORTCUT.gradePeer]: gradePeerShortcut(svc),
    [SHORTCUT.newFeature]: newFeatureShortcut(svc),
  });
  app.shortcut(
    /.*/,
    // The shortcut's type picks the table, and so makes the table's narrower argument type hold.
    ackThen<ShortcutArgs>(
      ({ shortcut }) =>
        (shortcut.type === 'message_action' ? message(shortcut.callback_id) : global(shortcut.callback_id)) as
          | Handler<ShortcutArgs>
          | undefined,
    ),
  );
}
