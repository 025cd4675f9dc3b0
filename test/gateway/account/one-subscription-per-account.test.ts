/**
 * One live subscription per account, also against Checkout Sessions left open: a new "Subscribe"
 * expires the account's earlier open session (Stripe keeps one payable for 24 hours, our claim lasts
 * 30 minutes), and a second subscription that arrives anyway is cancelled at once, without giving the
 * account a longer paid period, with a notice for the operator that names ids only.
 * Real parts: the Stripe stand-in over HTTP, a SQLite state, signed webhooks into handleBillingEvent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveSubscription, startSubscriptionCheckout } from '../../../gateway/account/stripe-billing.js';
import type { Account } from '../../../gateway/state/gateway-state.js';
import { type BillingStandIn, startBillingStandIn } from '../../support/billing-stand-in.js';

const MINUTE = 60_000;
let world: BillingStandIn;
let account: Account;

beforeEach(async () => {
  world = await startBillingStandIn();
  account = await world.state.createAccount({
    id: 'acct_one_subscription',
    plan: 'api',
    createdAt: new Date(world.clock.nowMs),
    periodAnchor: new Date(world.clock.nowMs),
  });
}, 60_000);

afterEach(async () => {
  await world?.close();
});

const sessionOf = (url: string) => world.fake.sessions().find((s) => s.url === url)!;

/**
 * A subscription session for the same customer and account opened outside the service's checkout
 * (say, by an older version of the service, or in the dashboard), still open.
 */
const openElsewhere = (customer: string) =>
  world.stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    line_items: [{ price: world.deps.priceId, quantity: 1 }],
    subscription_data: { metadata: { account_id: account.id } },
    success_url: 'https://sbm.example/account',
  });

/** The buyer presses "Pay" on the stand-in's hosted page, as a browser would. */
async function payOnPage(sessionId: string): Promise<number> {
  const response = await fetch(`${world.fake.url}/c/pay/${sessionId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'email=holder%40example.com',
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.status;
}

describe('one subscription per account', () => {
  it('expires the earlier open checkout when the account starts a new one: its page takes no payment', async () => {
    const first = sessionOf(await startSubscriptionCheckout(world.deps, account));
    world.clock.nowMs += 31 * MINUTE; // the claim on the first checkout has lapsed
    const second = sessionOf(await startSubscriptionCheckout(world.deps, account));

    expect(world.fake.session(first.id)!.status).toBe('expired');
    expect(world.fake.events.map((e) => e.event.type)).toContain('checkout.session.expired');
    await payOnPage(first.id);
    expect(world.fake.session(first.id)!.status).toBe('expired');
    expect(world.fake.subscriptions()).toEqual([]);

    expect(await payOnPage(second.id)).toBe(303);
    expect(world.fake.subscriptions()).toHaveLength(1);
    expect(world.webhookFailures).toEqual([]);
  });

  it('cancels at once a second subscription paid through a session opened elsewhere, keeping the first and its period', async () => {
    const ours = sessionOf(await startSubscriptionCheckout(world.deps, account));
    const elsewhere = await openElsewhere(String(ours.customer));
    await payOnPage(ours.id);
    const kept = world.fake.session(ours.id)!.subscription as string;
    const paidEnd = (await world.state.getAccount(account.id))!.paidPeriodEnd;
    expect(paidEnd).not.toBeNull();

    world.clock.nowMs += 3 * 24 * 60 * MINUTE;
    await payOnPage(elsewhere.id);
    const duplicate = world.fake.session(elsewhere.id)!.subscription as string;

    expect(world.fake.subscription(duplicate)!.status).toBe('canceled');
    expect(world.fake.subscription(kept)!.status).toBe('active');
    const stored = await world.state.billing.listSubscriptions(account.id);
    expect(stored.map((s) => [s.id, s.status]).sort()).toEqual(
      [
        [kept, 'active'],
        [duplicate, 'canceled'],
      ].sort(),
    );
    expect(liveSubscription(stored)?.id).toBe(kept);
    // The duplicate's paid first invoice did not move the account's paid period.
    expect((await world.state.getAccount(account.id))!.paidPeriodEnd).toEqual(paidEnd);
    expect(world.notices).toEqual([
      expect.objectContaining({ level: 'warn', account: account.id, cancelled: duplicate, kept }),
    ]);
    expect(JSON.stringify(world.notices)).not.toContain('@');
    expect(world.webhookFailures).toEqual([]);
  });

  it('keeps the first subscription made, whichever event comes first', async () => {
    const ours = sessionOf(await startSubscriptionCheckout(world.deps, account));
    const elsewhere = await openElsewhere(String(ours.customer));
    // Both paid while the webhook is unreachable, the newer one first; then Stripe redelivers the
    // newer one's events before the older one's.
    world.fake.setWebhook('http://127.0.0.1:9/', 'whsec_unreachable');
    await world.fake.paySession(ours.id, 'holder@example.com');
    world.clock.nowMs += 5 * MINUTE;
    await world.fake.paySession(elsewhere.id, 'holder@example.com');
    const older = world.fake.session(ours.id)!.subscription as string;
    const newer = world.fake.session(elsewhere.id)!.subscription as string;
    world.restoreWebhook();
    const redeliveries = [...world.fake.events].reverse();
    for (const { event } of redeliveries) await world.fake.redeliver(event.id);

    expect(world.fake.subscription(older)!.status).toBe('active');
    expect(world.fake.subscription(newer)!.status).toBe('canceled');
    expect(world.notices.map((n) => n.cancelled)).toEqual([newer]);
  });

  it('does not take an ended subscription we have not heard the end of yet for a rival', async () => {
    const first = sessionOf(await startSubscriptionCheckout(world.deps, account));
    await payOnPage(first.id);
    const ended = world.fake.session(first.id)!.subscription as string;
    // It ends while the webhook is unreachable: our copy still says active.
    world.fake.setWebhook('http://127.0.0.1:9/', 'whsec_unreachable');
    world.clock.nowMs += 40 * 24 * 60 * MINUTE;
    await world.fake.endSubscription(ended);
    world.restoreWebhook();
    expect((await world.state.billing.listSubscriptions(account.id)).map((s) => s.status)).toEqual([
      'active',
    ]);

    const again = await openElsewhere(String(first.customer));
    await payOnPage(again.id);
    const renewed = world.fake.session(again.id)!.subscription as string;
    expect(world.fake.subscription(renewed)!.status).toBe('active');
    expect(world.notices).toEqual([]);
    expect(world.webhookFailures).toEqual([]);
  });
});
