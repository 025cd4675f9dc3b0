import Stripe from 'stripe';
import { HttpError } from '../http/http-errors.js';
import type { StripeApiBase } from '../orders/order-config.js';
import type { SubscriptionRecord } from '../state/billing-state.js';
import type { Account, GatewayState } from '../state/gateway-state.js';

/**
 * The Stripe API version this code reads fields by, pinned here rather than left to the package's
 * default (stripe 23.1.0's default, and the version its types describe). Since 2025-03-31 a
 * subscription's period is on `items.data[].current_period_*` and an invoice's subscription under
 * `parent.subscription_details.subscription`; upgrading the package must not move these silently.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** Subscription statuses that hold the plan (a second checkout is refused while one exists). */
const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete']);
/** A checkout claim lasts as long as a Checkout Session stays open on our side. */
const CHECKOUT_CLAIM_MS = 30 * 60_000;
/** Invoices that start a billing period; a proration (`subscription_update`) or `manual` does not. */
const PERIOD_REASONS = new Set(['subscription_create', 'subscription_cycle']);

export interface BillingDeps {
  state: GatewayState;
  now: () => Date;
  stripe: Stripe;
  /** `SBM_API_PLAN_PRICE`: the Stripe Price of the plan (99 USD a month). */
  priceId: string;
  baseUrl: string;
  /** Where operator notices go (a duplicate subscription cancelled); stderr as a JSON line by default. */
  notice?: (entry: BillingNotice) => void;
}

export interface BillingNotice {
  level: 'warn';
  message: string;
  account: string;
  cancelled: string;
  kept: string;
}

export function billingStripeClient(secretKey: string, apiBase: StripeApiBase | null): Stripe {
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(apiBase ? { host: apiBase.host, port: apiBase.port, protocol: apiBase.protocol } : {}),
  });
}

/** Where Stripe's hosted pages live: Checkout and the Customer Portal. */
const STRIPE_PAGES_ORIGINS = ['https://checkout.stripe.com', 'https://billing.stripe.com'] as const;

/**
 * The origins the account page's forms are redirected to (its `form-action`): Stripe's hosted pages,
 * or a stand-in's (`STRIPE_API_BASE`), which serves its pages on the origin of its API.
 */
export function stripePagesOrigins(apiBase: StripeApiBase | null): string[] {
  return apiBase ? [new URL(apiBase.url).origin] : [...STRIPE_PAGES_ORIGINS];
}

export function liveSubscription(subscriptions: readonly SubscriptionRecord[]): SubscriptionRecord | null {
  return subscriptions.find((s) => LIVE_STATUSES.has(s.status)) ?? null;
}

/**
 * "Subscribe": the account's Stripe Customer (made once, metadata `account_id`, reused), then a
 * Checkout Session in subscription mode for the plan's Price. One live subscription per account, and
 * one checkout at a time: the claim row makes two concurrent clicks open one session (the second gets
 * 409), and the idempotency keys make a retried Stripe call return the same customer and session.
 */
export async function startSubscriptionCheckout(deps: BillingDeps, account: Account): Promise<string> {
  const now = deps.now();
  const live = liveSubscription(await deps.state.billing.listSubscriptions(account.id));
  if (live) {
    throw new HttpError(
      409,
      `This account already has a subscription (${live.status}); manage it with "Manage billing" on /account.`,
    );
  }
  const claimed = await deps.state.billing.claimCheckout(
    account.id,
    now,
    new Date(now.getTime() + CHECKOUT_CLAIM_MS),
  );
  if (!claimed.claimed) {
    throw new HttpError(
      409,
      'A checkout for this account is already open' +
        (claimed.claim.url ? `: continue it at ${claimed.claim.url}` : '; finish it or wait 30 minutes') +
        '.',
    );
  }
  try {
    const customer = await customerOf(deps, account);
    await expireOpenSubscriptionCheckouts(deps, customer);
    const session = await deps.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        line_items: [{ price: deps.priceId, quantity: 1 }],
        client_reference_id: account.id,
        metadata: { account_id: account.id },
        subscription_data: { metadata: { account_id: account.id } },
        success_url: `${deps.baseUrl}/account?checkout=done`,
        cancel_url: `${deps.baseUrl}/account?checkout=cancelled`,
      },
      { idempotencyKey: `sbm-plan-checkout-${account.id}-${now.getTime()}` },
    );
    if (!session.url) throw new HttpError(502, 'Stripe returned a Checkout Session without a url.');
    await deps.state.billing.setCheckoutSession(account.id, session.id, session.url);
    return session.url;
  } catch (error) {
    await deps.state.billing.releaseCheckout(account.id);
    throw asHttpError(error);
  }
}

/**
 * Expires the customer's Checkout Sessions in subscription mode that are still open (an earlier
 * checkout left unpaid: Stripe keeps one payable for 24 hours, our claim lasts 30 minutes), so that
 * only the new session can make a subscription. One that completed meanwhile cannot be expired: that
 * is fine, a second subscription it makes is cancelled when it arrives (`cancelDuplicateSubscriptions`).
 */
