import type Database from 'better-sqlite3';
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
import type { Row } from './state-rows.js';

const iso = (date: Date): string => date.toISOString();

// One writer at a time: no row locks to take or skip in the claims.
const CLAIM_ORDER_FOR_FULFILMENT = claimOrderForFulfilment('');
const CLAIM_ORDER_FOR_DELIVERY = claimOrderForDelivery('');
const CLAIM_REVISION = claimRevision('');
const CLAIM_REVISION_DELIVERY = claimRevisionDelivery('');

/**
 * The erased revisions of a purged order, by its id: SQLite keeps `files` as JSON text and has no
 * data-modifying CTE, so this runs after `PURGE_ORDER` in one transaction (PostgreSQL: one statement).
 */
const ERASE_REVISIONS = `UPDATE order_revisions SET files = '[]',
  problem = CASE WHEN problem IS NULL THEN NULL ELSE 'erased with the pack' END WHERE order_id = ?`;

/**
 * The versions a build supersedes, by its order and version: after `BUILD_REVISION` in one transaction,
 * since SQLite has no data-modifying CTE (PostgreSQL: one statement).
 */
const SUPERSEDE_REVISIONS = `UPDATE order_revisions SET status = 'superseded', superseded_by = ?, lease_owner = NULL,
    lease_expires_at = NULL, next_attempt_at = NULL
  WHERE order_id = ? AND version < ? AND status = 'pending'`;

/**
 * The next version of an order's pack, numbered in the INSERT; the caller has checked the order under
 * the IMMEDIATE transaction's write lock (PostgreSQL puts the check in the INSERT and retries a clash).
 */
