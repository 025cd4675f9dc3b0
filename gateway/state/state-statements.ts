import { MIGRATIONS_TABLE } from './migrations.js';
import { KEY_WITH_ACCOUNT_COLUMNS } from './state-rows.js';

/*
 * The gateway state's statements that are the same on SQLite and PostgreSQL, written once with `?`
 * placeholders (PostgreSQL runs them through `numbered`, see sql-runner.ts). Each comment lists the
 * parameters in order; a value used twice in a statement is passed twice. What differs between the
 * engines on purpose (locks, upsert shapes, column types) stays in `sqlite-state.ts` and
 * `postgres-state.ts`, each with its reason.
 */

/** The schema version applied last (null on an empty ledger). */
export const LATEST_MIGRATION = `SELECT max(version) AS v FROM ${MIGRATIONS_TABLE}`;

/** id, plan, createdAt, periodAnchor. */
export const INSERT_ACCOUNT = `INSERT INTO accounts (id, plan, status, created_at, period_anchor)
  VALUES (?, ?, 'active', ?, ?) RETURNING *`;

/** id. */
export const ACCOUNT_BY_ID = 'SELECT * FROM accounts WHERE id = ?';

export const ALL_ACCOUNTS = 'SELECT * FROM accounts ORDER BY created_at, id';

/** cancelledAt, accessEndsAt, id: an account is cancelled once; a second cancel changes nothing. */
export const CANCEL_ACCOUNT = `UPDATE accounts SET status = 'cancelled', cancelled_at = ?, access_ends_at = ?
  WHERE id = ? AND status = 'active'`;

/** accountId, now. `n` is a bigint on PostgreSQL (pg returns it as text): read it with `Number`. */
export const COUNT_ACTIVE_KEYS = `SELECT count(*) AS n FROM api_keys
  WHERE account_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`;

/** id, accountId, prefix, hash, createdAt, revokedAt, expiresAt. */
export const INSERT_KEY = `INSERT INTO api_keys (id, account_id, prefix, hash, created_at, revoked_at, expires_at)
  VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`;

/** id. */
export const KEY_BY_ID = 'SELECT * FROM api_keys WHERE id = ?';

/** prefix: every key of that prefix with its account's columns. */
export const KEY_CANDIDATES = `SELECT ${KEY_WITH_ACCOUNT_COLUMNS} FROM api_keys k JOIN accounts a ON a.id = k.account_id
  WHERE k.prefix = ?`;

/** accountId. */
export const KEYS_OF_ACCOUNT = 'SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id';

/** revokedAt, id. */
export const REVOKE_KEY = 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL';

/** id, accountId, hash, createdAt, expiresAt, revokedAt. */
export const INSERT_SESSION = `INSERT INTO sessions (id, account_id, hash, created_at, expires_at, revoked_at)
  VALUES (?, ?, ?, ?, ?, ?) RETURNING *`;

/** hash. */
export const SESSION_BY_HASH = 'SELECT * FROM sessions WHERE hash = ?';

/** id. */
export const SESSION_BY_ID = 'SELECT * FROM sessions WHERE id = ?';

/** revokedAt, id. */
export const REVOKE_SESSION = 'UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL';

/** id, accountId, hash, sessionDays, createdAt, expiresAt, usedAt. */
export const INSERT_SIGN_IN_LINK = `INSERT INTO sign_in_links
  (id, account_id, hash, session_days, created_at, expires_at, used_at)
  VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`;

/**
 * now, hash, now. One conditional UPDATE: on SQLite it runs under the database write lock; on
 * PostgreSQL concurrent redemptions queue on the row's lock and `used_at IS NULL` is re-checked on the
 * newest version (READ COMMITTED). Either way only the first redemption matches.
 */
export const REDEEM_SIGN_IN_LINK = `UPDATE sign_in_links SET used_at = ?
  WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *`;

/** hash. */
export const SIGN_IN_LINK_BY_HASH = 'SELECT * FROM sign_in_links WHERE hash = ?';

