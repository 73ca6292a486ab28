/** An admin section view's Search button (the notions' search). */
import type { Services } from '../../context/services.js';
import { searchSubmission } from '../../flows/admin/search.js';
import type { SubmitArgs } from '../router.js';

export function adminSectionSubmission(svc: Services) {
  return (args: SubmitArgs) => searchSubmission(svc, args);
}
