/** An admin button that opens a form over the section view (new invitation, rename, add member…). */
import type { Services } from '../../context/services.js';
import { pushForm } from '../../flows/admin/forms.js';
import type { ActionArgs } from '../router.js';

export function adminFormAction(svc: Services) {
  return (args: ActionArgs) => pushForm(svc, args);
}
