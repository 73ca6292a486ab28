/** Enter in an admin section's search box. */
import type { Services } from '../../context/services.js';
import { searchAction } from '../../flows/admin/search.js';
import type { ActionArgs } from '../router.js';

export function adminSearchAction(svc: Services) {
  return (args: ActionArgs) => searchAction(svc, args);
}
