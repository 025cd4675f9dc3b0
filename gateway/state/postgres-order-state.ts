import type pg from 'pg';
import {
  progressText,
  toOrder,
  toOrderRetry,
  toPaymentEvent,
  toRevision,
  unpaidOutcome,
} from './order-rows.js';
import {
  type AddRevisionOutcome,
  type BuildProgress,
  type CompletedFulfilment,
  type CompletedRevision,
  type FulfilmentClaim,
  type LeaseClaim,
  type NewOrder,
  type NewRevision,
  type OrderPaymentEvent,
  type OrderRecord,
  type OrderRetry,
  type OrderRevision,
  type OrderState,
  type OrderStatus,
  type PaymentEvent,
  type PaymentOutcome,
  type RejectedRevision,
  type RequeueOutcome,
  type RequeueRevisionOutcome,
  takesUploads,
} from './order-state.js';
import {
  ALL_ORDERS,
  ATTACH_CHECKOUT_SESSION,
  BUILD_REVISION,
  COMPLETE_FULFILMENT,
  claimOrderForDelivery,
  claimOrderForFulfilment,
  claimRevision,
  claimRevisionDelivery,
  EXPIRED_PACKS,
  INSERT_ORDER,
  INSERT_ORDER_RETRY,
  INSERT_REVISION_RETRY,
  MARK_ORDER_EMAILED,
  MARK_ORDER_PAID,
  MARK_REVISION_EMAILED,
  MARK_REVISION_FILES_DELETED,
  ORDER_BY_ID,
  ORDER_PAYMENTS,
  ORDER_RETRIES,
  ORDER_REVISIONS,
  ORDER_STATUS,
  ORDERS_WITH_STATUS,
  PURGE_ORDER,
  RECORD_PAYMENT_EVENT,
  REJECT_REVISION,
  REJECTED_WITH_FILES,
  RELEASE_ORDER_LEASE,
  RELEASE_REVISION_LEASE,
  RENEW_ORDER_LEASE,
  RENEW_REVISION_LEASE,
  REQUEUE_ORDER,
  REQUEUE_REVISION,
  REVISION_BY_KEY,
  SET_PAYMENT_OUTCOME,
} from './order-statements.js';
import { numbered } from './sql-runner.js';
import type { Row } from './state-rows.js';

// Concurrent workers take different rows: a row another worker has locked is skipped, not waited for.
const CLAIM_ORDER_FOR_FULFILMENT = claimOrderForFulfilment('FOR UPDATE SKIP LOCKED');
const CLAIM_ORDER_FOR_DELIVERY = claimOrderForDelivery('FOR UPDATE SKIP LOCKED');
// `OF r`: the subquery joins the order, and only the revision's row is locked (or skipped), not the order's.
const CLAIM_REVISION = claimRevision('FOR UPDATE OF r SKIP LOCKED');
const CLAIM_REVISION_DELIVERY = claimRevisionDelivery('FOR UPDATE OF r SKIP LOCKED');

/**
 * The row to requeue, locked: a concurrent retry waits, then finds it no longer stuck. (SQLite's
 * IMMEDIATE transaction holds the database's write lock instead, so it reads the row unlocked.)
 */
const LOCK_ORDER = `${ORDER_BY_ID} FOR UPDATE`;
const LOCK_REVISION = `${REVISION_BY_KEY} FOR UPDATE`;

/**
 * The purge and the erasure of the order's revisions in one statement (a data-modifying CTE; SQLite,
 * which has none, runs the two in one transaction). `files` is jsonb here, JSON text on SQLite.
 * Parameters: those of `PURGE_ORDER`.
 */
const PURGE_ORDER_AND_REVISIONS = `WITH purged AS (${PURGE_ORDER} RETURNING id),
  erased AS (
    UPDATE order_revisions SET files = '[]'::jsonb,
      problem = CASE WHEN problem IS NULL THEN NULL ELSE 'erased with the pack' END
    WHERE order_id IN (SELECT id FROM purged))
  SELECT count(*)::int AS n FROM purged`;

/**
 * The build and the versions it supersedes in one statement (a data-modifying CTE; SQLite runs the
 * two in one transaction). Parameters: those of `BUILD_REVISION`.
 */
