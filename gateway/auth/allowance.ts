import type { GatewayState } from '../state/gateway-state.js';
import { type BillingPeriod, periodSeconds } from './billing-period.js';
import type { LimitDecision } from './limit-headers.js';

/** Spec 8: successful requests per billing period per account, shared by its keys. */
export const DEFAULT_MONTHLY_ALLOWANCE = 10_000;

/** Spec 8: only successes consume the allowance; 304 is a success that sends no body. */
export function countsAgainstAllowance(status: number): boolean {
  return (status >= 200 && status < 300) || status === 304;
}

export interface AllowanceTicket {
  /** The decision before the handler ran; when not allowed, answer 429 with its headers. */
  readonly decision: LimitDecision;
  /**
   * Call once the response status is known. A granted reservation whose response is not a success
   * is given back; the decision returned is the one to put in the response headers.
   */
  settle(status: number): Promise<LimitDecision>;
}

export interface AllowanceMeter {
  readonly limit: number;
  reserve(accountId: string, period: BillingPeriod): Promise<AllowanceTicket>;
  /** The current standing without counting anything. */
  peek(accountId: string, period: BillingPeriod): Promise<LimitDecision>;
}

/**
 * The monthly allowance for API keys, metered as reserve-then-refund: before the handler runs, one
 * atomic statement counts the request if the account is under its limit (so no number of concurrent
 * requests on any number of gateway instances can pass the cap), and when the response turns out
 * not to be a success the reservation is returned. The cost: while a failing request is in flight
 * at the very edge of the cap, a concurrent request may see 429 for a slot that is about to be given
 * back. We accept that rather than counting after the fact, which could grant more than the allowance.
 * Subscriber sessions are not metered; callers only meter key credentials.
 */
export function createAllowanceMeter(options: { state: GatewayState; limit: number }): AllowanceMeter {
  const { state, limit } = options;
  const decide = (allowed: boolean, remaining: number, period: BillingPeriod): LimitDecision => ({
    allowed,
    limit,
    remaining,
    resetAt: period.end,
    windowSeconds: periodSeconds(period),
  });
  return {
    limit,
    async reserve(accountId, period) {
      const counted = await state.reserveRequest(accountId, period.start, limit);
      const decision = decide(counted.granted, counted.remaining, period);
      let settled: LimitDecision | undefined;
      return {
        decision,
        async settle(status) {
          if (settled) return settled;
          if (!counted.granted || countsAgainstAllowance(status)) {
            settled = decision;
          } else {
            const refunded = await state.refundRequest(accountId, period.start, limit);
            settled = decide(true, refunded.remaining, period);
          }
          return settled;
        },
      };
    },
    async peek(accountId, period) {
      const used = await state.getUsage(accountId, period.start);
      return decide(used < limit, Math.max(0, limit - used), period);
    },
  };
}
