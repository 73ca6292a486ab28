/** Moving through the admin modal: a section pushed from the root view, a page, a team, a channel, back. */
import { AdminPlace } from '../../blocks/admin/common.js';
import type { Services } from '../../context/services.js';
import { goTo, pushSection } from '../../flows/admin/navigate.js';
import { parseCarried } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';

export function adminSectionAction(svc: Services) {
  return (args: ActionArgs) => pushSection(svc, args, actionValue(args.action));
}

/** Previous, Next, Open, Members, ◀ Back: the button carries the place to show. */
export function adminGoAction(svc: Services) {
  return (args: ActionArgs) => goTo(svc, args, parseCarried(AdminPlace, actionValue(args.action)));
}