const BUILD_AND_SUPERSEDE_REVISIONS = `WITH built AS (${BUILD_REVISION} RETURNING order_id, version),
  superseded AS (
    UPDATE order_revisions e SET status = 'superseded', superseded_by = b.version, lease_owner = NULL,
      lease_expires_at = NULL, next_attempt_at = NULL
    FROM built b WHERE e.order_id = b.order_id AND e.version < b.version AND e.status = 'pending')
  SELECT count(*)::int AS n FROM built`;

/**
 * The next version of an order's pack with the order's check in the same INSERT: two uploads at once
 * may compute the same number, and the loser meets the primary key and tries again (SQLite checks and
 * numbers under its IMMEDIATE transaction's write lock instead).
 */
const INSERT_REVISION = `INSERT INTO order_revisions (order_id, version, status, created_at, files)
  SELECT o.id, coalesce((SELECT max(version) FROM order_revisions WHERE order_id = o.id), 1) + 1,
    'pending', $2, $3::jsonb
  FROM orders o
  WHERE o.id = $1 AND o.status IN ('paid', 'fulfilled') AND o.purged_at IS NULL
    AND (o.pack_expires_at IS NULL OR o.pack_expires_at > $2)
  RETURNING *`;

/**
 * Orders on PostgreSQL, shared by every gateway instance and job. Status changes are single UPDATEs
 * whose WHERE holds the condition: PostgreSQL re-evaluates it on the newest row version after waiting
 * for a concurrent writer's lock, so of two racing updates only one matches. Claims pick their row
 * with `FOR UPDATE SKIP LOCKED`, so concurrent workers take different orders instead of queueing on
 * one. The payment is one transaction: the event's primary key and the order update commit together.
 */
export class PostgresOrderState implements OrderState {
  constructor(private readonly pool: pg.Pool) {}

