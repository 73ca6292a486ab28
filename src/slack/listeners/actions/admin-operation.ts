/** An admin button that changes something at once (confirmed first when it destroys). */
import type { Services } from '../../context/services.js';
import { applyOperation } from '../../flows/admin/operations.js';
import type { ActionArgs } from '../router.js';

export function adminOperationAction(svc: Services) {
  return (args: ActionArgs) => applyOperation(svc, args);
}
