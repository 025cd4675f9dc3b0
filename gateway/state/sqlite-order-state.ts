import type Database from 'better-sqlite3';
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

const iso = (date: Date): string => date.toISOString();

const ERASE_REVISIONS_SQLITE = `UPDATE order_revisions SET files = '[]',
  problem = CASE WHEN problem IS NULL THEN NULL ELSE 'erased with the pack' END WHERE order_id = ?`;

/**
 * Orders on the embedded SQLite state. Each status change is one UPDATE with its condition in the
 * WHERE clause; SQLite runs it under the database write lock, so it is atomic across every process
 * that shares the file. The payment is one IMMEDIATE transaction (event row + order update). Orders
 * touch no key or account, so these statements leave the key cache of `SqliteState` alone.
 */
export class SqliteOrderState implements OrderState {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  private statement(sql: string): Database.Statement {
    let compiled = this.statements.get(sql);
    if (!compiled) {
      compiled = this.db.prepare(sql);
      this.statements.set(sql, compiled);
    }
    return compiled;
  }

  private one(sql: string, ...params: unknown[]): Row | undefined {
    return this.statement(sql).get(...params) as Row | undefined;
  }

  private changes(sql: string, ...params: unknown[]): number {
    return this.statement(sql).run(...params).changes;
  }

