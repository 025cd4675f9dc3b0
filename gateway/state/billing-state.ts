/**
 * The self-serve API plan's part of the gateway state (migration 5), on both engines: email sign-in
 * tokens, account sessions (`svc_account`), the keys' names and use, key events, and what Stripe told
 * us (customers, subscriptions, processed event ids). Like the rest of the state it never reads the
 * clock: times come from the caller.
 */
import type { Account } from './account-record.js';

/** A one-time email sign-in token (`/account/sign-in`): for an email, whether or not it has an account. */
export interface EmailTokenRecord {
  id: string;
  /** Lower case. */
  email: string;
  /** SHA-256 of the token, hex. */
  hash: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

export type EmailTokenRedemption =
  | { redeemed: true; token: EmailTokenRecord }
  | { redeemed: false; token: EmailTokenRecord | null };

/** A browser session of the account page (cookie `svc_account`); never grants API access. */
export interface AccountSessionRecord {
  id: string;
  accountId: string;
  hash: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** What the account page shows of a key beyond its api_keys row. */
export interface KeyDetails {
  keyId: string;
  name: string;
  /** The key's last four characters (the checksum's end for new keys). */
  lastFour: string;
  /** Set when the key was rolled with a grace period: it stops working at this time. */
  graceEndsAt: Date | null;
  lastUsedAt: Date | null;
}

export type KeyEventKind = 'created' | 'rolled' | 'revoked';

export interface KeyEvent {
  id: string;
  accountId: string;
  keyId: string;
  kind: KeyEventKind;
  keyPrefix: string;
  /**
   * The address the change came from; shown to the account holder (and in `accounts show`), never
   * logged with a key. Null for the operator's `keys` commands, which come from no request.
   */
  ip: string | null;
  at: Date;
}

/** How a key event recorded without an address (the operator's `keys` commands) is shown: its source. */
export const OPERATOR_SOURCE = 'operator';

export interface KeyUsageDay {
  keyId: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  used: number;
}

/** A Stripe subscription as last read from Stripe (never from an event's snapshot). */
export interface SubscriptionRecord {
  id: string;
  accountId: string;
  customerId: string;
  /** Stripe's status: active, past_due, canceled, unpaid, incomplete, … */
  status: string;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  updatedAt: Date;
}

/** The claim that one checkout is under way for an account (two clicks make one Checkout Session). */
export interface CheckoutClaim {
  accountId: string;
  claimedAt: Date;
  expiresAt: Date;
  sessionId: string | null;
  url: string | null;
}

export type CheckoutClaimResult = { claimed: true } | { claimed: false; claim: CheckoutClaim };

export interface BillingState {
  insertEmailToken(token: EmailTokenRecord): Promise<EmailTokenRecord>;
  /** Marks the token used if unused and unexpired, in one conditional statement (single use everywhere). */
  redeemEmailToken(hash: string, now: Date): Promise<EmailTokenRedemption>;
  pruneEmailTokens(before: Date): Promise<number>;

  getAccountByEmail(email: string): Promise<Account | null>;
  /**
   * The account of `email`, created (plan `api`, billing `stripe`, no paid period) if there is none:
   * insert-if-absent on the unique email, so two confirmations at once make one account.
   */
  findOrCreateEmailAccount(email: string, newId: string, now: Date): Promise<Account>;

  insertAccountSession(session: AccountSessionRecord): Promise<AccountSessionRecord>;
  findAccountSessionByHash(hash: string): Promise<AccountSessionRecord | null>;
  revokeAccountSession(id: string, at: Date): Promise<void>;
  /** "Sign out everywhere": revokes every live session of the account; returns how many. */
  revokeAccountSessions(accountId: string, at: Date): Promise<number>;

  putKeyDetails(details: KeyDetails): Promise<void>;
  listKeyDetails(accountId: string): Promise<KeyDetails[]>;
  /**
   * Ends a key at `expiresAt` (a roll's grace period), unless it is revoked or already ends sooner.
   * Takes effect on every instance at once, like a revocation.
   */
  expireKeyAt(keyId: string, expiresAt: Date): Promise<void>;
  /**
   * Counts `used` (default 1) successful requests of a key on a UTC day and moves its last use to `at`
   * if later. The gateway adds up a second's requests per key and day first (`auth/key-use-tally.ts`).
   */
  recordKeyUse(keyId: string, accountId: string, day: string, at: Date, used?: number): Promise<void>;
  /** Per key and UTC day, from `fromDay` on (inclusive). */
  keyUsage(accountId: string, fromDay: string): Promise<KeyUsageDay[]>;

  insertKeyEvent(event: KeyEvent): Promise<void>;
  /** Newest first. */
  listKeyEvents(accountId: string, limit: number): Promise<KeyEvent[]>;

  getCustomerId(accountId: string): Promise<string | null>;
  /** Stores the account's Stripe customer if it has none; returns the one stored (the first wins). */
  putCustomerId(accountId: string, customerId: string, at: Date): Promise<string>;
  accountIdOfCustomer(customerId: string): Promise<string | null>;

  /**
   * Claims the account's checkout: succeeds when no claim exists or the existing one expired before
   * `now` (insert-if-absent, then a conditional take-over), so of two concurrent clicks one wins.
   */
  claimCheckout(accountId: string, now: Date, expiresAt: Date): Promise<CheckoutClaimResult>;
  setCheckoutSession(accountId: string, sessionId: string, url: string): Promise<void>;
  releaseCheckout(accountId: string): Promise<void>;

  upsertSubscription(subscription: SubscriptionRecord): Promise<void>;
  /** Newest first (by current period end, then update time). */
  listSubscriptions(accountId: string): Promise<SubscriptionRecord[]>;
  /**
   * Records a paid period. Moves only forward: the start and end are replaced when `end` is later
   * than the stored end (or none is stored), so a redelivered or late invoice changes nothing.
   */
  extendPaidPeriod(accountId: string, start: Date, end: Date): Promise<Account | null>;

  /** Records a processed Stripe event id; false when it was recorded before (skip the event). */
  recordStripeEvent(eventId: string, eventType: string, at: Date): Promise<boolean>;
  /** Forgets an event id (its handling failed, so Stripe's retry must run it again). */
  forgetStripeEvent(eventId: string): Promise<void>;
}
