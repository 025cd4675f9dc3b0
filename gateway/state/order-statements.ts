/*
 * The orders' statements that are the same on SQLite and PostgreSQL, written once with `?`
 * placeholders (PostgreSQL runs them through `numbered`, see sql-runner.ts). Each comment lists the
 * parameters in order; a value used twice in a statement is passed twice. A claim picks its row in a
 * subquery that takes the engine's row lock (`RowLock`). What differs between the engines on purpose
 * (the revision insert, the one-statement forms of two-statement transactions, column types) stays in
 * `sqlite-order-state.ts` and `postgres-order-state.ts`, each with its reason.
 */

/**
 * Appended to a claim's row-picking subquery: SQLite has one writer at a time and takes no row locks
 * (''); PostgreSQL skips rows another worker has locked, so concurrent workers take different rows.
 */
export type RowLock = '' | 'FOR UPDATE SKIP LOCKED' | 'FOR UPDATE OF r SKIP LOCKED';

/**
 * id, sku, packName, packKind, taxYear, coldkeys, amountMinor, currency, retentionDays, origin,
 * createdAt. An order is inserted only as `created`. `coldkeys` is bound per engine: JSON text on
 * SQLite, a text[] on PostgreSQL.
 */
export const INSERT_ORDER = `INSERT INTO orders (id, status, sku, pack_name, pack_kind, tax_year, coldkeys, amount_minor,
    currency, retention_days, origin, created_at)
  VALUES (?, 'created', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`;

/** id. */
export const ORDER_BY_ID = 'SELECT * FROM orders WHERE id = ?';

/** status. */
export const ORDERS_WITH_STATUS = 'SELECT * FROM orders WHERE status = ? ORDER BY created_at DESC, id';

export const ALL_ORDERS = 'SELECT * FROM orders ORDER BY created_at DESC, id';

/** sessionId, id. */
export const ATTACH_CHECKOUT_SESSION = `UPDATE orders SET stripe_session_id = ? WHERE id = ? AND status = 'created'`;

/** eventId, eventType, orderId, receivedAt: no row changed means the event was seen before. */
export const RECORD_PAYMENT_EVENT = `INSERT INTO payment_events (event_id, event_type, order_id, outcome, received_at)
  VALUES (?, ?, ?, 'pending', ?) ON CONFLICT (event_id) DO NOTHING`;

/**
 * paidAt, email, sessionId, id, amountMinor, currency. The one statement that sets an order `paid`,
 * run only by the engines' `markPaid`.
 */
export const MARK_ORDER_PAID = `UPDATE orders SET status = 'paid', paid_at = ?, buyer_email = ?,
    stripe_session_id = coalesce(stripe_session_id, ?)
  WHERE id = ? AND status = 'created' AND amount_minor = ? AND currency = ?`;

/** id. */
export const ORDER_STATUS = 'SELECT status FROM orders WHERE id = ?';

/** outcome, eventId. */
export const SET_PAYMENT_OUTCOME = 'UPDATE payment_events SET outcome = ? WHERE event_id = ?';

/**
 * worker, leaseUntil, now, now, maxAttempts: the paid order waiting longest, leased to the worker. An earlier
 * try's progress is cleared: the new build reports its own.
 */
export const claimOrderForFulfilment = (lock: RowLock) => `UPDATE orders
  SET lease_owner = ?, lease_expires_at = ?, fulfil_attempts = fulfil_attempts + 1, build_progress = NULL
  WHERE id = (
    SELECT id FROM orders
    WHERE status = 'paid' AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
      AND (next_attempt_at IS NULL OR next_attempt_at <= ?) AND fulfil_attempts < ?
    ORDER BY paid_at, id LIMIT 1
    ${lock})
  RETURNING *`;

/** leaseUntil, progress (JSON text; null keeps the one recorded), id, worker, now. */
export const RENEW_ORDER_LEASE = `UPDATE orders SET lease_expires_at = ?, build_progress = coalesce(?, build_progress)
  WHERE id = ? AND lease_owner = ? AND lease_expires_at > ?`;

