import type { Account, Plan } from '../state/gateway-state.js';
import type { AuthDeps } from './auth-deps.js';
import { UnknownAccountError } from './auth-errors.js';
import { type BillingPeriod, billingPeriod } from './billing-period.js';
import { newId } from './random-id.js';

/** Opens an account whose first billing period starts now (until billing sets the anchor). */
export async function createAccount(deps: AuthDeps, plan: Plan, anchor?: Date): Promise<Account> {
  const now = deps.now();
  return deps.state.createAccount({ id: newId('acc'), plan, createdAt: now, periodAnchor: anchor ?? now });
}

/**
 * Cancels an account. It keeps access until the end of the billing period in which it was cancelled:
 * that period is paid for. Cancelling twice keeps the first cancellation.
 */
export async function cancelAccount(deps: AuthDeps, accountId: string): Promise<Account> {
  const account = await deps.state.getAccount(accountId);
  if (!account) throw new UnknownAccountError(accountId);
  const now = deps.now();
  const cancelled = await deps.state.cancelAccount(
    accountId,
    now,
    billingPeriod(account.periodAnchor, now).end,
  );
  return cancelled ?? account;
}

/** Active accounts always have access; cancelled ones until the paid period ends. */
export function accountHasAccess(account: Account, now: Date): boolean {
  if (account.status === 'active') return true;
  return account.accessEndsAt !== null && now < account.accessEndsAt;
}

/**
 * A Stripe-billed account has access while its last paid period lasts (a period that ends unpaid, or after a
 * cancellation, answers 402 until an invoice is paid). Operator-made accounts (comped, test) do not depend on
 * Stripe.
 */
export function paidPeriodCovers(account: Account, now: Date): boolean {
  if (account.billing !== 'stripe') return true;
  return account.paidPeriodEnd !== null && now < account.paidPeriodEnd;
}

/** The allowance's period: Stripe's paid period for Stripe-billed accounts, else from the anchor. */
export function accountPeriod(account: Account, now: Date): BillingPeriod {
  if (account.billing === 'stripe' && account.paidPeriodStart && account.paidPeriodEnd) {
    return { start: account.paidPeriodStart, end: account.paidPeriodEnd };
  }
  return billingPeriod(account.periodAnchor, now);
}
