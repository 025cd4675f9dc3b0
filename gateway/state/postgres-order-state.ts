import type pg from 'pg';
import { toOrder, toOrderRetry, toPaymentEvent, toRevision, unpaidOutcome } from './order-rows.js';
import {
  type AddRevisionOutcome,
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
import type { Row } from './state-rows.js';

/**
 * Orders on PostgreSQL, shared by every gateway instance and job. Status changes are single UPDATEs
 * whose WHERE holds the condition: PostgreSQL re-evaluates it on the newest row version after waiting
 * for a concurrent writer's lock, so of two racing updates only one matches. Claims pick their row
 * with `FOR UPDATE SKIP LOCKED`, so concurrent workers take different orders instead of queueing on
 * one. The payment is one transaction: the event's primary key and the order update commit together.
 */
export class PostgresOrderState implements OrderState {
  constructor(private readonly pool: pg.Pool) {}

  private async one(sql: string, params: unknown[]): Promise<Row | undefined> {
    return (await this.pool.query<Row>(sql, params)).rows[0];
  }

  private async changes(sql: string, params: unknown[]): Promise<number> {
    return (await this.pool.query(sql, params)).rowCount ?? 0;
  }

  async insertOrder(order: NewOrder): Promise<OrderRecord> {
    const row = await this.one(
      `INSERT INTO orders (id, status, sku, pack_name, pack_kind, tax_year, coldkeys, amount_minor, currency,
         retention_days, origin, created_at)
       VALUES ($1, 'created', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [
        order.id,
        order.sku,
        order.packName,
        order.packKind,
        order.taxYear,
        order.coldkeys,
        order.amountMinor,
        order.currency,
        order.retentionDays,
        order.origin,
        order.createdAt,
      ],
    );
    return toOrder(row!);
  }

  async getOrder(id: string): Promise<OrderRecord | null> {
    const row = await this.one('SELECT * FROM orders WHERE id = $1', [id]);
    return row ? toOrder(row) : null;
  }

  async listOrders(filter: { status?: OrderStatus } = {}): Promise<OrderRecord[]> {
    const result = filter.status
      ? await this.pool.query<Row>('SELECT * FROM orders WHERE status = $1 ORDER BY created_at DESC, id', [
          filter.status,
        ])
      : await this.pool.query<Row>('SELECT * FROM orders ORDER BY created_at DESC, id');
    return result.rows.map(toOrder);
  }

  async attachCheckoutSession(id: string, sessionId: string): Promise<boolean> {
    return (
      (await this.changes(`UPDATE orders SET stripe_session_id = $2 WHERE id = $1 AND status = 'created'`, [
        id,
        sessionId,
      ])) === 1
    );
  }

  async markPaid(event: PaymentEvent): Promise<PaymentOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // A concurrent delivery of the same event waits on this primary key until we commit, then
      // finds it and does nothing; if we roll back, it goes ahead as if it were first.
      const recorded = await client.query(
        `INSERT INTO payment_events (event_id, event_type, order_id, outcome, received_at)
         VALUES ($1, $2, $3, 'pending', $4) ON CONFLICT (event_id) DO NOTHING`,
        [event.eventId, event.eventType, event.orderId, event.receivedAt],
      );
      if (recorded.rowCount === 0) {
        await client.query('ROLLBACK');
        return 'duplicate-event';
      }
      const paid = await client.query(
        `UPDATE orders SET status = 'paid', paid_at = $2, buyer_email = $3,
           stripe_session_id = coalesce(stripe_session_id, $4)
         WHERE id = $1 AND status = 'created' AND amount_minor = $5 AND currency = $6`,
        [event.orderId, event.receivedAt, event.email, event.sessionId, event.amountMinor, event.currency],
      );
      const outcome: PaymentOutcome =
        paid.rowCount === 1
          ? 'paid'
          : unpaidOutcome(
              (await client.query<Row>('SELECT status FROM orders WHERE id = $1', [event.orderId])).rows[0],
            );
      await client.query('UPDATE payment_events SET outcome = $2 WHERE event_id = $1', [
        event.eventId,
        outcome,
      ]);
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
    const row = await this.one(
      `UPDATE orders SET lease_owner = $1, lease_expires_at = $2, fulfil_attempts = fulfil_attempts + 1
       WHERE id = (
         SELECT id FROM orders
         WHERE status = 'paid' AND (lease_expires_at IS NULL OR lease_expires_at <= $3)
           AND (next_attempt_at IS NULL OR next_attempt_at <= $3) AND fulfil_attempts < $4
         ORDER BY paid_at, id LIMIT 1
         FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [claim.worker, claim.leaseUntil, claim.now, claim.maxAttempts],
    );
    return row ? toOrder(row) : null;
  }

  async renewLease(id: string, worker: string, now: Date, leaseUntil: Date): Promise<boolean> {
    return (
      (await this.changes(
        'UPDATE orders SET lease_expires_at = $4 WHERE id = $1 AND lease_owner = $2 AND lease_expires_at > $3',
        [id, worker, now, leaseUntil],
      )) === 1
    );
  }

  async releaseLease(id: string, worker: string, error: string, nextAttemptAt: Date): Promise<void> {
    await this.changes(
      `UPDATE orders SET lease_owner = NULL, lease_expires_at = NULL, last_error = $3, next_attempt_at = $4
       WHERE id = $1 AND lease_owner = $2`,
      [id, worker, error, nextAttemptAt],
    );
  }

  async completeFulfilment(done: CompletedFulfilment): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE orders SET status = 'fulfilled', fulfilled_at = $3, pack_key = $4, pack_expires_at = $5,
           lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
         WHERE id = $1 AND status = 'paid' AND lease_owner = $2`,
        [done.id, done.worker, done.fulfilledAt, done.packKey, done.packExpiresAt],
      )) === 1
    );
  }

  async claimForDelivery(claim: LeaseClaim): Promise<OrderRecord | null> {
    const row = await this.one(
      `UPDATE orders SET lease_owner = $1, lease_expires_at = $2
       WHERE id = (
         SELECT id FROM orders
         WHERE status = 'fulfilled' AND emailed_at IS NULL AND purged_at IS NULL AND buyer_email IS NOT NULL
           AND (lease_expires_at IS NULL OR lease_expires_at <= $3)
           AND (next_attempt_at IS NULL OR next_attempt_at <= $3)
         ORDER BY fulfilled_at, id LIMIT 1
         FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [claim.worker, claim.leaseUntil, claim.now],
    );
    return row ? toOrder(row) : null;
  }

  async markEmailed(id: string, worker: string, at: Date): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE orders SET emailed_at = $3, lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL,
           last_error = NULL
         WHERE id = $1 AND lease_owner = $2 AND emailed_at IS NULL`,
        [id, worker, at],
      )) === 1
    );
  }

  async listExpiredPacks(asOf: Date): Promise<OrderRecord[]> {
    const result = await this.pool.query<Row>(
      `SELECT * FROM orders WHERE status = 'fulfilled' AND pack_expires_at <= $1 AND purged_at IS NULL
       ORDER BY pack_expires_at, id`,
      [asOf],
    );
    return result.rows.map(toOrder);
  }

  async markPurged(id: string, at: Date): Promise<boolean> {
    // With the email go the names of the buyer's files and the problems that quote them (issue 36):
    // one statement, both updates or neither.
    const result = await this.pool.query<Row>(
      `WITH purged AS (
         UPDATE orders SET purged_at = $2, buyer_email = NULL WHERE id = $1 AND purged_at IS NULL RETURNING id),
       erased AS (
         UPDATE order_revisions SET files = '[]'::jsonb,
           problem = CASE WHEN problem IS NULL THEN NULL ELSE 'erased with the pack' END
         WHERE order_id IN (SELECT id FROM purged))
       SELECT count(*)::int AS n FROM purged`,
      [id, at],
    );
    return Number(result.rows[0]?.['n'] ?? 0) === 1;
  }

  async requeueStuck(id: string, now: Date, maxAttempts: number): Promise<RequeueOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // The row lock makes a concurrent retry wait, then find the order no longer stuck.
      const before = (await client.query<Row>('SELECT * FROM orders WHERE id = $1 FOR UPDATE', [id])).rows[0];
      if (!before) {
        await client.query('ROLLBACK');
        return { outcome: 'unknown-order' };
      }
      const row = (
        await client.query<Row>(
          `UPDATE orders SET fulfil_attempts = 0, next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
           WHERE id = $1 AND status = 'paid' AND fulfil_attempts >= $2
             AND (lease_expires_at IS NULL OR lease_expires_at <= $3)
           RETURNING *`,
          [id, maxAttempts, now],
        )
      ).rows[0];
      if (!row) {
        await client.query('ROLLBACK');
        return { outcome: 'not-stuck', order: toOrder(before) };
      }
      await client.query(
        'INSERT INTO order_retries (order_id, retried_at, attempts_before, error_before) VALUES ($1, $2, $3, $4)',
        [id, now, Number(before['fulfil_attempts']), before['last_error'] ?? null],
      );
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
    const payments = await this.pool.query<Row>(
      'SELECT * FROM payment_events WHERE order_id = $1 ORDER BY received_at, event_id',
      [id],
    );
    const retries = await this.pool.query<Row>(
      'SELECT * FROM order_retries WHERE order_id = $1 ORDER BY retried_at',
      [id],
    );
    return { payments: payments.rows.map(toPaymentEvent), retries: retries.rows.map(toOrderRetry) };
  }
  async addRevision(revision: NewRevision): Promise<AddRevisionOutcome> {
    // The condition is in the INSERT; two uploads at once compute the same next version and one of them
    // meets the primary key (23505): it tries again with the number after.
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await this.one(
          `INSERT INTO order_revisions (order_id, version, status, created_at, files)
           SELECT o.id, coalesce((SELECT max(version) FROM order_revisions WHERE order_id = o.id), 1) + 1,
             'pending', $2, $3::jsonb
           FROM orders o
           WHERE o.id = $1 AND o.status IN ('paid', 'fulfilled') AND o.purged_at IS NULL
             AND (o.pack_expires_at IS NULL OR o.pack_expires_at > $2)
           RETURNING *`,
          [revision.orderId, revision.createdAt, JSON.stringify(revision.files)],
        );
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
    const result = await this.pool.query<Row>(
      'SELECT * FROM order_revisions WHERE order_id = $1 ORDER BY version',
      [orderId],
    );
    return result.rows.map(toRevision);
  }

  async claimRevision(claim: FulfilmentClaim): Promise<OrderRevision | null> {
    const row = await this.one(
      `UPDATE order_revisions SET lease_owner = $1, lease_expires_at = $2, attempts = attempts + 1
       WHERE (order_id, version) = (
         SELECT r.order_id, r.version FROM order_revisions r JOIN orders o ON o.id = r.order_id
         WHERE r.status = 'pending' AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= $3)
           AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= $3) AND r.attempts < $4
           AND o.status = 'fulfilled' AND o.purged_at IS NULL AND o.pack_expires_at > $3
           AND NOT EXISTS (SELECT 1 FROM order_revisions e
             WHERE e.order_id = r.order_id AND e.version < r.version AND e.status = 'pending'
               AND (e.attempts < $4 OR e.lease_expires_at > $3))
         ORDER BY r.created_at, r.order_id, r.version LIMIT 1
         FOR UPDATE OF r SKIP LOCKED)
       RETURNING *`,
      [claim.worker, claim.leaseUntil, claim.now, claim.maxAttempts],
    );
    return row ? toRevision(row) : null;
  }

  async renewRevisionLease(
    orderId: string,
    version: number,
    worker: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE order_revisions SET lease_expires_at = $5
         WHERE order_id = $1 AND version = $2 AND status = 'pending' AND lease_owner = $3
           AND lease_expires_at > $4`,
        [orderId, version, worker, now, leaseUntil],
      )) === 1
    );
  }

  async releaseRevisionLease(
    orderId: string,
    version: number,
    worker: string,
    error: string,
    nextAttemptAt: Date,
  ): Promise<void> {
    await this.changes(
      `UPDATE order_revisions SET lease_owner = NULL, lease_expires_at = NULL, last_error = $4,
         next_attempt_at = $5
       WHERE order_id = $1 AND version = $2 AND lease_owner = $3`,
      [orderId, version, worker, error, nextAttemptAt],
    );
  }

  async completeRevision(done: CompletedRevision): Promise<boolean> {
    // One statement: the build and the earlier versions it supersedes change together or not at all.
    const result = await this.pool.query<Row>(
      `WITH built AS (
         UPDATE order_revisions SET status = 'built', built_at = $4, pack_key = $5, lease_owner = NULL,
           lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
         WHERE order_id = $1 AND version = $2 AND status = 'pending' AND lease_owner = $3
         RETURNING order_id, version),
       superseded AS (
         UPDATE order_revisions e SET status = 'superseded', superseded_by = b.version, lease_owner = NULL,
           lease_expires_at = NULL, next_attempt_at = NULL
         FROM built b WHERE e.order_id = b.order_id AND e.version < b.version AND e.status = 'pending')
       SELECT count(*)::int AS n FROM built`,
      [done.orderId, done.version, done.worker, done.builtAt, done.packKey],
    );
    return Number(result.rows[0]?.['n'] ?? 0) === 1;
  }

  async rejectRevision(rejected: RejectedRevision): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE order_revisions SET status = 'rejected', problem = $4, lease_owner = NULL,
           lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
         WHERE order_id = $1 AND version = $2 AND status = 'pending' AND lease_owner = $3`,
        [rejected.orderId, rejected.version, rejected.worker, rejected.problem],
      )) === 1
    );
  }

  async claimRevisionDelivery(claim: LeaseClaim): Promise<OrderRevision | null> {
    const row = await this.one(
      `UPDATE order_revisions SET lease_owner = $1, lease_expires_at = $2
       WHERE (order_id, version) = (
         SELECT r.order_id, r.version FROM order_revisions r JOIN orders o ON o.id = r.order_id
         WHERE r.status = 'built' AND r.emailed_at IS NULL
           AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= $3)
           AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= $3)
           AND o.status = 'fulfilled' AND o.purged_at IS NULL AND o.buyer_email IS NOT NULL
           AND o.pack_expires_at > $3
         ORDER BY r.built_at, r.order_id, r.version LIMIT 1
         FOR UPDATE OF r SKIP LOCKED)
       RETURNING *`,
      [claim.worker, claim.leaseUntil, claim.now],
    );
    return row ? toRevision(row) : null;
  }

  async markRevisionEmailed(orderId: string, version: number, worker: string, at: Date): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE order_revisions SET emailed_at = $4, lease_owner = NULL, lease_expires_at = NULL,
           next_attempt_at = NULL, last_error = NULL
         WHERE order_id = $1 AND version = $2 AND status = 'built' AND lease_owner = $3 AND emailed_at IS NULL`,
        [orderId, version, worker, at],
      )) === 1
    );
  }

  async listRejectedWithFiles(): Promise<OrderRevision[]> {
    const result = await this.pool.query<Row>(
      `SELECT * FROM order_revisions WHERE status = 'rejected' AND files_deleted_at IS NULL
       ORDER BY order_id, version`,
    );
    return result.rows.map(toRevision);
  }

  async markRevisionFilesDeleted(orderId: string, version: number, at: Date): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE order_revisions SET files_deleted_at = $3
         WHERE order_id = $1 AND version = $2 AND status = 'rejected' AND files_deleted_at IS NULL`,
        [orderId, version, at],
      )) === 1
    );
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
      // The row lock makes a concurrent retry wait, then find the revision no longer stuck.
      const before = (
        await client.query<Row>(
          'SELECT * FROM order_revisions WHERE order_id = $1 AND version = $2 FOR UPDATE',
          [orderId, version],
        )
      ).rows[0];
      if (!before) {
        await client.query('ROLLBACK');
        return { outcome: 'unknown-revision' };
      }
      const row = (
        await client.query<Row>(
          `UPDATE order_revisions SET attempts = 0, next_attempt_at = NULL, lease_owner = NULL,
             lease_expires_at = NULL
           WHERE order_id = $1 AND version = $2 AND status = 'pending' AND attempts >= $3
             AND (lease_expires_at IS NULL OR lease_expires_at <= $4)
           RETURNING *`,
          [orderId, version, maxAttempts, now],
        )
      ).rows[0];
      if (!row) {
        await client.query('ROLLBACK');
        return { outcome: 'not-stuck', revision: toRevision(before) };
      }
      await client.query(
        `INSERT INTO order_retries (order_id, retried_at, attempts_before, error_before, version)
         VALUES ($1, $2, $3, $4, $5)`,
        [orderId, now, Number(before['attempts']), before['last_error'] ?? null, version],
      );
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