const INSERT_REVISION = `INSERT INTO order_revisions (order_id, version, status, created_at, files)
  SELECT ?, coalesce(max(version), 1) + 1, 'pending', ?, ? FROM order_revisions WHERE order_id = ?
  RETURNING *`;

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
      INSERT_ORDER,
      order.id,
      order.sku,
      order.packName,
      order.packKind,
      order.taxYear,
      // A JSON array in a TEXT column: SQLite has no array type.
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
    const row = this.one(ORDER_BY_ID, id);
    return row ? toOrder(row) : null;
  }

  async listOrders(filter: { status?: OrderStatus } = {}): Promise<OrderRecord[]> {
    const rows = filter.status
      ? this.statement(ORDERS_WITH_STATUS).all(filter.status)
      : this.statement(ALL_ORDERS).all();
    return (rows as Row[]).map(toOrder);
  }

  async attachCheckoutSession(id: string, sessionId: string): Promise<boolean> {
    return this.changes(ATTACH_CHECKOUT_SESSION, sessionId, id) === 1;
  }

  async markPaid(event: PaymentEvent): Promise<PaymentOutcome> {
    const pay = this.db.transaction((): PaymentOutcome => {
      const recorded = this.changes(
        RECORD_PAYMENT_EVENT,
        event.eventId,
        event.eventType,
        event.orderId,
        iso(event.paidAt),
      );
      if (recorded === 0) return 'duplicate-event';
      const paid = this.changes(
        MARK_ORDER_PAID,
        iso(event.paidAt),
        event.email,
        event.sessionId,
        event.orderId,
        event.amountMinor,
        event.currency,
      );
      const outcome: PaymentOutcome =
        paid === 1 ? 'paid' : unpaidOutcome(this.one(ORDER_STATUS, event.orderId));
      this.changes(SET_PAYMENT_OUTCOME, outcome, event.eventId);
      return outcome;
    });
    return pay.immediate();
  }

  async claimForFulfilment(claim: FulfilmentClaim): Promise<OrderRecord | null> {
    const now = iso(claim.now);
    const row = this.one(
      CLAIM_ORDER_FOR_FULFILMENT,
      claim.worker,
      iso(claim.leaseUntil),
      now,
      now,
      claim.maxAttempts,
    );
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
      this.changes(RENEW_ORDER_LEASE, iso(leaseUntil), progressText(progress), id, worker, iso(now)) === 1
    );
  }

  async releaseLease(id: string, worker: string, error: string, nextAttemptAt: Date): Promise<void> {
    this.changes(RELEASE_ORDER_LEASE, error, iso(nextAttemptAt), id, worker);
  }

  async completeFulfilment(done: CompletedFulfilment): Promise<boolean> {
    return (
      this.changes(
        COMPLETE_FULFILMENT,
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
    const row = this.one(CLAIM_ORDER_FOR_DELIVERY, claim.worker, iso(claim.leaseUntil), now, now);
    return row ? toOrder(row) : null;
  }

  async markEmailed(id: string, worker: string, at: Date): Promise<boolean> {
    return this.changes(MARK_ORDER_EMAILED, iso(at), id, worker) === 1;
  }

  async listExpiredPacks(asOf: Date): Promise<OrderRecord[]> {
    const rows = this.statement(EXPIRED_PACKS).all(iso(asOf)) as Row[];
    return rows.map(toOrder);
  }

  async markPurged(id: string, at: Date): Promise<boolean> {
    // With the email go the names of the buyer's files and the problems that quote them.
    const purge = this.db.transaction((): boolean => {
      const purged = this.changes(PURGE_ORDER, iso(at), id) === 1;
      if (purged) this.changes(ERASE_REVISIONS, id);
      return purged;
    });
    return purge.immediate();
  }

  async requeueStuck(id: string, now: Date, maxAttempts: number): Promise<RequeueOutcome> {
    const requeue = this.db.transaction((): RequeueOutcome => {
      // Read without a row lock: the IMMEDIATE transaction holds the database's write lock.
      const before = this.one(ORDER_BY_ID, id);
      if (!before) return { outcome: 'unknown-order' };
      const row = this.one(REQUEUE_ORDER, id, maxAttempts, iso(now));
      if (!row) return { outcome: 'not-stuck', order: toOrder(before) };
      this.changes(
        INSERT_ORDER_RETRY,
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
    const payments = this.statement(ORDER_PAYMENTS).all(id) as Row[];
    const retries = this.statement(ORDER_RETRIES).all(id) as Row[];
    return { payments: payments.map(toPaymentEvent), retries: retries.map(toOrderRetry) };
  }
  async addRevision(revision: NewRevision): Promise<AddRevisionOutcome> {
    // IMMEDIATE: the order's check and the next version's number are read and the row written under one
    // write lock, so two uploads at once get versions 2 and 3.
    const add = this.db.transaction((): AddRevisionOutcome => {
      const row = this.one(ORDER_BY_ID, revision.orderId);
      if (!row) return { outcome: 'unknown-order' };
      const order = toOrder(row);
      if (!takesUploads(order, revision.createdAt)) return { outcome: 'not-open', order };
      const added = this.one(
        INSERT_REVISION,
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
    const rows = this.statement(ORDER_REVISIONS).all(orderId) as Row[];
    return rows.map(toRevision);
  }

  async claimRevision(claim: FulfilmentClaim): Promise<OrderRevision | null> {
    const now = iso(claim.now);
    const row = this.one(
      CLAIM_REVISION,
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
    progress?: BuildProgress,
  ): Promise<boolean> {
    return (
      this.changes(
        RENEW_REVISION_LEASE,
        iso(leaseUntil),
        progressText(progress),
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
    this.changes(RELEASE_REVISION_LEASE, error, iso(nextAttemptAt), orderId, version, worker);
  }

  async completeRevision(done: CompletedRevision): Promise<boolean> {
    // IMMEDIATE: the build and the earlier versions it supersedes change together or not at all.
    const complete = this.db.transaction((): boolean => {
      const built =
        this.changes(
          BUILD_REVISION,
          iso(done.builtAt),
          done.packKey,
          done.orderId,
          done.version,
          done.worker,
        ) === 1;
      if (built) {
        this.changes(SUPERSEDE_REVISIONS, done.version, done.orderId, done.version);
      }
      return built;
    });
    return complete.immediate();
  }

  async rejectRevision(rejected: RejectedRevision): Promise<boolean> {
    return (
      this.changes(REJECT_REVISION, rejected.problem, rejected.orderId, rejected.version, rejected.worker) ===
      1
    );
  }

  async claimRevisionDelivery(claim: LeaseClaim): Promise<OrderRevision | null> {
    const now = iso(claim.now);
    const row = this.one(CLAIM_REVISION_DELIVERY, claim.worker, iso(claim.leaseUntil), now, now, now);
    return row ? toRevision(row) : null;
  }

  async markRevisionEmailed(orderId: string, version: number, worker: string, at: Date): Promise<boolean> {
    return this.changes(MARK_REVISION_EMAILED, iso(at), orderId, version, worker) === 1;
  }

  async listRejectedWithFiles(): Promise<OrderRevision[]> {
    const rows = this.statement(REJECTED_WITH_FILES).all() as Row[];
    return rows.map(toRevision);
  }

  async markRevisionFilesDeleted(orderId: string, version: number, at: Date): Promise<boolean> {
    return this.changes(MARK_REVISION_FILES_DELETED, iso(at), orderId, version) === 1;
  }

  async requeueStuckRevision(
    orderId: string,
    version: number,
    now: Date,
    maxAttempts: number,
  ): Promise<RequeueRevisionOutcome> {
    const requeue = this.db.transaction((): RequeueRevisionOutcome => {
      // Read without a row lock: the IMMEDIATE transaction holds the database's write lock.
      const before = this.one(REVISION_BY_KEY, orderId, version);
      if (!before) return { outcome: 'unknown-revision' };
      const row = this.one(REQUEUE_REVISION, orderId, version, maxAttempts, iso(now));
      if (!row) return { outcome: 'not-stuck', revision: toRevision(before) };
      this.changes(
        INSERT_REVISION_RETRY,
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