/** before. */
export const PRUNE_SIGN_IN_LINKS = 'DELETE FROM sign_in_links WHERE expires_at < ?';

/** accountId, periodStart. */
export const USAGE = 'SELECT used FROM usage_counters WHERE account_id = ? AND period_start = ?';

/** accountId, periodStart, used: sets the count, whatever it was. */
export const SET_USAGE = `INSERT INTO usage_counters (account_id, period_start, used) VALUES (?, ?, ?)
  ON CONFLICT (account_id, period_start) DO UPDATE SET used = excluded.used`;

/** accountId, periodStart: gives one request back, never below zero. */
export const REFUND_REQUEST = `UPDATE usage_counters SET used = used - 1
  WHERE account_id = ? AND period_start = ? AND used > 0 RETURNING used`;

/**
 * accountId, periodStart, accountId, periodStart, now: the count less what open leases hold, in one
 * statement (one snapshot on PostgreSQL); may be below zero, the caller clamps it at zero.
 */
export const SETTLED_USAGE = `SELECT
  COALESCE((SELECT used FROM usage_counters WHERE account_id = ? AND period_start = ?), 0)
  - COALESCE((SELECT SUM(units) FROM allowance_leases
              WHERE account_id = ? AND period_start = ? AND expires_at >= ?), 0) AS used`;

/** now: leases past their expiry. */
export const PRUNE_LEASES = 'DELETE FROM allowance_leases WHERE expires_at < ?';

/** accountId, periodStart, now. */
export const OPEN_LEASE = `SELECT 1 AS open FROM allowance_leases
  WHERE account_id = ? AND period_start = ? AND expires_at >= ? LIMIT 1`;

/**
 * bucket, windowStart, limit: counts one hit unless the window is full, returning the new count (no
 * row when refused). The conflicting row is named by its table: both engines accept that, and an
 * unqualified `count` would be ambiguous on PostgreSQL (the target row or `excluded`).
 */
export const HIT_RATE_WINDOW = `INSERT INTO rate_windows (bucket, window_start, count) VALUES (?, ?, 1)
  ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_windows.count + 1
  WHERE rate_windows.count < ?
  RETURNING count`;

/** bucket, windowStart. */
export const RATE_WINDOW_COUNT = 'SELECT count FROM rate_windows WHERE bucket = ? AND window_start = ?';

/** prefixLength, prefix, before. `substr(s, 1, n)` is the first n characters on both engines. */
export const PRUNE_RATE_WINDOWS =
  'DELETE FROM rate_windows WHERE substr(bucket, 1, ?) = ? AND window_start < ?';

/** bucket. */
export const ROLLING_WINDOW_HITS = 'SELECT hits FROM rolling_windows WHERE bucket = ?';

/** prefixLength, prefix, before. */
export const PRUNE_ROLLING_WINDOWS =
  'DELETE FROM rolling_windows WHERE substr(bucket, 1, ?) = ? AND last_hit <= ?';

/** key, now. */
export const CACHED_CHECK = 'SELECT * FROM tax_check_cache WHERE key = ? AND expires_at > ?';

/** key, body, computedAt, expiresAt: an older computation never replaces a newer one. */
export const PUT_CACHED_CHECK = `INSERT INTO tax_check_cache (key, body, computed_at, expires_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (key) DO UPDATE SET body = excluded.body, computed_at = excluded.computed_at,
    expires_at = excluded.expires_at
  WHERE excluded.computed_at >= tax_check_cache.computed_at`;

/** now. */
export const PRUNE_CACHED_CHECKS = 'DELETE FROM tax_check_cache WHERE expires_at <= ?';

/**
 * name, candidate, createdAt. Followed by `SALT`, a statement of its own: on PostgreSQL an
 * `INSERT ... RETURNING` plus a read in one statement would read with the statement's snapshot and
 * could miss a row another instance committed while this one waited on the conflict.
 */
export const OFFER_SALT =
  'INSERT INTO state_salts (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING';

/** name. */
export const SALT = 'SELECT value FROM state_salts WHERE name = ?';
