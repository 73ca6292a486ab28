/**
 * Billing. Reading plans, the subscription and invoices is open to every member; checkout and
 * subscription changes are for owners and admins. The contract has no "pay" operation, so a
 * subscription starts when the checkout link is opened (GET /sandbox/checkout/{id}) or through
 * the `subscribe` test handle. A checkout is refused with 403 `not-allowed` while a live
 * (not cancelled or expired) subscription exists.
 */
import { addHours, addMonths, addYears } from 'date-fns';
import { LIMITS } from '../../planning/models.js';
import type { AreaHandlers } from '../context.js';
import { ApiError, notAllowed, notFound, raise } from '../errors.js';
import { findPlan, liveSubscription } from '../plans.js';
import { requireAdmin } from '../rbac.js';
import type { OrgRec, SubscriptionRec } from '../state.js';
import type { Store } from '../store.js';
import { checkoutView, invoiceView, page, pricePlanListView, subscriptionView } from '../views.js';

const TAX_RATE = 0.2;

function planOr404(planId: string) {
  return findPlan(planId) ?? raise(notFound('Price plan'));
}

/** A numeric id (subscriptions, orders, invoices are numbered in the billing provider). */
const numericId = (store: Store) => Number.parseInt(store.nextId(), 16);

function renewal(from: number, planId: string): number {
  const plan = planOr404(planId);
  return (
    plan.interval === 'year' ? addYears(from, plan.intervalCount) : addMonths(from, plan.intervalCount)
  ).getTime();
}

function bill(store: Store, org: OrgRec, sub: SubscriptionRec): void {
  const plan = planOr404(sub.pricePlanId);
  org.invoices.push({
    id: String(numericId(store)),
    subscriptionId: sub.subscriptionId,
    customerId: sub.customerId,
    pricePlanId: plan.id,
    subtotal: plan.price,
    tax: Math.round(plan.price * TAX_RATE),
    createdAt: store.now(),
  });
}

/** Starts an active subscription on a plan: what completing a checkout does. */
export function subscribe(store: Store, org: OrgRec, planId: string): SubscriptionRec {
  planOr404(planId);
  if (liveSubscription(org)) throw notAllowed('The organization already has a subscription');
  const now = store.now();
  const sub: SubscriptionRec = {
    subscriptionId: numericId(store),
    orderId: numericId(store),
    customerId: numericId(store),
    pricePlanId: planId,
    status: 'active',
    renewsAt: renewal(now, planId),
    createdAt: now,
    updatedAt: now,
  };
  org.subscription = sub;
  bill(store, org, sub);
  return sub;
}

/** Completes the checkout behind a link handed out by planCheckout. */
export function completeCheckout(store: Store, checkoutId: string): OrgRec {
  for (const org of Object.values(store.state.orgs)) {
    const checkout = org.checkouts.find((c) => c.id === checkoutId);
    if (!checkout) continue;
    if (checkout.completed)
      throw new ApiError(409, 'checkout-completed', 'This checkout was already completed');
    if (checkout.expiresAt <= store.now()) throw notAllowed('This checkout link has expired');
    subscribe(store, org, checkout.pricePlanId);
    checkout.completed = true;
    return org;
  }
  throw notFound('Checkout');
}

export const billing: AreaHandlers<'billing'> = {
  invoiceList: (ctx) =>
    page(
      'invoices',
      [...ctx.org.invoices].reverse().map((invoice) => invoiceView(invoice, ctx.origin)),
      ctx.query,
    ),

  planList: () => pricePlanListView(),

  planCheckout: (ctx) => {
    requireAdmin(ctx, 'start a checkout');
    const plan = planOr404(ctx.params.pricePlanId);
    if (liveSubscription(ctx.org)) {
      throw notAllowed('The organization already has a subscription; change its price plan instead');
    }
    const now = ctx.store.now();
    const checkout = {
      id: ctx.store.nextId(),
      pricePlanId: plan.id,
      darkMode: ctx.query.darkMode === 1,
      expiresAt: addHours(now, LIMITS.checkoutExpiryHours).getTime(),
      completed: false,
      createdAt: now,
    };
    ctx.org.checkouts.push(checkout);
    return checkoutView(checkout, ctx.origin);
  },

  subscriptionRead: (ctx) => subscriptionView(ctx.store, ctx.org, ctx.origin),

  subscriptionUpdate: (ctx) => {
    requireAdmin(ctx, 'change the subscription');
    const plan = planOr404(ctx.params.pricePlanId);
    const sub = liveSubscription(ctx.org) ?? raise(notFound('Subscription'));
    if (sub.pricePlanId !== plan.id) {
      sub.pricePlanId = plan.id;
      sub.updatedAt = ctx.store.now();
      sub.renewsAt = renewal(sub.updatedAt, plan.id);
      bill(ctx.store, ctx.org, sub);
    }
    return subscriptionView(ctx.store, ctx.org, ctx.origin);
  },

  subscriptionCancel: (ctx) => {
    requireAdmin(ctx, 'cancel the subscription');
    const sub = ctx.org.subscription ?? raise(notFound('Subscription'));
    if (!liveSubscription(ctx.org)) throw notAllowed(`The subscription is already ${sub.status}`);
    sub.status = 'cancelled';
    sub.endsAt = sub.renewsAt;
    sub.updatedAt = ctx.store.now();
    return subscriptionView(ctx.store, ctx.org, ctx.origin);
  },
};
