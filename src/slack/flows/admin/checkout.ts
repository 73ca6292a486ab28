/**
 * Upgrade: a checkout link for a price plan, pushed over the billing view at once (loading) and
 * filled when the service has prepared it, with its 23-hour expiry in the admin's own time zone.
 */
import { CHECKOUT_TITLE, checkoutView, planName } from '../../blocks/admin/billing.js';
import { targetOf } from '../../blocks/admin/common.js';
import { slackUserFacts } from '../../context/admin.js';
import { loadModal, modalRequest } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { type ActionArgs, actionValue } from '../../listeners/router.js';
import { stillAdmin } from './navigate.js';

/** Used when Slack does not say the admin's time zone. */
const FALLBACK_TIME_ZONE = 'UTC';

export async function pushCheckout(svc: Services, args: ActionArgs): Promise<void> {
  const target = targetOf(actionValue(args.action));
  if (!target || !(await stillAdmin(args))) return;
  await loadModal(
    { ...modalRequest(svc, args, args.body.trigger_id, 'admin checkout'), title: CHECKOUT_TITLE, push: true },
    async ({ planning, slackUserId }) => {
      const [checkout, facts] = await Promise.all([
        planning.billing.planCheckout(target.id, {}),
        slackUserFacts(args.client, slackUserId),
      ]);
      return checkoutView(
        target.n || planName({ id: target.id }),
        checkout,
        facts.timeZone ?? FALLBACK_TIME_ZONE,
      );
    },
  );
}
