/**
 * Billing: the subscription in plain words, the price plans, invoices, and Upgrade — a checkout
 * link pushed over the billing view, with its 23-hour expiry in the admin's own time zone.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import {
  button,
  context,
  link,
  type Mrkdwn,
  md,
  modal,
  packSections,
  section,
} from '../../blockkit/index.js';
import type { Checkout, Invoice, PricePlan, Subscription } from '../../planning/index.js';
import { formatLocal } from '../../time.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { loadModal, modalRequest } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { slackUserFacts } from '../kit/slack-user.js';
import {
  type AdminPlace,
  type Flash,
  flashBlocks,
  pager,
  placeOf,
  placeTitle,
  placeValue,
  shortName,
  targetOf,
  targetValue,
} from './common.js';
import { ADMIN_ACTION, ADMIN_VIEW } from './ids.js';
import { readerTime } from './invitations.js';

/** A live subscription can be changed or cancelled; the others cannot. */
export function isLive(subscription: Subscription | null): subscription is Subscription {
  return Boolean(
    subscription && ['on_trial', 'active', 'past_due', 'paused'].includes(subscription.status ?? ''),
  );
}

export function planName(plan: Pick<PricePlan, 'productName' | 'slug' | 'id'> | undefined): string {
  return plan?.productName ?? plan?.slug ?? plan?.id ?? 'an unnamed plan';
}

/**
 * An amount in US cents, with its currency: `$12.00 USD`. The service bills in US dollars (its
 * contract gives invoice amounts "in cents (USD)", and price plans in cents of the same store).
 */
export function usd(cents: number): string {
  return `$${(cents / 100).toFixed(2)} USD`;
}

/** `$12.00 USD per month`, `$100.00 USD every 3 months`; prices are in cents. */
export function priceText(plan: Pick<PricePlan, 'price' | 'interval' | 'intervalCount'>): string {
  if (plan.price === undefined) return 'price not given';
  const amount = usd(plan.price);
  const count = plan.intervalCount ?? 1;
  if (!plan.interval) return amount;
  return count === 1 ? `${amount} per ${plan.interval}` : `${amount} every ${count} ${plan.interval}s`;
}

/** The subscription's status and what happens next, in one sentence. */
export function subscriptionSentence(subscription: Subscription | null): Mrkdwn {
  if (!subscription) return md`Your organization has no subscription: it is on the free plan.`;
  const plan = planName(subscription.pricePlan);
  switch (subscription.status) {
    case 'on_trial':
      return md`On a trial of *${plan}* until ${readerTime(subscription.trialEndsAt ?? undefined)}; then it renews ${readerTime(subscription.renewsAt ?? undefined)}.`;
    case 'active':
      return md`Subscribed to *${plan}*; it renews ${readerTime(subscription.renewsAt ?? undefined)}.`;
    case 'past_due':
      return md`*${plan}*: the last payment failed; the card on file is being retried.`;
    case 'paused':
      return md`*${plan}* is paused: nothing is charged until it resumes.`;
    case 'cancelled':
      return md`*${plan}* was cancelled; it ends ${readerTime(subscription.endsAt ?? undefined)}.`;
    case 'unpaid':
      return md`*${plan}* is unpaid: payments failed and the subscription is on hold.`;
    case 'expired':
      return md`*${plan}* has expired.`;
    default:
      return md`Subscribed to *${plan}*.`;
  }
}

export interface BillingData {
  subscription: Subscription | null;
  plans: PricePlan[];
  invoices: Invoice[];
  invoicesTotal: number | undefined;
}