  /** A shared text (`?` placeholders, numbered here) or one of this engine's own (`$n`). */
  private async rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query<Row>(numbered(sql), params)).rows;
  }

  private async one(sql: string, params: unknown[]): Promise<Row | undefined> {
    return (await this.rows(sql, params))[0];
  }

  private async changes(sql: string, params: unknown[]): Promise<number> {
    return (await this.pool.query(numbered(sql), params)).rowCount ?? 0;
  }

  async insertOrder(order: NewOrder): Promise<OrderRecord> {
    const row = await this.one(INSERT_ORDER, [
      order.id,
      order.sku,
      order.packName,
      order.packKind,
      order.taxYear,
      // A text[] column: pg binds the array as one.
      order.coldkeys,
      order.amountMinor,
      order.currency,
      order.retentionDays,
      order.origin,
      order.createdAt,
    ]);
    return toOrder(row!);
  }

  async getOrder(id: string): Promise<OrderRecord | null> {
    const row = await this.one(ORDER_BY_ID, [id]);
    return row ? toOrder(row) : null;
  }

  async listOrders(filter: { status?: OrderStatus } = {}): Promise<OrderRecord[]> {
    const rows = filter.status
      ? await this.rows(ORDERS_WITH_STATUS, [filter.status])
      : await this.rows(ALL_ORDERS);
    return rows.map(toOrder);
  }

  async attachCheckoutSession(id: string, sessionId: string): Promise<boolean> {
    return (await this.changes(ATTACH_CHECKOUT_SESSION, [sessionId, id])) === 1;
  }

  async markPaid(event: PaymentEvent): Promise<PaymentOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // A concurrent delivery of the same event waits on this primary key until we commit, then
      // finds it and does nothing; if we roll back, it goes ahead as if it were first.
      const recorded = await client.query(numbered(RECORD_PAYMENT_EVENT), [
        event.eventId,
        event.eventType,
        event.orderId,
        event.receivedAt,
      ]);
      if (recorded.rowCount === 0) {
        await client.query('ROLLBACK');
        return 'duplicate-event';
      }
      const paid = await client.query(numbered(MARK_ORDER_PAID), [
        event.paidAt,
        event.email,
        event.sessionId,
        event.orderId,
        event.amountMinor,
        event.currency,
      ]);
      const outcome: PaymentOutcome =
        paid.rowCount === 1
          ? 'paid'
          : unpaidOutcome((await client.query<Row>(numbered(ORDER_STATUS), [event.orderId])).rows[0]);
      await client.query(numbered(SET_PAYMENT_OUTCOME), [outcome, event.eventId]);
      await client.query('COMMIT');
      return outcome;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async claimForFulfilment(claim: FulfilmentClaim): Promise<OrderRecord | null> {
    const row = await this.one(CLAIM_ORDER_FOR_FULFILMENT, [
      claim.worker,
      claim.leaseUntil,
      claim.now,
      claim.now,
      claim.maxAttempts,
    ]);
    return row ? toOrder(row) : null;
  }

  async renewLease(
    id: string,
    worker: string,
    now: Date,
    leaseUntil: Date,
    progress?: BuildProgress,
  ): Promise<boolean> {
    return (
      (await this.changes(RENEW_ORDER_LEASE, [leaseUntil, progressText(progress), id, worker, now])) === 1
    );
  }

  async releaseLease(id: string, worker: string, error: string, nextAttemptAt: Date): Promise<void> {
    await this.changes(RELEASE_ORDER_LEASE, [error, nextAttemptAt, id, worker]);
  }

  async completeFulfilment(done: CompletedFulfilment): Promise<boolean> {
    return (
      (await this.changes(COMPLETE_FULFILMENT, [
        done.fulfilledAt,
        done.packKey,
        done.packExpiresAt,
        done.id,
        done.worker,
      ])) === 1
    );
  }

  async claimForDelivery(claim: LeaseClaim): Promise<OrderRecord | null> {
    const row = await this.one(CLAIM_ORDER_FOR_DELIVERY, [
      claim.worker,
      claim.leaseUntil,
      claim.now,
      claim.now,
    ]);
    return row ? toOrder(row) : null;
  }

  async markEmailed(id: string, worker: string, at: Date): Promise<boolean> {
    return (await this.changes(MARK_ORDER_EMAILED, [at, id, worker])) === 1;
  }

  async listExpiredPacks(asOf: Date): Promise<OrderRecord[]> {
    return (await this.rows(EXPIRED_PACKS, [asOf])).map(toOrder);
  }

  async markPurged(id: string, at: Date): Promise<boolean> {
    // With the email go the names of the buyer's files and the problems that quote them:
    // one statement, both updates or neither.
    const row = await this.one(PURGE_ORDER_AND_REVISIONS, [at, id]);
    return Number(row?.['n'] ?? 0) === 1;
  }

  async requeueStuck(id: string, now: Date, maxAttempts: number): Promise<RequeueOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const before = (await client.query<Row>(numbered(LOCK_ORDER), [id])).rows[0];
      if (!before) {
        await client.query('ROLLBACK');
        return { outcome: 'unknown-order' };
      }
      const row = (await client.query<Row>(numbered(REQUEUE_ORDER), [id, maxAttempts, now])).rows[0];
      if (!row) {
        await client.query('ROLLBACK');
        return { outcome: 'not-stuck', order: toOrder(before) };
      }
      await client.query(numbered(INSERT_ORDER_RETRY), [
        id,
        now,
        Number(before['fulfil_attempts']),
        before['last_error'] ?? null,
      ]);
      await client.query('COMMIT');
      return { outcome: 'requeued', order: toOrder(row) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async orderHistory(id: string): Promise<{ payments: OrderPaymentEvent[]; retries: OrderRetry[] }> {
    const payments = await this.rows(ORDER_PAYMENTS, [id]);
    const retries = await this.rows(ORDER_RETRIES, [id]);
    return { payments: payments.map(toPaymentEvent), retries: retries.map(toOrderRetry) };
  }
  async addRevision(revision: NewRevision): Promise<AddRevisionOutcome> {
    // The condition is in the INSERT; two uploads at once compute the same next version and one of them
    // meets the primary key (23505): it tries again with the number after.
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await this.one(INSERT_REVISION, [
          revision.orderId,
          revision.createdAt,
          JSON.stringify(revision.files),
        ]);
        if (row) return { outcome: 'added', revision: toRevision(row) };
        const order = await this.getOrder(revision.orderId);
        if (!order) return { outcome: 'unknown-order' };
        if (takesUploads(order, revision.createdAt)) continue;
        return { outcome: 'not-open', order };
      } catch (error) {
        if ((error as { code?: string }).code !== '23505' || attempt >= 20) throw error;
      }
    }
  }

  async listRevisions(orderId: string): Promise<OrderRevision[]> {
    return (await this.rows(ORDER_REVISIONS, [orderId])).map(toRevision);
  }

  async claimRevision(claim: FulfilmentClaim): Promise<OrderRevision | null> {
    const { worker, leaseUntil, now, maxAttempts } = claim;
    const row = await this.one(CLAIM_REVISION, [
      worker,
      leaseUntil,
      now,
      now,
      maxAttempts,
      now,
      maxAttempts,
      now,
    ]);
    return row ? toRevision(row) : null;
  }

  async renewRevisionLease(
    orderId: string,
    version: number,
    worker: string,
    now: Date,
    leaseUntil: Date,
    progress?: BuildProgress,
  ): Promise<boolean> {
    return (
      (await this.changes(RENEW_REVISION_LEASE, [
        leaseUntil,
        progressText(progress),
        orderId,
        version,
        worker,
        now,
      ])) === 1
    );
  }

  async releaseRevisionLease(
    orderId: string,
    version: number,
    worker: string,
    error: string,
    nextAttemptAt: Date,
  ): Promise<void> {
    await this.changes(RELEASE_REVISION_LEASE, [error, nextAttemptAt, orderId, version, worker]);
  }

  async completeRevision(done: CompletedRevision): Promise<boolean> {
    // One statement: the build and the earlier versions it supersedes change together or not at all.
    const row = await this.one(BUILD_AND_SUPERSEDE_REVISIONS, [
      done.builtAt,
      done.packKey,
      done.orderId,
      done.version,
      done.worker,
    ]);
    return Number(row?.['n'] ?? 0) === 1;
  }

  async rejectRevision(rejected: RejectedRevision): Promise<boolean> {
    return (
      (await this.changes(REJECT_REVISION, [
        rejected.problem,
        rejected.orderId,
        rejected.version,
        rejected.worker,
      ])) === 1
    );
  }

  async claimRevisionDelivery(claim: LeaseClaim): Promise<OrderRevision | null> {
    const { worker, leaseUntil, now } = claim;
    const row = await this.one(CLAIM_REVISION_DELIVERY, [worker, leaseUntil, now, now, now]);
    return row ? toRevision(row) : null;
  }

  async markRevisionEmailed(orderId: string, version: number, worker: string, at: Date): Promise<boolean> {
    return (await this.changes(MARK_REVISION_EMAILED, [at, orderId, version, worker])) === 1;
  }

  async listRejectedWithFiles(): Promise<OrderRevision[]> {
    return (await this.rows(REJECTED_WITH_FILES)).map(toRevision);
  }

  async markRevisionFilesDeleted(orderId: string, version: number, at: Date): Promise<boolean> {
    return (await this.changes(MARK_REVISION_FILES_DELETED, [at, orderId, version])) === 1;
  }

  async requeueStuckRevision(
    orderId: string,
    version: number,
    now: Date,
    maxAttempts: number,
  ): Promise<RequeueRevisionOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const before = (await client.query<Row>(numbered(LOCK_REVISION), [orderId, version])).rows[0];
      if (!before) {
        await client.query('ROLLBACK');
        return { outcome: 'unknown-revision' };
      }
      const row = (await client.query<Row>(numbered(REQUEUE_REVISION), [orderId, version, maxAttempts, now]))
        .rows[0];
      if (!row) {
        await client.query('ROLLBACK');
        return { outcome: 'not-stuck', revision: toRevision(before) };
      }
      await client.query(numbered(INSERT_REVISION_RETRY), [
        orderId,
        now,
        Number(before['attempts']),
        before['last_error'] ?? null,
        version,
      ]);
      await client.query('COMMIT');
      return { outcome: 'requeued', revision: toRevision(row) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
