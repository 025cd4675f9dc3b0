import { randomBytes } from 'node:crypto';
import type { GatewayState } from '../state/gateway-state.js';
import { type BillingPeriod, periodSeconds } from './billing-period.js';
import type { LimitDecision } from './limit-headers.js';

/**
 * Successful requests per billing period per account, shared by its keys (docs/api.md, Allowance and
 * limits).
 */
export const DEFAULT_MONTHLY_ALLOWANCE = 10_000;

/** Only successes consume the allowance (a failed request is free); 304 is a success that sends no body. */
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
  settle(status: number): LimitDecision | Promise<LimitDecision>;
}

export interface AllowanceMeter {
  readonly limit: number;
  reserve(accountId: string, period: BillingPeriod): Promise<AllowanceTicket>;
  /**
   * A reservation made without waiting: counted in a lease this instance holds for the account, with
   * units left. Undefined means reserve with `reserve`.
   */
  reserveNow(accountId: string, period: BillingPeriod): AllowanceTicket | undefined;
  /** The current standing without counting anything. */
  peek(accountId: string, period: BillingPeriod): Promise<LimitDecision>;
  /**
   * The period's successful requests as the holder is shown them: the settled count plus what this
   * instance has spent of its open lease. A lease's unspent units are never shown as used; another
   * instance's spent part shows once it settles (within a lease's lifetime, a second by default).
   */
  used(accountId: string, period: BillingPeriod): Promise<number>;
  /** Gives back the unspent part of every open lease (the gateway is closing). */
  close(): Promise<void>;
}

/**
 * Allowance leases (`SBM_ALLOWANCE_LEASE`): an instance takes `units` requests of an account's
 * allowance from the shared state at once and counts them in memory, so a keyed request writes
 * nothing shared. A lease is settled (its unspent part given back) when spent or after `lifetimeMs`.
 * Leases are only taken while at least `keepFree` requests would stay uncounted after the lease;
 * nearer the cap every success is counted in the shared state, as without leases.
 */
export interface LeaseOptions {
  units: number;
  /** Uncounted requests a lease must leave (2 × units × instances covers every instance's lease). */
  keepFree: number;
  lifetimeMs: number;
  /** How long past its lifetime a lease row stands for a live instance; then it counts as lost. */
  graceMs: number;
  /** While a lease may give units back, a request refused by the shared count waits and retries this often. */
  retryMs: number;
}

export const DEFAULT_LEASE_UNITS = 100;
/**
 * A lease spent within a quarter of its lifetime makes the next one for that account twice as large,
 * up to this many times the configured size; one that outlives its lifetime halves it again. So a busy
 * account renews a few times a second instead of hundreds (each renewal is two shared writes: 3% of a
 * keyed request's CPU at 22,000 requests a second with 100-request leases, measured 2026-11-25), and an
 * idle one holds small leases. The margin a lease must leave (`keepFree`) grows with it, so near the
 * cap leases stay at most the configured size, and the unspent part an instance that dies can lose is
 * bounded by the lease it held (at most this many times the configured size, on large allowances only).
 */
export const MAX_LEASE_GROWTH = 16;
export const DEFAULT_GATEWAY_INSTANCES = 8;

export function leaseOptions(units: number, instances: number): LeaseOptions | undefined {
  if (units <= 0) return undefined;
  return { units, keepFree: 2 * units * instances, lifetimeMs: 1_000, graceMs: 4_000, retryMs: 20 };
}

