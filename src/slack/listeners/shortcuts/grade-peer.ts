/**
 * "Grade a peer" (global shortcut): the grading form, opened at once (it needs no data); a user who
 * cannot act yet sees Connect in its place.
 */
import { GRADE_TITLE, gradeModal } from '../../blocks/grade.js';
import { planningOf } from '../../context/middleware.js';
import { modalRequest, openModal } from '../../context/modal.js';
import { connectBeforeForm, viewSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import type { GlobalShortcutArgs } from '../router.js';

export function gradePeerShortcut(svc: Services) {
  return async (args: GlobalShortcutArgs) => {
    const opened = await openModal(
      modalRequest(svc, args, args.shortcut.trigger_id, 'grade peer'),
      gradeModal(),
    );
    if (opened) {
      await connectBeforeForm(planningOf(args.context), viewSurface(args.client, opened.id, GRADE_TITLE));
    }
  };
}
