/** An account as the state stores it (its own module so the state's parts can share it without a cycle). */
export type Plan = 'api' | 'subscriber';
export const PLANS: readonly Plan[] = ['api', 'subscriber'];

export type AccountStatus = 'active' | 'cancelled';

export interface Account {
  id: string;
  plan: Plan;
  status: AccountStatus;
  createdAt: Date;
  /** Start of the first paid period; billing periods roll over by calendar month from here. */
  periodAnchor: Date;
  cancelledAt: Date | null;
  /** Set on cancellation: the end of the paid period in which it happened. Access ends here. */
  accessEndsAt: Date | null;
  /** The sign-in email of a self-serve account (lower case); null for operator-made accounts. */
  email: string | null;
  /**
   * `operator`: made by `accounts create`, periods from `periodAnchor` (comped and test accounts);
   * `stripe`: made by a confirmed email sign-in, access and the allowance's period follow the last
   * paid period (`paidPeriodStart`..`paidPeriodEnd`), which only a paid invoice moves.
   */
  billing: AccountBilling;
  paidPeriodStart: Date | null;
  paidPeriodEnd: Date | null;
}

export type AccountBilling = 'operator' | 'stripe';
