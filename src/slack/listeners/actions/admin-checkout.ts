/** Billing's Upgrade button: a checkout link with its local expiry, pushed over the billing view. */
import type { Services } from '../../context/services.js';
import { pushCheckout } from '../../flows/admin/checkout.js';
import type { ActionArgs } from '../router.js';

export function adminCheckoutAction(svc: Services) {
  return (args: ActionArgs) => pushCheckout(svc, args);
}