export function billingView(place: AdminPlace, data: BillingData, flash?: Flash): ModalView {
  const live = isLive(data.subscription) ? data.subscription : undefined;
  const current = live?.pricePlan?.id;
  const blocks: KnownBlock[] = [
    ...flashBlocks(flash),
    section(md`:credit_card: ${subscriptionSentence(data.subscription)}`, {
      ...(live
        ? {
            accessory: button('Cancel subscription', ADMIN_ACTION.cancelSubscription, {
              value: targetValue({
                id: live.pricePlan?.id ?? 'subscription',
                name: shortName(planName(live.pricePlan)),
              }),
              style: 'danger',
              confirm: {
                title: 'Cancel the subscription?',
                text: md`*${planName(live.pricePlan)}* stops renewing; it ends at the end of the period already paid.`,
                confirm: 'Cancel subscription',
                deny: 'Keep it',
                style: 'danger',
              },
            }),
          }
        : {}),
    }),
    section(md`*Price plans*`),
  ];
  for (const plan of data.plans.filter((p) => p.isEnabled !== false).slice(0, 20)) {
    const name = shortName(planName(plan));
    const text = md`*${planName(plan)}* — ${priceText(plan)}${plan.usersMax ? ` · up to ${plan.usersMax} people` : ''}${plan.id === current ? ' · _current plan_' : ''}`;
    const value = targetValue({ id: plan.id, name });
    const accessory =
      plan.id === current
        ? undefined
        : live
          ? button('Switch to it', ADMIN_ACTION.changePlan, {
              value,
              confirm: {
                title: 'Change the plan?',
                text: md`The subscription moves to *${planName(plan)}* (${priceText(plan)}) now; the next invoice says what is charged.`,
                confirm: 'Change plan',
              },
            })
          : button('Upgrade', ADMIN_ACTION.checkout, { value, style: 'primary' });
    blocks.push(section(text, accessory ? { accessory } : {}));
  }
  blocks.push(section(md`*Invoices*`));
  const lines = data.invoices.map(invoiceLine);
  blocks.push(...(lines.length > 0 ? packSections(lines) : [context(md`No invoice on this page.`)]));
  blocks.push(...pager(place, data.invoices.length, data.invoicesTotal, 'invoice'));
  return modal({
    callbackId: ADMIN_VIEW.section,
    title: placeTitle(place),
    privateMetadata: placeValue(place),
    blocks,
  });
}

function invoiceLine(invoice: Invoice): Mrkdwn {
  const amount = invoice.total === undefined ? '' : ` · ${usd(invoice.total)}`;
  const label = `${invoice.pricePlan?.name ?? 'Invoice'}${amount} · ${invoice.status ?? 'unknown'}`;
  const when = readerTime(invoice.createdAt);
  const url = invoice.url && URL.canParse(invoice.url) ? invoice.url : undefined;
  return url ? md`• ${when} — ${link(url, label)}` : md`• ${when} — ${label}`;
}

export const CHECKOUT_TITLE = 'Upgrade';

/**
 * The checkout link, with its expiry in the admin's own time zone (the link lives 23 hours).
 * `billing` is the Billing place it was pushed over: *Done* shows it again as the service has it
 * then (navigate.ts `checkoutDoneSubmission`), since paying happens outside Slack.
 */
export function checkoutView(
  plan: string,
  checkout: Checkout,
  timeZone: string,
  billing: AdminPlace,
): ModalView {
  const expires = checkout.expiresAt ? new Date(checkout.expiresAt) : undefined;
  const when =
    expires && !Number.isNaN(expires.getTime())
      ? md`The link expires on *${formatLocal(expires, timeZone)}*, 23 hours after it was made.`
      : md`The link expires 23 hours after it was made.`;
  return modal({
    callbackId: ADMIN_VIEW.checkout,
    title: CHECKOUT_TITLE,
    submit: 'Done',
    close: 'Back',
    // Back shows Billing again as the service has it, as Done does (navigate.ts `checkoutClosed`).
    notifyOnClose: true,
    privateMetadata: placeValue(billing),
    blocks: [
      section(
        md`Checkout for *${plan}*: ${link(checkout.url, 'open the checkout')} to pay and start the subscription.`,
      ),
      section(when),
      context(
        md`Paying happens on the billing provider's page; press *Done* once paid to see the subscription.`,
      ),
    ],
  });
}

/** Used when Slack does not say the admin's time zone. */
const FALLBACK_TIME_ZONE = 'UTC';

export async function pushCheckout(svc: Services, args: ActionArgs): Promise<void> {
  const target = targetOf(actionValue(args.action));
  if (!target) return;
  const billing = placeOf(args.body.view?.private_metadata) ?? { section: 'billing', page: 1 };
  await loadModal(
    { ...modalRequest(svc, args, args.body.trigger_id, 'admin checkout'), title: CHECKOUT_TITLE, push: true },
    async ({ planning, slackUserId }) => {
      const [checkout, facts] = await Promise.all([
        planning.billing.planCheckout(target.id, {}),
        slackUserFacts(args.client, slackUserId),
      ]);
      return checkoutView(
        target.name || planName({ id: target.id }),
        checkout,
        facts.timeZone ?? FALLBACK_TIME_ZONE,
        billing,
      );
    },
  );
}
