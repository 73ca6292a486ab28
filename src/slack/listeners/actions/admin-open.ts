/** The Home tab's admin button: the same admin modal as `/plan admin`. */
import type { Services } from '../../context/services.js';
import { openAdminModal } from '../../flows/admin/open.js';
import type { ActionArgs } from '../router.js';

export function adminOpenAction(svc: Services) {
  return (args: ActionArgs) => openAdminModal(svc, args, args.body.trigger_id);
}
