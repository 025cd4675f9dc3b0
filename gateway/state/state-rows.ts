import type {
  Account,
  ApiKeyRecord,
  CachedCheck,
  KeyCandidate,
  Plan,
  RollingWindowHit,
  SessionRecord,
  SignInLinkRecord,
} from './gateway-state.js';

/**
 * Database rows → state records, shared by both engines (SQLite returns times as ISO text, PostgreSQL
 * as Date objects; both map through `toDate`).
 */
export type Row = Record<string, unknown>;

export const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
export const toDateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);

export function toAccount(row: Row): Account {
  return {
    id: String(row['id']),
    plan: row['plan'] as Plan,
    status: row['status'] === 'cancelled' ? 'cancelled' : 'active',
    createdAt: toDate(row['created_at']),
    periodAnchor: toDate(row['period_anchor']),
    cancelledAt: toDateOrNull(row['cancelled_at']),
    accessEndsAt: toDateOrNull(row['access_ends_at']),
    email: row['email'] === null || row['email'] === undefined ? null : String(row['email']),
    billing: row['billing'] === 'stripe' ? 'stripe' : 'operator',
    paidPeriodStart: toDateOrNull(row['paid_period_start']),
    paidPeriodEnd: toDateOrNull(row['paid_period_end']),
  };
}

export function toKey(row: Row): ApiKeyRecord {
  return {
    id: String(row['id']),
    accountId: String(row['account_id']),
    prefix: String(row['prefix']),
    hash: String(row['hash']),
    createdAt: toDate(row['created_at']),
    revokedAt: toDateOrNull(row['revoked_at']),
    expiresAt: toDateOrNull(row['expires_at']),
  };
}

export function toSession(row: Row): SessionRecord {
  return {
    id: String(row['id']),
    accountId: String(row['account_id']),
    hash: String(row['hash']),
    createdAt: toDate(row['created_at']),
    expiresAt: toDate(row['expires_at']),
    revokedAt: toDateOrNull(row['revoked_at']),
  };
}

/**
 * The select list of the key-with-account join (tables aliased `k` and `a`): the key's own columns,
 * then the account's under an `account_` prefix, so both records map from one row.
 */
export const KEY_WITH_ACCOUNT_COLUMNS = `k.*, a.plan AS account_plan, a.status AS account_status,
  a.created_at AS account_created_at, a.period_anchor AS account_period_anchor,
  a.cancelled_at AS account_cancelled_at, a.access_ends_at AS account_access_ends_at,
  a.email AS account_email, a.billing AS account_billing, a.paid_period_start AS account_paid_period_start,
  a.paid_period_end AS account_paid_period_end`;

export function toKeyCandidate(row: Row): KeyCandidate {
  return {
    key: toKey(row),
    account: toAccount({
      id: row['account_id'],
      plan: row['account_plan'],
      status: row['account_status'],
      created_at: row['account_created_at'],
      period_anchor: row['account_period_anchor'],
      cancelled_at: row['account_cancelled_at'],
      access_ends_at: row['account_access_ends_at'],
      email: row['account_email'],
      billing: row['account_billing'],
      paid_period_start: row['account_paid_period_start'],
      paid_period_end: row['account_paid_period_end'],
    }),
  };
}

export function toCachedCheck(row: Row): CachedCheck {
  return {
    key: String(row['key']),
    body: String(row['body']),
    computedAt: toDate(row['computed_at']),
    expiresAt: toDate(row['expires_at']),
  };
}

/** A rolling window's answer from the hits inside it (in any order). */
export function rollingWindowHit(allowed: boolean, hits: readonly Date[]): RollingWindowHit {
  let oldest: Date | null = null;
  for (const hit of hits) if (!oldest || hit < oldest) oldest = hit;
  return { allowed, count: hits.length, oldest };
}

export function toSignInLink(row: Row): SignInLinkRecord {
  return {
    id: String(row['id']),
    accountId: String(row['account_id']),
    hash: String(row['hash']),
    sessionDays: Number(row['session_days']),
    createdAt: toDate(row['created_at']),
    expiresAt: toDate(row['expires_at']),
    usedAt: toDateOrNull(row['used_at']),
  };
}
