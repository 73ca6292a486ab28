import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/planning/index.js';
import { clientFor, FakeClock, failure, useSandbox } from '../helpers/sandbox.js';

const clock = new FakeClock(Date.UTC(2026, 2, 1, 12, 0, 0));
const ctx = useSandbox({ clock: clock.now });

/** A fresh organization per test: billing state is per organization. */
async function freshOrg() {
  const org = await ctx.sandbox.createOrganization(`Billing ${Math.random().toString(36).slice(2, 8)}`);
  return {
    org,
    owner: clientFor(ctx.sandbox, org.ownerToken),
    member: clientFor(ctx.sandbox, org.memberToken),
  };
}

describe('price plans', () => {
  it('lists a few realistic plans, readable by any member', async () => {
    const { member } = await freshOrg();
    const { total, pricePlans } = await member.billing.planList();
    expect(total).toBe(pricePlans.length);
    expect(pricePlans.length).toBeGreaterThanOrEqual(3);
    for (const plan of pricePlans) {
      expect(plan).toMatchObject({ id: expect.any(String), price: expect.any(Number), isEnabled: true });
      expect(['month', 'year']).toContain(plan.interval);
    }
  });
});

describe('checkout', () => {
  it('prepares a link that expires in 23 hours', async () => {
    const { owner } = await freshOrg();
    const [plan] = (await owner.billing.planList()).pricePlans;
    const checkout = await owner.billing.planCheckout(plan?.id as string, { darkMode: 1 });
    expect(checkout).toMatchObject({
      darkMode: true,
      productId: plan?.productId,
      variantId: plan?.variantId,
    });
    expect(Date.parse(checkout.expiresAt as string) - clock.now()).toBe(23 * 3_600_000);
    expect(checkout.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/checkout\//);
  });

  it('is for owners and admins; an unknown plan is 404', async () => {
    const { owner, member } = await freshOrg();
    expect(await failure(member.billing.planCheckout('pp-startup-monthly'))).toBeInstanceOf(ForbiddenError);
    expect(await failure(owner.billing.planCheckout('pp-nonexistent'))).toBeInstanceOf(NotFoundError);
  });

  it('opening the link starts the subscription; then checkout is refused (403)', async () => {
    const { owner } = await freshOrg();
    expect(await owner.billing.subscriptionRead()).toBeNull();
    const checkout = await owner.billing.planCheckout('pp-business-monthly');
    const page = await request(checkout.url);
    expect(page.statusCode).toBe(200);
    await page.body.text();
    const sub = await owner.billing.subscriptionRead();
    expect(sub).toMatchObject({ status: 'active', pricePlan: { id: 'pp-business-monthly' } });
    const refused = await failure(owner.billing.planCheckout('pp-startup-monthly'));
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused.message).toMatch(/already has a subscription/);
  });

  it('an expired link does not subscribe', async () => {
    const { owner } = await freshOrg();
    const checkout = await owner.billing.planCheckout('pp-startup-monthly');
    clock.advanceHours(23);
    const page = await request(checkout.url);
    expect(page.statusCode).toBe(403);
    await page.body.text();
    expect(await owner.billing.subscriptionRead()).toBeNull();
  });
});

describe('subscription', () => {
  it('reads JSON null when there is none; update and cancel answer 404 then', async () => {
    const { owner } = await freshOrg();
    expect(await owner.billing.subscriptionRead()).toBeNull();
    expect(await failure(owner.billing.subscriptionUpdate('pp-startup-yearly'))).toBeInstanceOf(
      NotFoundError,
    );
    expect(await failure(owner.billing.subscriptionCancel())).toBeInstanceOf(NotFoundError);
  });

  it('switches plan, bills it, and cancels (status cancelled); members only read', async () => {
    const { org, owner, member } = await freshOrg();
    ctx.sandbox.subscribe(org.orgId, 'pp-startup-monthly');
    expect(await failure(member.billing.subscriptionUpdate('pp-business-monthly'))).toBeInstanceOf(
      ForbiddenError,
    );
    const switched = await owner.billing.subscriptionUpdate('pp-business-monthly');
    expect(switched).toMatchObject({
      status: 'active',
      pricePlan: { id: 'pp-business-monthly', usersMax: 50 },
    });
    const { invoices } = await member.billing.invoiceList();
    expect(invoices.map((i) => i.pricePlan?.id)).toEqual(['pp-business-monthly', 'pp-startup-monthly']);
    expect(invoices[0]).toMatchObject({
      status: 'paid',
      total: (invoices[0]?.subtotal ?? 0) + (invoices[0]?.tax ?? 0),
    });
    expect((await owner.account.read()).orgs[0]?.orgUsersMax).toBe(50);
    const cancelled = await owner.billing.subscriptionCancel();
    expect(cancelled.status).toBe('cancelled');
    expect((await member.billing.subscriptionRead())?.status).toBe('cancelled');
    expect(await failure(owner.billing.subscriptionCancel())).toBeInstanceOf(ForbiddenError);
    // A cancelled subscription no longer blocks a new checkout.
    expect((await owner.billing.planCheckout('pp-startup-yearly')).url).toContain('/sandbox/checkout/');
  });
});
