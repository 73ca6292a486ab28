/** The sandbox's price plans: a small, realistic catalogue (prices in cents, USD). */
import type { PricePlan } from '../planning/models.js';
import type { OrgRec } from './state.js';

/** Users an organization may have without a subscription (above it, adding one answers 402). */
export const FREE_USERS_MAX = 25;

const describe = (name: string, users: number) =>
  `<p>${name}: plan features, validate assumptions and run tasks with up to ${users} people.</p>`;

export const PRICE_PLANS: readonly Required<PricePlan>[] = [
  plan('startup-monthly', 'Startup', 2900, 'month', 10, 81001, true),
  plan('startup-yearly', 'Startup', 29000, 'year', 10, 81002, true),
  plan('business-monthly', 'Business', 9900, 'month', 50, 81003, true),
  plan('business-yearly', 'Business', 99000, 'year', 50, 81004, false),
  plan('enterprise-yearly', 'Enterprise', 249000, 'year', 500, 81005, false, true),
];

function plan(
  slug: string,
  productName: string,
  price: number,
  interval: 'month' | 'year',
  usersMax: number,
  variantId: number,
  trialEnabled: boolean,
  isExtra = false,
): Required<PricePlan> {
  return {
    id: `pp-${slug}`,
    slug,
    price,
    interval,
    intervalCount: 1,
    trialEnabled,
    trialInterval: 'day',
    trialIntervalCount: 14,
    productId: 8100,
    variantId,
    productName,
    productDesc: describe(productName, usersMax),
    isExtra,
    isEnabled: true,
    usersMax,
  };
}

export function findPlan(planId: string): Required<PricePlan> | undefined {
  return PRICE_PLANS.find((candidate) => candidate.id === planId);
}

/** A subscription counts while it is not cancelled or expired. */
export function liveSubscription(org: OrgRec): OrgRec['subscription'] {
  const sub = org.subscription;
  return sub && sub.status !== 'cancelled' && sub.status !== 'expired' ? sub : null;
}

export function usersMax(org: OrgRec): number {
  const sub = liveSubscription(org);
  return (sub && findPlan(sub.pricePlanId)?.usersMax) || FREE_USERS_MAX;
}