/** error, nextAttemptAt, id, worker. */
export const RELEASE_ORDER_LEASE = `UPDATE orders
  SET lease_owner = NULL, lease_expires_at = NULL, last_error = ?, next_attempt_at = ?
  WHERE id = ? AND lease_owner = ?`;

/**
 * fulfilledAt, packKey, packExpiresAt, id, worker. The one statement that sets an order `fulfilled`,
 * run only by the engines' `completeFulfilment`.
 */
export const COMPLETE_FULFILMENT = `UPDATE orders SET status = 'fulfilled', fulfilled_at = ?, pack_key = ?,
    pack_expires_at = ?, lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
  WHERE id = ? AND status = 'paid' AND lease_owner = ?`;

/** worker, leaseUntil, now, now: the fulfilled order whose email is due longest, leased to the worker. */
export const claimOrderForDelivery = (
  lock: RowLock,
) => `UPDATE orders SET lease_owner = ?, lease_expires_at = ?
  WHERE id = (
    SELECT id FROM orders
    WHERE status = 'fulfilled' AND emailed_at IS NULL AND purged_at IS NULL AND buyer_email IS NOT NULL
      AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
      AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
    ORDER BY fulfilled_at, id LIMIT 1
    ${lock})
  RETURNING *`;

/** at, id, worker. */
export const MARK_ORDER_EMAILED = `UPDATE orders SET emailed_at = ?, lease_owner = NULL, lease_expires_at = NULL,
    next_attempt_at = NULL, last_error = NULL
  WHERE id = ? AND lease_owner = ? AND emailed_at IS NULL`;

/** asOf. */
export const EXPIRED_PACKS = `SELECT * FROM orders
  WHERE status = 'fulfilled' AND pack_expires_at <= ? AND purged_at IS NULL
  ORDER BY pack_expires_at, id`;

/** at, id. The buyer's email goes with the pack (the revisions' files go in the same transaction). */
export const PURGE_ORDER =
  'UPDATE orders SET purged_at = ?, buyer_email = NULL WHERE id = ? AND purged_at IS NULL';

/** id, maxAttempts, now: a paid order out of tries, not leased, gets its tries back. */
export const REQUEUE_ORDER = `UPDATE orders
  SET fulfil_attempts = 0, next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
  WHERE id = ? AND status = 'paid' AND fulfil_attempts >= ?
    AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
  RETURNING *`;

/** orderId, retriedAt, attemptsBefore, errorBefore. */
export const INSERT_ORDER_RETRY = `INSERT INTO order_retries (order_id, retried_at, attempts_before, error_before)
  VALUES (?, ?, ?, ?)`;

/** orderId. */
export const ORDER_PAYMENTS =
  'SELECT * FROM payment_events WHERE order_id = ? ORDER BY received_at, event_id';

/** orderId. */
export const ORDER_RETRIES = 'SELECT * FROM order_retries WHERE order_id = ? ORDER BY retried_at';

/** orderId. */
export const ORDER_REVISIONS = 'SELECT * FROM order_revisions WHERE order_id = ? ORDER BY version';

/** orderId, version. */
export const REVISION_BY_KEY = 'SELECT * FROM order_revisions WHERE order_id = ? AND version = ?';

/**
 * worker, leaseUntil, now, now, maxAttempts, now, maxAttempts, now: the pending revision waiting
 * longest, of a fulfilled order whose pack is still kept, and only once every earlier pending version
 * of its order is out of tries and unleased.
 */
