/** "New feature" (global shortcut): the feature form, opened at once and filled with the teams. */
import { planningOf } from '../../context/middleware.js';
import { modalRequest } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { openNewFeatureForm } from '../../flows/feature-forms.js';
import type { GlobalShortcutArgs } from '../router.js';

export function newFeatureShortcut(svc: Services) {
  return async (args: GlobalShortcutArgs) => {
    await openNewFeatureForm(
      svc,
      modalRequest(svc, args, args.shortcut.trigger_id, 'new feature open'),
      planningOf(args.context).workspaceId,
    );
  };
}