async function expireOpenSubscriptionCheckouts(deps: BillingDeps, customer: string): Promise<void> {
  const open = await deps.stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 });
  for (const session of open.data) {
    if (session.mode !== 'subscription') continue;
    try {
      await deps.stripe.checkout.sessions.expire(session.id);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    }
  }
}

async function customerOf(deps: BillingDeps, account: Account): Promise<string> {
  const stored = await deps.state.billing.getCustomerId(account.id);
  if (stored) return stored;
  const customer = await deps.stripe.customers.create(
    { ...(account.email ? { email: account.email } : {}), metadata: { account_id: account.id } },
    { idempotencyKey: `sbm-customer-${account.id}` },
  );
  return deps.state.billing.putCustomerId(account.id, customer.id, deps.now());
}

/** "Manage billing": a Customer Portal session (cancel at period end, card, invoices). */
export async function openBillingPortal(deps: BillingDeps, account: Account): Promise<string> {
  const customer = await deps.state.billing.getCustomerId(account.id);
  if (!customer) throw new HttpError(409, 'This account has no billing yet: subscribe first.');
  try {
    const portal = await deps.stripe.billingPortal.sessions.create({
      customer,
      return_url: `${deps.baseUrl}/account`,
    });
    return portal.url;
  } catch (error) {
    throw asHttpError(error);
  }
}

/** Stripe's failures as clear answers: unavailable (503, try again) or refused (502, our setup). */
export function asHttpError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error instanceof Stripe.errors.StripeAPIError && (error.statusCode ?? 500) >= 500)
  ) {
    return new HttpError(503, 'Stripe is unavailable at the moment; try again in a minute.');
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new HttpError(502, `Stripe refused the request (${error.type}); the operator has been told.`);
  }
  return error;
}

export type BillingEventResult =
  | { handled: 'duplicate' }
  | { handled: 'ignored'; reason: string }
  | { handled: 'synced'; subscription: string | null; periodExtended: boolean };

const BILLING_EVENTS = new Set([
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

/**
 * One verified event, handled once per event id. Events come more than once and in any order, so no
 * event's snapshot is applied: the subscription (and the invoice) are read again from Stripe and
 * stored as they are now. The only change that needs the event itself is the paid period, and it
 * moves only forward (`extendPaidPeriod`), so a replay or a late delivery leaves the same state.
 */
export async function handleBillingEvent(
  deps: BillingDeps,
  event: Stripe.Event,
): Promise<BillingEventResult> {
  if (!BILLING_EVENTS.has(event.type)) return { handled: 'ignored', reason: `event type ${event.type}` };
  const object = event.data.object as unknown as Record<string, unknown>;
  if (event.type === 'checkout.session.completed' && object['mode'] !== 'subscription') {
    return { handled: 'ignored', reason: 'a payment-mode session (tax orders)' };
  }
  if (!(await deps.state.billing.recordStripeEvent(event.id, event.type, deps.now()))) {
    return { handled: 'duplicate' };
  }
  try {
    return await applyEvent(deps, event, object);
  } catch (error) {
    // Not handled: forget the id, so Stripe's retry of this event runs it again.
    await deps.state.billing.forgetStripeEvent(event.id);
    throw error;
  }
}

async function applyEvent(
  deps: BillingDeps,
  event: Stripe.Event,
  object: Record<string, unknown>,
): Promise<BillingEventResult> {
  let subscriptionId: string | null = null;
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object as Stripe.Checkout.Session;
    const accountId = session.client_reference_id ?? session.metadata?.['account_id'] ?? null;
    const customer = idOf(session.customer);
    if (accountId && customer) {
      if (!(await deps.state.getAccount(accountId))) {
        return { handled: 'ignored', reason: 'no such account' };
      }
      await deps.state.billing.putCustomerId(accountId, customer, deps.now());
      await deps.state.billing.releaseCheckout(accountId);
    }
    subscriptionId = idOf(session.subscription);
  } else if (event.type.startsWith('invoice.')) {
    return applyInvoice(deps, String(object['id']));
  } else {
    subscriptionId = String(object['id']);
  }
  if (subscriptionId) await syncSubscription(deps, subscriptionId);
  return { handled: 'synced', subscription: subscriptionId, periodExtended: false };
}

/**
 * An invoice, read again from Stripe: its subscription is synced, and a paid invoice that starts a
 * period (`subscription_create`, `subscription_cycle`) of a live subscription extends the account's
 * paid period (forward only). The invoice events and `accounts reconcile` both come here.
 */
export async function applyInvoice(deps: BillingDeps, invoiceId: string): Promise<BillingEventResult> {
  const invoice = await deps.stripe.invoices.retrieve(invoiceId);
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription ?? null);
  if (!subscriptionId) return { handled: 'ignored', reason: 'an invoice without a subscription' };
  const subscription = await syncSubscription(deps, subscriptionId);
  let periodExtended = false;
  // A subscription no longer live (a duplicate just cancelled) opens no paid period.
  if (
    subscription &&
    LIVE_STATUSES.has(subscription.status) &&
    invoice.status === 'paid' &&
    invoice.billing_reason !== null &&
    PERIOD_REASONS.has(invoice.billing_reason)
  ) {
    const period = paidPeriodOf(invoice);
    if (period) {
      const before = await deps.state.getAccount(subscription.accountId);
      const after = await deps.state.billing.extendPaidPeriod(
        subscription.accountId,
        period.start,
        period.end,
      );
      periodExtended = before?.paidPeriodEnd?.getTime() !== after?.paidPeriodEnd?.getTime();
    }
  }
  return { handled: 'synced', subscription: subscriptionId, periodExtended };
}