  async insertOrder(order: NewOrder): Promise<OrderRecord> {
    const row = this.one(
      `INSERT INTO orders (id, status, sku, pack_name, pack_kind, tax_year, coldkeys, amount_minor, currency,
         retention_days, origin, created_at)
       VALUES (?, 'created', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      order.id,
      order.sku,
      order.packName,
      order.packKind,
      order.taxYear,
      JSON.stringify(order.coldkeys),
      order.amountMinor,
      order.currency,
      order.retentionDays,
      order.origin,
      iso(order.createdAt),
    );
    return toOrder(row!);
  }

  async getOrder(id: string): Promise<OrderRecord | null> {
    const row = this.one('SELECT * FROM orders WHERE id = ?', id);
    return row ? toOrder(row) : null;
  }

  async listOrders(filter: { status?: OrderStatus } = {}): Promise<OrderRecord[]> {
    const rows = filter.status
      ? this.statement('SELECT * FROM orders WHERE status = ? ORDER BY created_at DESC, id').all(
          filter.status,
        )
      : this.statement('SELECT * FROM orders ORDER BY created_at DESC, id').all();
    return (rows as Row[]).map(toOrder);
  }

  async attachCheckoutSession(id: string, sessionId: string): Promise<boolean> {
    return (
      this.changes(
        `UPDATE orders SET stripe_session_id = ? WHERE id = ? AND status = 'created'`,
        sessionId,
        id,
      ) === 1
    );
  }

  async markPaid(event: PaymentEvent): Promise<PaymentOutcome> {
    const pay = this.db.transaction((): PaymentOutcome => {
      const recorded = this.changes(
        `INSERT INTO payment_events (event_id, event_type, order_id, outcome, received_at)
         VALUES (?, ?, ?, 'pending', ?) ON CONFLICT (event_id) DO NOTHING`,
        event.eventId,
        event.eventType,
        event.orderId,
        iso(event.receivedAt),
      );
      if (recorded === 0) return 'duplicate-event';
      const paid = this.changes(
        `UPDATE orders SET status = 'paid', paid_at = ?, buyer_email = ?,
           stripe_session_id = coalesce(stripe_session_id, ?)
         WHERE id = ? AND status = 'created' AND amount_minor = ? AND currency = ?`,
        iso(event.receivedAt),
        event.email,
        event.sessionId,
        event.orderId,
        event.amountMinor,
        event.currency,
      );
      const outcome: PaymentOutcome =
        paid === 1
          ? 'paid'
          : unpaidOutcome(this.one('SELECT status FROM orders WHERE id = ?', event.orderId));
      this.changes('UPDATE payment_events SET outcome = ? WHERE event_id = ?', outcome, event.eventId);
      return outcome;
    });
    return pay.immediate();
  }

  async claimForFulfilment(claim: FulfilmentClaim): Promise<OrderRecord | null> {
    const now = iso(claim.now);
    const row = this.one(
      `UPDATE orders SET lease_owner = ?, lease_expires_at = ?, fulfil_attempts = fulfil_attempts + 1
       WHERE id = (
         SELECT id FROM orders
         WHERE status = 'paid' AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
           AND (next_attempt_at IS NULL OR next_attempt_at <= ?) AND fulfil_attempts < ?
         ORDER BY paid_at, id LIMIT 1)
       RETURNING *`,
      claim.worker,
      iso(claim.leaseUntil),
      now,
      now,
      claim.maxAttempts,
    );
    return row ? toOrder(row) : null;
  }

  async renewLease(id: string, worker: string, now: Date, leaseUntil: Date): Promise<boolean> {
    return (
      this.changes(
        'UPDATE orders SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND lease_expires_at > ?',
        iso(leaseUntil),
        id,
        worker,
        iso(now),
      ) === 1
    );
  }

  async releaseLease(id: string, worker: string, error: string, nextAttemptAt: Date): Promise<void> {
    this.changes(
      `UPDATE orders SET lease_owner = NULL, lease_expires_at = NULL, last_error = ?, next_attempt_at = ?
       WHERE id = ? AND lease_owner = ?`,
      error,
      iso(nextAttemptAt),
      id,
      worker,
    );
  }

  async completeFulfilment(done: CompletedFulfilment): Promise<boolean> {
    return (
      this.changes(
        `UPDATE orders SET status = 'fulfilled', fulfilled_at = ?, pack_key = ?, pack_expires_at = ?,
           lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
         WHERE id = ? AND status = 'paid' AND lease_owner = ?`,
        iso(done.fulfilledAt),
        done.packKey,
        iso(done.packExpiresAt),
        done.id,
        done.worker,
      ) === 1
    );
  }

  async claimForDelivery(claim: LeaseClaim): Promise<OrderRecord | null> {
    const now = iso(claim.now);
    const row = this.one(
      `UPDATE orders SET lease_owner = ?, lease_expires_at = ?
       WHERE id = (
         SELECT id FROM orders
         WHERE status = 'fulfilled' AND emailed_at IS NULL AND purged_at IS NULL AND buyer_email IS NOT NULL
           AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
           AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
         ORDER BY fulfilled_at, id LIMIT 1)
       RETURNING *`,
      claim.worker,
      iso(claim.leaseUntil),
      now,
      now,
    );
    return row ? toOrder(row) : null;
  }

  async markEmailed(id: string, worker: string, at: Date): Promise<boolean> {
    return (
      this.changes(
        `UPDATE orders SET emailed_at = ?, lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL,
           last_error = NULL
         WHERE id = ? AND lease_owner = ? AND emailed_at IS NULL`,
        iso(at),
        id,
        worker,
      ) === 1
    );
  }

  async listExpiredPacks(asOf: Date): Promise<OrderRecord[]> {
    const rows = this.statement(
      `SELECT * FROM orders WHERE status = 'fulfilled' AND pack_expires_at <= ? AND purged_at IS NULL
       ORDER BY pack_expires_at, id`,
    ).all(iso(asOf)) as Row[];
    return rows.map(toOrder);
  }

  async markPurged(id: string, at: Date): Promise<boolean> {
    // With the email go the names of the buyer's files and the problems that quote them (issue 36).
    const purge = this.db.transaction((): boolean => {
      const purged =
        this.changes(
          'UPDATE orders SET purged_at = ?, buyer_email = NULL WHERE id = ? AND purged_at IS NULL',
          iso(at),
          id,
        ) === 1;
      if (purged) this.changes(ERASE_REVISIONS_SQLITE, id);
      return purged;
    });
    return purge.immediate();
  }

  async requeueStuck(id: string, now: Date, maxAttempts: number): Promise<RequeueOutcome> {
    const requeue = this.db.transaction((): RequeueOutcome => {
      const before = this.one('SELECT * FROM orders WHERE id = ?', id);
      if (!before) return { outcome: 'unknown-order' };
      const row = this.one(
        `UPDATE orders SET fulfil_attempts = 0, next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = ? AND status = 'paid' AND fulfil_attempts >= ?
           AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
         RETURNING *`,
        id,
        maxAttempts,
        iso(now),
      );
      if (!row) return { outcome: 'not-stuck', order: toOrder(before) };
      this.changes(
        'INSERT INTO order_retries (order_id, retried_at, attempts_before, error_before) VALUES (?, ?, ?, ?)',
        id,
        iso(now),
        Number(before['fulfil_attempts']),
        before['last_error'] ?? null,
      );
      return { outcome: 'requeued', order: toOrder(row) };
    });
    return requeue.immediate();
  }

  async orderHistory(id: string): Promise<{ payments: OrderPaymentEvent[]; retries: OrderRetry[] }> {
    const payments = this.statement(
      'SELECT * FROM payment_events WHERE order_id = ? ORDER BY received_at, event_id',
    ).all(id) as Row[];
    const retries = this.statement('SELECT * FROM order_retries WHERE order_id = ? ORDER BY retried_at').all(
      id,
    ) as Row[];
    return { payments: payments.map(toPaymentEvent), retries: retries.map(toOrderRetry) };
  }
  async addRevision(revision: NewRevision): Promise<AddRevisionOutcome> {
    // IMMEDIATE: the order's check and the next version's number are read and the row written under one
    // write lock, so two uploads at once get versions 2 and 3.
    const add = this.db.transaction((): AddRevisionOutcome => {
      const row = this.one('SELECT * FROM orders WHERE id = ?', revision.orderId);
      if (!row) return { outcome: 'unknown-order' };
      const order = toOrder(row);
      if (!takesUploads(order, revision.createdAt)) return { outcome: 'not-open', order };
      const added = this.one(
        `INSERT INTO order_revisions (order_id, version, status, created_at, files)
         SELECT ?, coalesce(max(version), 1) + 1, 'pending', ?, ? FROM order_revisions WHERE order_id = ?
         RETURNING *`,
        revision.orderId,
        iso(revision.createdAt),
        JSON.stringify(revision.files),
        revision.orderId,
      );
      return { outcome: 'added', revision: toRevision(added!) };
    });
    return add.immediate();
  }

  async listRevisions(orderId: string): Promise<OrderRevision[]> {
    const rows = this.statement('SELECT * FROM order_revisions WHERE order_id = ? ORDER BY version').all(
      orderId,
    ) as Row[];
    return rows.map(toRevision);
  }

  async claimRevision(claim: FulfilmentClaim): Promise<OrderRevision | null> {
    const now = iso(claim.now);
    const row = this.one(
      `UPDATE order_revisions SET lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1
       WHERE (order_id, version) = (
         SELECT r.order_id, r.version FROM order_revisions r JOIN orders o ON o.id = r.order_id
         WHERE r.status = 'pending' AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= ?)
           AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ?) AND r.attempts < ?
           AND o.status = 'fulfilled' AND o.purged_at IS NULL AND o.pack_expires_at > ?
           AND NOT EXISTS (SELECT 1 FROM order_revisions e
             WHERE e.order_id = r.order_id AND e.version < r.version AND e.status = 'pending'
               AND (e.attempts < ? OR e.lease_expires_at > ?))
         ORDER BY r.created_at, r.order_id, r.version LIMIT 1)
       RETURNING *`,
      claim.worker,
      iso(claim.leaseUntil),
      now,
      now,
      claim.maxAttempts,
      now,
      claim.maxAttempts,
      now,
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
      this.changes(
        `UPDATE order_revisions SET lease_expires_at = ?
         WHERE order_id = ? AND version = ? AND status = 'pending' AND lease_owner = ? AND lease_expires_at > ?`,
        iso(leaseUntil),
        orderId,
        version,
        worker,
        iso(now),
      ) === 1
    );
  }

  async releaseRevisionLease(
    orderId: string,
    version: number,
    worker: string,
    error: string,
    nextAttemptAt: Date,
  ): Promise<void> {
    this.changes(
      `UPDATE order_revisions SET lease_owner = NULL, lease_expires_at = NULL, last_error = ?, next_attempt_at = ?
       WHERE order_id = ? AND version = ? AND lease_owner = ?`,
      error,
      iso(nextAttemptAt),
      orderId,
      version,
      worker,
    );
  }

  async completeRevision(done: CompletedRevision): Promise<boolean> {
    // IMMEDIATE: the build and the earlier versions it supersedes change together or not at all.
    const complete = this.db.transaction((): boolean => {
      const built =
        this.changes(
          `UPDATE order_revisions SET status = 'built', built_at = ?, pack_key = ?, lease_owner = NULL,
             lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL
           WHERE order_id = ? AND version = ? AND status = 'pending' AND lease_owner = ?`,
          iso(done.builtAt),
          done.packKey,
          done.orderId,
          done.version,
          done.worker,
        ) === 1;
      if (built) {
        this.changes(
          `UPDATE order_revisions SET status = 'superseded', superseded_by = ?, lease_owner = NULL,
             lease_expires_at = NULL, next_attempt_at = NULL
           WHERE order_id = ? AND version < ? AND status = 'pending'`,
          done.version,
          done.orderId,
          done.version,
        );
      }
      return built;
    });
    return complete.immediate();
  }

  async rejectRevision(rejected: RejectedRevision): Promise<boolean> {
    return (
      this.changes(
        `UPDATE order_revisions SET status = 'rejected', problem = ?, lease_owner = NULL, lease_expires_at = NULL,
           next_attempt_at = NULL, last_error = NULL
         WHERE order_id = ? AND version = ? AND status = 'pending' AND lease_owner = ?`,
        rejected.problem,
        rejected.orderId,
        rejected.version,
        rejected.worker,
      ) === 1
    );
  }

  async claimRevisionDelivery(claim: LeaseClaim): Promise<OrderRevision | null> {
    const now = iso(claim.now);
    const row = this.one(
      `UPDATE order_revisions SET lease_owner = ?, lease_expires_at = ?
       WHERE (order_id, version) = (
         SELECT r.order_id, r.version FROM order_revisions r JOIN orders o ON o.id = r.order_id
         WHERE r.status = 'built' AND r.emailed_at IS NULL
           AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= ?)
           AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ?)
           AND o.status = 'fulfilled' AND o.purged_at IS NULL AND o.buyer_email IS NOT NULL
           AND o.pack_expires_at > ?
         ORDER BY r.built_at, r.order_id, r.version LIMIT 1)
       RETURNING *`,
      claim.worker,
      iso(claim.leaseUntil),
      now,
      now,
      now,
    );
    return row ? toRevision(row) : null;
  }

  async markRevisionEmailed(orderId: string, version: number, worker: string, at: Date): Promise<boolean> {
    return (
      this.changes(
        `UPDATE order_revisions SET emailed_at = ?, lease_owner = NULL, lease_expires_at = NULL,
           next_attempt_at = NULL, last_error = NULL
         WHERE order_id = ? AND version = ? AND status = 'built' AND lease_owner = ? AND emailed_at IS NULL`,
        iso(at),
        orderId,
        version,
        worker,
      ) === 1
    );
  }

  async listRejectedWithFiles(): Promise<OrderRevision[]> {
    const rows = this.statement(
      `SELECT * FROM order_revisions WHERE status = 'rejected' AND files_deleted_at IS NULL
       ORDER BY order_id, version`,
    ).all() as Row[];
    return rows.map(toRevision);
  }

  async markRevisionFilesDeleted(orderId: string, version: number, at: Date): Promise<boolean> {
    return (
      this.changes(
        `UPDATE order_revisions SET files_deleted_at = ?
         WHERE order_id = ? AND version = ? AND status = 'rejected' AND files_deleted_at IS NULL`,
        iso(at),
        orderId,
        version,
      ) === 1
    );
  }

  async requeueStuckRevision(
    orderId: string,
    version: number,
    now: Date,
    maxAttempts: number,
  ): Promise<RequeueRevisionOutcome> {
    const requeue = this.db.transaction((): RequeueRevisionOutcome => {
      const before = this.one(
        'SELECT * FROM order_revisions WHERE order_id = ? AND version = ?',
        orderId,
        version,
      );
      if (!before) return { outcome: 'unknown-revision' };
      const row = this.one(
        `UPDATE order_revisions SET attempts = 0, next_attempt_at = NULL, lease_owner = NULL,
           lease_expires_at = NULL
         WHERE order_id = ? AND version = ? AND status = 'pending' AND attempts >= ?
           AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
         RETURNING *`,
        orderId,
        version,
        maxAttempts,
        iso(now),
      );
      if (!row) return { outcome: 'not-stuck', revision: toRevision(before) };
      this.changes(
        `INSERT INTO order_retries (order_id, retried_at, attempts_before, error_before, version)
         VALUES (?, ?, ?, ?, ?)`,
        orderId,
        iso(now),
        Number(before['attempts']),
        before['last_error'] ?? null,
        version,
      );
      return { outcome: 'requeued', revision: toRevision(row) };
    });
    return requeue.immediate();
  }
}
