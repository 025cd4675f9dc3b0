import type Stripe from 'stripe';
import { applyInvoice, type BillingDeps, paidPeriodOf, syncSubscription } from './stripe-billing.js';

/** What reconcile did with one of Stripe's subscriptions. */
export type SubscriptionAction =
  /** Our copy differed from Stripe's (status, period, cancellation) and was read again. */
  | 'synced'
  /** Its latest paid invoice opened a paid period the account did not have: the account is paid up now. */
  | 'period-restored'
  /** Our copy and the account's paid period already agree with Stripe. */
  | 'in-step'
  /** No account here has it (an account made after the backup the state was restored from). */
  | 'unknown-account';

export interface SubscriptionReport {
  subscription: string;
  account_id: string | null;
  status: string;
  actions: SubscriptionAction[];
}

/**
 * The API plan's side of `orders reconcile`: every subscription of the plan's Price Stripe has
 * (`subscriptions.list`, status `all`, auto-paginated) is compared with the state; one that differs goes through the code the
 * billing webhook runs for its events (`syncSubscription`, then `applyInvoice` on its latest invoice),
 * so an account whose subscription Stripe shows active and paid has its paid period here too. One that
 * agrees is not written to: a second run changes nothing.
 */
export async function reconcileSubscriptions(
  deps: Omit<BillingDeps, 'baseUrl'>,
): Promise<SubscriptionReport[]> {
  const billing = { ...deps, baseUrl: '' };
  const reports: SubscriptionReport[] = [];
  const list = deps.stripe.subscriptions.list({ status: 'all', price: deps.priceId, limit: 100 });
  for await (const subscription of list) {
    reports.push(await reconcileOne(billing, subscription));
  }
  return reports;
}

async function reconcileOne(
  deps: BillingDeps,
  subscription: Stripe.Subscription,
): Promise<SubscriptionReport> {
  const customer =
    typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
  const accountId =
    subscription.metadata?.['account_id'] ?? (await deps.state.billing.accountIdOfCustomer(customer));
  const account = accountId ? await deps.state.getAccount(accountId) : null;
  const report: SubscriptionReport = {
    subscription: subscription.id,
    account_id: accountId,
    status: subscription.status,
    actions: [],
  };
  if (!account) {
    report.actions.push('unknown-account');
    return report;
  }
  if (!(await deps.state.billing.getCustomerId(account.id))) {
    await deps.state.billing.putCustomerId(account.id, customer, deps.now());
  }
  const stored = (await deps.state.billing.listSubscriptions(account.id)).find(
    (s) => s.id === subscription.id,
  );
  const item = subscription.items.data[0];
  const inStep =
    stored !== undefined &&
    stored.status === subscription.status &&
    stored.cancelAtPeriodEnd === subscription.cancel_at_period_end &&
    (stored.currentPeriodEnd?.getTime() ?? null) === (item ? item.current_period_end * 1000 : null);
  if (!inStep) {
    await syncSubscription(deps, subscription.id);
    report.actions.push('synced');
  }
  const invoiceId =
    typeof subscription.latest_invoice === 'string'
      ? subscription.latest_invoice
      : subscription.latest_invoice?.id;
  if (subscription.status === 'active' && invoiceId) {
    const invoice = await deps.stripe.invoices.retrieve(invoiceId);
    const period = invoice.status === 'paid' ? paidPeriodOf(invoice) : null;
    const paidTo = (await deps.state.getAccount(account.id))?.paidPeriodEnd ?? null;
    if (period && (!paidTo || paidTo < period.end)) {
      const result = await applyInvoice(deps, invoiceId);
      if (result.handled === 'synced' && result.periodExtended) report.actions.push('period-restored');
    }
  }
  if (report.actions.length === 0) report.actions.push('in-step');
  return report;
}