interface Lease {
  id: string;
  accountId: string;
  period: BillingPeriod;
  /** The account's count before this lease, as the shared state had it when the lease was taken. */
  base: number;
  units: number;
  left: number;
  /** When it was taken (performance.now()). */
  takenAt: number;
  timer: NodeJS.Timeout;
  open: boolean;
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
export function createAllowanceMeter(options: {
  state: GatewayState;
  limit: number;
  /** Allowance leases (see `LeaseOptions`); absent: every request is counted in the shared state. */
  lease?: LeaseOptions | undefined;
  now?: () => Date;
}): AllowanceMeter {
  const { state, limit } = options;
  const now = options.now ?? (() => new Date());
  const decide = (allowed: boolean, remaining: number, period: BillingPeriod): LimitDecision =>
    decisionOf(allowed, limit, remaining, period);
  const lease = options.lease;
  /** Each request counted in the shared state, reserve-then-refund. */
  const reserveShared = async (accountId: string, period: BillingPeriod): Promise<AllowanceTicket> => {
    let counted = await state.reserveRequest(accountId, period.start, limit);
    // Refused at the cap while another instance holds a lease: its unspent part comes back within a
    // second (or the lease expires), so wait for it rather than answer 429 early. Once no lease is
    // open, one more try sees every part given back (a lease row goes in the statement that returns it).
    if (!counted.granted && lease) {
      for (;;) {
        const open = await state.hasOpenLease(accountId, period.start, now());
        if (open) await new Promise((resolve) => setTimeout(resolve, lease.retryMs));
        counted = await state.reserveRequest(accountId, period.start, limit);
        if (counted.granted || !open) break;
      }
    }
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
  };

  /**
   * The open lease of each account, found by account id alone (no key to build per request) and then
   * checked for the period; a renewal in flight by account and period, shared by the requests waiting
   * for it. Across a period's end the newer period's lease takes the account's place, and the older
   * one is settled by its timer as usual.
   */
  const leases = new Map<string, Lease>();
  const leaseFor = (accountId: string, period: BillingPeriod): Lease | undefined => {
    const held = leases.get(accountId);
    return held && held.period.start.getTime() === period.start.getTime() ? held : undefined;
  };
  const renewing = new Map<string, Promise<Lease | null>>();
  /** Accounts near their cap: counted request by request until this time (performance.now()). */
  const sharedUntil = new Map<string, number>();
  /** The next lease's size by account and period, where it has grown past the configured size. */
  const sizes = new Map<string, number>();

  const settleLease = async (held: Lease): Promise<void> => {
    if (!held.open) return;
    held.open = false;
    clearTimeout(held.timer);
    if (leases.get(held.accountId) === held) leases.delete(held.accountId);
    await state.settleLease(held.id, held.accountId, held.period.start, held.left);
  };

  const resize = (key: string, units: number) => {
    if (!lease) return;
    if (units > lease.units) sizes.set(key, units);
    else sizes.delete(key);
  };

  const takeLease = async (key: string, accountId: string, period: BillingPeriod): Promise<Lease | null> => {
    if (!lease) return null;
    const old = leases.get(accountId);
    let units = sizes.get(key) ?? lease.units;
    if (old) {
      if (old.left === 0 && performance.now() - old.takenAt < lease.lifetimeMs / 4) {
        units = Math.min(units * 2, lease.units * MAX_LEASE_GROWTH);
      }
      await settleLease(old);
    }
    const id = `lease_${randomBytes(12).toString('base64url')}`;
    const request = (size: number) =>
      state.takeLease(
        {
          id,
          accountId,
          periodStart: period.start,
          limit,
          units: size,
          keepFree: (lease.keepFree * size) / lease.units,
          expiresAt: new Date(now().getTime() + lease.lifetimeMs + lease.graceMs),
        },
        now(),
      );
    let taken = await request(units);
    // Nearer the cap than a grown lease may go: the configured size may still fit.
    if (!taken.taken && units > lease.units) {
      units = lease.units;
      taken = await request(units);
    }
    resize(key, units);
    if (!taken.taken) {
      sharedUntil.set(key, performance.now() + lease.lifetimeMs);
      return null;
    }
    const held: Lease = {
      id,
      accountId,
      period,
      base: taken.used - units,
      units,
      left: units,
      takenAt: performance.now(),
      open: true,
      // Settled after its lifetime even when idle, so its unspent part goes back to the others; a
      // lease that outlived its lifetime was larger than the account's pace needs.
      timer: setTimeout(() => {
        if (held.left > 0) resize(key, Math.floor(held.units / 2));
        settleLease(held).catch(() => undefined);
      }, lease.lifetimeMs),
    };
    held.timer.unref();
    leases.set(accountId, held);
    return held;
  };

  const reserveNow = (accountId: string, period: BillingPeriod): AllowanceTicket | undefined => {
    const held = lease && leaseFor(accountId, period);
    return held?.open && held.left > 0 ? new LeasedTicket(held, limit, state) : undefined;
  };

  return {
    limit,
    reserveNow,
    async reserve(accountId, period) {
      if (!lease) return reserveShared(accountId, period);
      const key = leaseKey(accountId, period);
      for (;;) {
        const leased = reserveNow(accountId, period);
        if (leased) return leased;
        const until = sharedUntil.get(key);
        if (until !== undefined && performance.now() < until) return reserveShared(accountId, period);
        let renewal = renewing.get(key);
        if (!renewal) {
          renewal = takeLease(key, accountId, period).finally(() => renewing.delete(key));
          renewing.set(key, renewal);
        }
        if (!(await renewal)) return reserveShared(accountId, period);
      }
    },
    async peek(accountId, period) {
      const used = await state.getUsage(accountId, period.start);
      return decide(used < limit, Math.max(0, limit - used), period);
    },
    async used(accountId, period) {
      const held = leaseFor(accountId, period);
      const spentHere = held?.open ? held.units - held.left : 0;
      return (await state.getSettledUsage(accountId, period.start, now())) + spentHere;
    },
    async close() {
      await Promise.all([...leases.values()].map((held) => settleLease(held)));
    },
  };
}

function decisionOf(
  allowed: boolean,
  limit: number,
  remaining: number,
  period: BillingPeriod,
): LimitDecision {
  return { allowed, limit, remaining, resetAt: period.end, windowSeconds: periodSeconds(period) };
}

/** What the account has left as this instance sees it under a lease: its count then, less what it counted since. */
function leaseDecision(held: Lease, limit: number): LimitDecision {
  return decisionOf(true, limit, Math.max(0, limit - held.base - (held.units - held.left)), held.period);
}

/**
 * A request counted in memory under a lease. A class, so a keyed request makes no closures (under tsx
 * each closure made is also named, which showed in the profile of the keyed path).
 */
class LeasedTicket implements AllowanceTicket {
  readonly decision: LimitDecision;
  private settled: LimitDecision | undefined;
  private refunding: Promise<LimitDecision> | undefined;

  constructor(
    private readonly held: Lease,
    private readonly limit: number,
    private readonly state: GatewayState,
  ) {
    held.left -= 1;
    this.decision = leaseDecision(held, limit);
  }

  /** Without waiting, except to give back a failed request's unit after its lease was settled. */
  settle(status: number): LimitDecision | Promise<LimitDecision> {
    if (this.settled) return this.settled;
    const held = this.held;
    if (countsAgainstAllowance(status)) {
      this.settled = this.decision;
    } else if (held.open) {
      held.left += 1;
      this.settled = leaseDecision(held, this.limit);
    } else {
      // Settling twice gives back once.
      this.refunding ??= this.refund(held);
      return this.refunding;
    }
    return this.settled;
  }

  /** The lease was settled with this request counted as spent: give it back in the shared count. */
  private async refund(held: Lease): Promise<LimitDecision> {
    const refunded = await this.state.refundRequest(held.accountId, held.period.start, this.limit);
    this.settled = decisionOf(true, this.limit, refunded.remaining, held.period);
    return this.settled;
  }
}

function leaseKey(accountId: string, period: BillingPeriod): string {
  return `${accountId} ${period.start.getTime()}`;
}
