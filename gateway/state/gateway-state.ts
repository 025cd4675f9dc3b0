/**
 * The gateway's mutable state behind one interface: accounts, API keys, subscriber sessions, usage
 * counters per billing period, fixed and rolling rate-limit windows, the tax check cache and the
 * salts that keep callers' addresses out of it. Two real implementations exist (SQLite for one
 * process, PostgreSQL for several gateway instances); `test/interface-suites/gateway-state.test.ts`
 * runs the same behaviour against both. Tax orders live in `orders` (see order-state.ts).
 *
 * Times are passed in by the caller (the auth layer owns the clock); the state never reads the clock,
 * so every rule that depends on "now" is decided above it and tests can move time freely.
 */

import type { BillingState } from './billing-state.js';
import type { OrderState } from './order-state.js';

export type { Account, AccountBilling, AccountStatus, Plan } from './account-record.js';
export { PLANS } from './account-record.js';

import type { Account, Plan } from './account-record.js';

export interface NewAccount {
  id: string;
  plan: Plan;
  createdAt: Date;
  periodAnchor: Date;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** The visible start of the key (`sbm_live_` plus a few characters), safe to show and to index. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The plaintext key is never stored. */
  hash: string;
  createdAt: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
}

export interface SessionRecord {
  id: string;
  accountId: string;
  /** SHA-256 of the cookie value, hex. */
  hash: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** A one-time sign-in link (`sessions create --link`): redeemed once for a session cookie. */
export interface SignInLinkRecord {
  id: string;
  accountId: string;
  /** SHA-256 of the link's token, hex. The token itself is never stored. */
  hash: string;
  /** Lifetime of the session the link opens. */
  sessionDays: number;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/**
 * Outcome of redeeming a link: `redeemed` when this call used it; otherwise the stored row as it is
 * (already used, or expired at `now`), or null when no link has that hash.
 */
export type SignInLinkRedemption =
  | { redeemed: true; link: SignInLinkRecord }
  | { redeemed: false; link: SignInLinkRecord | null };

/** Outcome of an atomic check-and-count against a ceiling. */
export interface CounterResult {
  granted: boolean;
  /** The counter after this call (unchanged when not granted). */
  used: number;
  /** `limit - used`, never below 0. */
  remaining: number;
}

export interface RateWindowHit {
  allowed: boolean;
  /** Hits counted in the window after this call (denied hits are not counted). */
  count: number;
}

export interface RollingWindowHit {
  allowed: boolean;
  /** Hits in the window after this call (a refused hit is not recorded). */
  count: number;
  /** The earliest hit still in the window: a slot frees when it leaves the window. Null when none. */
  oldest: Date | null;
}

/** A tax check answer as cached (24 hours per coldkey). */
export interface CachedCheck {
  /** Opaque: `checkCacheKey(coldkey)`, a SHA-256 hex digest. */
  key: string;
  /** The response body, the exact JSON text to serve. */
  body: string;
  computedAt: Date;
  /** The entry counts as absent from this instant on. */
  expiresAt: Date;
}

/** A stored key with the account it belongs to: what verifying a presented key needs, in one read. */
export interface KeyCandidate {
  key: ApiKeyRecord;
  account: Account;
}

export type InsertKeyResult =
  | { inserted: true; key: ApiKeyRecord }
  | { inserted: false; reason: 'unknown-account' | 'limit'; activeKeys: number };

export interface GatewayState {
  readonly engine: 'sqlite' | 'postgres';
  /** Tax orders and processed payment events (docs/api.md, Tax orders). */
  readonly orders: OrderState;
  /** The self-serve API plan: email sign-in, account sessions, key details and events, Stripe billing. */
  readonly billing: BillingState;

  createAccount(account: NewAccount): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Marks an active account cancelled; a cancelled account is returned unchanged; null when unknown. */
  cancelAccount(id: string, cancelledAt: Date, accessEndsAt: Date): Promise<Account | null>;

  /**
   * Inserts a key only while the account has fewer than `maxActive` active keys (not revoked, not
   * expired at `now`). Check and insert are one serialised step per account, so two concurrent
   * creations cannot both take the last slot.
   */
  insertKeyWithinLimit(key: ApiKeyRecord, maxActive: number, now: Date): Promise<InsertKeyResult>;
  getKey(id: string): Promise<ApiKeyRecord | null>;
  /**
   * Candidates for a presented key, found by its visible prefix, each with its account (one read, as
   * every keyed request makes it); the caller compares hashes.
   */
  findKeyCandidates(prefix: string): Promise<KeyCandidate[]>;
  /**
   * The same candidates when they are known without waiting: read before and proven current in this
   * event-loop turn, so a key revoked anywhere before the turn began is seen. Undefined means ask
   * `findKeyCandidates` (nothing cached, or an engine that cannot prove its cache current).
   */
  findKeyCandidatesNow(prefix: string): KeyCandidate[] | undefined;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Sets `revokedAt` once (a second revocation keeps the first time); null when unknown. */
  revokeKey(id: string, revokedAt: Date): Promise<ApiKeyRecord | null>;