export const claimRevision = (lock: RowLock) => `UPDATE order_revisions
  SET lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, build_progress = NULL
  WHERE (order_id, version) = (
    SELECT r.order_id, r.version FROM order_revisions r JOIN orders o ON o.id = r.order_id
    WHERE r.status = 'pending' AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= ?)
      AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ?) AND r.attempts < ?
      AND o.status = 'fulfilled' AND o.purged_at IS NULL AND o.pack_expires_at > ?
      AND NOT EXISTS (SELECT 1 FROM order_revisions e
        WHERE e.order_id = r.order_id AND e.version < r.version AND e.status = 'pending'
          AND (e.attempts < ? OR e.lease_expires_at > ?))
    ORDER BY r.created_at, r.order_id, r.version LIMIT 1
    ${lock})
  RETURNING *`;

/** leaseUntil, progress (JSON text; null keeps the one recorded), orderId, version, worker, now. */
export const RENEW_REVISION_LEASE = `UPDATE order_revisions SET lease_expires_at = ?,
    build_progress = coalesce(?, build_progress)
  WHERE order_id = ? AND version = ? AND status = 'pending' AND lease_owner = ? AND lease_expires_at > ?`;

/** error, nextAttemptAt, orderId, version, worker. */
export const RELEASE_REVISION_LEASE = `UPDATE order_revisions
  SET lease_owner = NULL, lease_expires_at = NULL, last_error = ?, next_attempt_at = ?
  WHERE order_id = ? AND version = ? AND lease_owner = ?`;

/** builtAt, packKey, orderId, version, worker. Earlier pending versions are superseded with it. */
export const BUILD_REVISION = `UPDATE order_revisions SET status = 'built', built_at = ?, pack_key = ?,
    lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
  WHERE order_id = ? AND version = ? AND status = 'pending' AND lease_owner = ?`;

/** problem, orderId, version, worker. */
export const REJECT_REVISION = `UPDATE order_revisions SET status = 'rejected', problem = ?, lease_owner = NULL,
    lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
  WHERE order_id = ? AND version = ? AND status = 'pending' AND lease_owner = ?`;

/** worker, leaseUntil, now, now, now: the built revision whose email is due longest. */
export const claimRevisionDelivery = (
  lock: RowLock,
) => `UPDATE order_revisions SET lease_owner = ?, lease_expires_at = ?
  WHERE (order_id, version) = (
    SELECT r.order_id, r.version FROM order_revisions r JOIN orders o ON o.id = r.order_id
    WHERE r.status = 'built' AND r.emailed_at IS NULL
      AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= ?)
      AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ?)
      AND o.status = 'fulfilled' AND o.purged_at IS NULL AND o.buyer_email IS NOT NULL
      AND o.pack_expires_at > ?
    ORDER BY r.built_at, r.order_id, r.version LIMIT 1
    ${lock})
  RETURNING *`;

/** at, orderId, version, worker. */
export const MARK_REVISION_EMAILED = `UPDATE order_revisions SET emailed_at = ?, lease_owner = NULL,
    lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
  WHERE order_id = ? AND version = ? AND status = 'built' AND lease_owner = ? AND emailed_at IS NULL`;

export const REJECTED_WITH_FILES = `SELECT * FROM order_revisions WHERE status = 'rejected' AND files_deleted_at IS NULL
  ORDER BY order_id, version`;

/** at, orderId, version. */
export const MARK_REVISION_FILES_DELETED = `UPDATE order_revisions SET files_deleted_at = ?
  WHERE order_id = ? AND version = ? AND status = 'rejected' AND files_deleted_at IS NULL`;

/** orderId, version, maxAttempts, now: a pending revision out of tries, not leased, gets them back. */
export const REQUEUE_REVISION = `UPDATE order_revisions
  SET attempts = 0, next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
  WHERE order_id = ? AND version = ? AND status = 'pending' AND attempts >= ?
    AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
  RETURNING *`;

/** orderId, retriedAt, attemptsBefore, errorBefore, version. */
export const INSERT_REVISION_RETRY = `INSERT INTO order_retries
  (order_id, retried_at, attempts_before, error_before, version)
  VALUES (?, ?, ?, ?, ?)`;