/** The period an invoice pays for: its subscription line's period (the item's period it opened). */
export function paidPeriodOf(invoice: Stripe.Invoice): { start: Date; end: Date } | null {
  const line = invoice.lines.data.find((l) => l.period && l.period.end > l.period.start);
  if (!line) return null;
  return { start: new Date(line.period.start * 1000), end: new Date(line.period.end * 1000) };
}

/** Reads the subscription from Stripe and stores it as it is now; null when it is not ours. */
export async function syncSubscription(deps: BillingDeps, id: string): Promise<SubscriptionRecord | null> {
  const subscription = await deps.stripe.subscriptions.retrieve(id);
  const customer = idOf(subscription.customer)!;
  const accountId =
    subscription.metadata?.['account_id'] ?? (await deps.state.billing.accountIdOfCustomer(customer));
  if (!accountId || !(await deps.state.getAccount(accountId))) return null;
  const item = subscription.items.data[0];
  const record: SubscriptionRecord = {
    id: subscription.id,
    accountId,
    customerId: customer,
    status: subscription.status,
    currentPeriodStart: item ? new Date(item.current_period_start * 1000) : null,
    currentPeriodEnd: item ? new Date(item.current_period_end * 1000) : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: subscription.canceled_at ? new Date(subscription.canceled_at * 1000) : null,
    updatedAt: deps.now(),
  };
  await deps.state.billing.upsertSubscription(record);
  if (!LIVE_STATUSES.has(record.status)) return record;
  return (await cancelDuplicateSubscriptions(deps, record, subscription.created)) ?? record;
}

/**
 * One live subscription per account, also when a second one got through (an old Checkout Session
 * paid after the account subscribed another way): of the account's live subscriptions the first
 * made (Stripe's `created`) is kept and the others are cancelled at once through the API. Every
 * sync applies the same rule, so two events handled together agree on which one stays. The buyer
 * paid the cancelled one's first invoice: the log line tells the operator to refund it.
 * Returns the synced subscription's record when it was the one cancelled.
 */
async function cancelDuplicateSubscriptions(
  deps: BillingDeps,
  synced: SubscriptionRecord,
  syncedCreated: number,
): Promise<SubscriptionRecord | null> {
  const stored = (await deps.state.billing.listSubscriptions(synced.accountId)).filter((s) =>
    LIVE_STATUSES.has(s.status),
  );
  if (stored.length < 2) return null;
  // Stripe's word, not our copy: a stored one whose end we have not heard of yet is not a rival.
  const created = new Map<string, number>();
  for (const s of stored) {
    const current = s.id === synced.id ? null : await deps.stripe.subscriptions.retrieve(s.id);
    if (current && !LIVE_STATUSES.has(current.status)) continue;
    created.set(s.id, current?.created ?? syncedCreated);
  }
  const live = stored.filter((s) => created.has(s.id));
  if (live.length < 2) return null;
  const [kept, ...extra] = [...live].sort(
    (a, b) => created.get(a.id)! - created.get(b.id)! || a.id.localeCompare(b.id),
  );
  let syncedAfter: SubscriptionRecord | null = null;
  for (const duplicate of extra) {
    let cancelled: Stripe.Subscription;
    try {
      cancelled = await deps.stripe.subscriptions.cancel(duplicate.id);
    } catch (error) {
      // Already cancelled (by a sync running at the same time): nothing left to do.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      continue;
    }
    const record: SubscriptionRecord = {
      ...duplicate,
      status: cancelled.status,
      canceledAt: cancelled.canceled_at ? new Date(cancelled.canceled_at * 1000) : deps.now(),
      updatedAt: deps.now(),
    };
    await deps.state.billing.upsertSubscription(record);
    (deps.notice ?? logNotice)({
      level: 'warn',
      message:
        'a second live subscription for one account was cancelled at once; refund its first invoice in the Stripe dashboard',
      account: synced.accountId,
      cancelled: duplicate.id,
      kept: kept!.id,
    });
    if (duplicate.id === synced.id) syncedAfter = record;
  }
  return syncedAfter;
}

/** A line for the operator on stderr, as the gateway logs: ids only, nothing personal. */
function logNotice(entry: BillingNotice): void {
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}