  insertSession(session: SessionRecord): Promise<SessionRecord>;
  findSessionByHash(hash: string): Promise<SessionRecord | null>;
  revokeSession(id: string, revokedAt: Date): Promise<SessionRecord | null>;

  insertSignInLink(link: SignInLinkRecord): Promise<SignInLinkRecord>;
  /**
   * Marks the link with this hash used at `now` if it is unused and unexpired, in one conditional
   * statement: of any number of concurrent redemptions, on any instance, exactly one succeeds.
   */
  redeemSignInLink(hash: string, now: Date): Promise<SignInLinkRedemption>;
  /** Deletes links that expired before `before`; returns how many. */
  pruneSignInLinks(before: Date): Promise<number>;

  /**
   * Atomically counts one request for (account, period) if fewer than `limit` are counted. Concurrent
   * callers, also in other processes sharing the database, never get more than `limit` grants.
   */
  reserveRequest(accountId: string, periodStart: Date, limit: number): Promise<CounterResult>;
  /** Gives back one reserved request (the response did not succeed); never goes below 0. */
  refundRequest(accountId: string, periodStart: Date, limit: number): Promise<CounterResult>;
  getUsage(accountId: string, periodStart: Date): Promise<number>;
  /**
   * The period's successful requests as far as they are settled: the counter less the units of the
   * leases still open at `now` (their spent parts are known only to the instance holding them, until it
   * settles them). What an account's holder is shown; `getUsage` is what the cap is checked against.
   */
  getSettledUsage(accountId: string, periodStart: Date, now: Date): Promise<number>;
  /**
   * Takes a lease of `lease.units` requests for (account, period) if, after it, at least
   * `lease.keepFree` of `limit` stay uncounted: the units are counted in `used` at once, and a lease
   * row (expiring at `lease.expiresAt`) says they may come back. Atomic like `reserveRequest`, across
   * processes. Also deletes lease rows that expired before `now`. `taken` false: no lease, counting
   * goes request by request.
   */
  takeLease(lease: LeaseRequest, now: Date): Promise<{ taken: boolean; used: number }>;
  /**
   * Ends a lease, giving back `unspent` of its units; if its row is gone (it expired: the instance
   * stalled past its expiry) nothing is given back, as for a lease whose instance died.
   */
  settleLease(leaseId: string, accountId: string, periodStart: Date, unspent: number): Promise<void>;
  /** Whether a lease for (account, period) is out and unexpired at `now`: its units may still come back. */
  hasOpenLease(accountId: string, periodStart: Date, now: Date): Promise<boolean>;
  /** Operator adjustment (and test set-up): sets the counter for a period outright. */
  setUsage(accountId: string, periodStart: Date, used: number): Promise<void>;

  /** Atomically counts one hit in a fixed window if fewer than `limit` are counted. */
  hitRateWindow(bucket: string, windowStart: Date, limit: number): Promise<RateWindowHit>;
  /**
   * Deletes windows whose bucket starts with `bucketPrefix` and that started before `before`; returns
   * how many were removed. Scoped by prefix because limiters with different window lengths share
   * the table (an hourly window must outlive a minute one).
   */
  pruneRateWindows(bucketPrefix: string, before: Date): Promise<number>;

  /**
   * A rolling window: atomically records a hit at `at` for `bucket` if fewer than `limit` hits are
   * recorded after `since` (the caller passes `at` minus the window's length), across every process
   * sharing the database. Only the hits inside the window are kept, so a bucket holds at most `limit`
   * times.
   */
  hitRollingWindow(bucket: string, at: Date, since: Date, limit: number): Promise<RollingWindowHit>;
  /** Deletes rolling windows under `bucketPrefix` with no hit after `before`; returns how many. */
  pruneRollingWindows(bucketPrefix: string, before: Date): Promise<number>;

  /** The cached check under `key` while `now` is before its expiry; null when absent or expired. */
  getCachedCheck(key: string, now: Date): Promise<CachedCheck | null>;
  /**
   * Stores a check, replacing the entry under its key unless that entry was computed later (two
   * instances computing the same coldkey at once keep the newer answer).
   */
  putCachedCheck(entry: CachedCheck): Promise<void>;
  /** Deletes entries expired at `now`; returns how many. */
  pruneCachedChecks(now: Date): Promise<number>;

  /**
   * The salt stored under `name`, created from `candidate` (random bytes, hex, made by the caller)
   * if there is none yet. Insert-if-absent, so every instance and process on one database reads the
   * same value, whichever inserted first.
   */
  getOrCreateSalt(name: string, candidate: string, createdAt: Date): Promise<string>;

  close(): Promise<void>;
}

export interface LeaseRequest {
  id: string;
  accountId: string;
  periodStart: Date;
  limit: number;
  units: number;
  keepFree: number;
  expiresAt: Date;
}

export function remainingOf(limit: number, used: number): number {
  return Math.max(0, limit - used);
}
