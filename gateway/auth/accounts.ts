import type { Account, Plan } from '../state/gateway-state.js';
import type { AuthDeps } from './auth-deps.js';
import { UnknownAccountError } from './auth-errors.js';
import { billingPeriod } from './billing-period.js';
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
