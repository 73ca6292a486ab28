/** Binds the shortcuts declared in the manifest, message and global ones in their own tables. */
import type { App } from '@slack/bolt';
import {
  ackThen,
  type GlobalShortcutArgs,
  type Handler,
  lookup,
  type MessageShortcutArgs,
  type ShortcutArgs,
} from '../../bolt/router.js';
import { logEvidenceShortcut } from '../../features/evidence.js';
import { newFeatureShortcut } from '../../features/feature-form.js';
import { FEATURE_SHORTCUT } from '../../features/ids.js';
import { giveFeedbackShortcut } from '../../feedback/give.js';
import { FEEDBACK_SHORTCUT } from '../../feedback/ids.js';
import { GRADE_SHORTCUT } from '../../grades/ids.js';
import { gradePeerShortcut } from '../../grades/peer-grade.js';
import type { Services } from '../../kit/services.js';
import { createTaskShortcut } from '../../tasks/create.js';
import { logDiscoveryShortcut } from '../../tasks/discovery.js';
import { TASK_SHORTCUT } from '../../tasks/ids.js';

export function registerShortcuts(app: App, svc: Services) {
  const message = lookup<MessageShortcutArgs>({
    [TASK_SHORTCUT.createTask]: createTaskShortcut(svc),
    [FEEDBACK_SHORTCUT.giveFeedback]: giveFeedbackShortcut(svc),
    [TASK_SHORTCUT.logDiscovery]: logDiscoveryShortcut(svc),
    [FEATURE_SHORTCUT.logEvidence]: logEvidenceShortcut(svc),
  });
  const global = lookup<GlobalShortcutArgs>({
    [GRADE_SHORTCUT.gradePeer]: gradePeerShortcut(svc),
    [FEATURE_SHORTCUT.newFeature]: newFeatureShortcut(svc),
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
