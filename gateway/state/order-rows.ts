import type {
  BuildProgress,
  OrderOrigin,
  OrderPaymentEvent,
  OrderRecord,
  OrderRetry,
  OrderRevision,
  OrderStatus,
  RevisionFile,
  RevisionStatus,
} from './order-state.js';
import { type Row, toDate, toDateOrNull } from './state-rows.js';

/** An `orders` row → its record, for both engines (SQLite keeps `coldkeys` as JSON text, PostgreSQL as text[]). */
export function toOrder(row: Row): OrderRecord {
  const coldkeys = row['coldkeys'];
  return {
    id: String(row['id']),
    status: row['status'] as OrderStatus,
    sku: String(row['sku']),
    packName: String(row['pack_name']),
    packKind: String(row['pack_kind']),
    taxYear: String(row['tax_year']),
    coldkeys: Array.isArray(coldkeys) ? coldkeys.map(String) : (JSON.parse(String(coldkeys)) as string[]),
    amountMinor: Number(row['amount_minor']),
    currency: String(row['currency']),
    retentionDays: Number(row['retention_days']),
    origin: row['origin'] as OrderOrigin,
    createdAt: toDate(row['created_at']),
    stripeSessionId: textOrNull(row['stripe_session_id']),
    paidAt: toDateOrNull(row['paid_at']),
    buyerEmail: textOrNull(row['buyer_email']),
    fulfilAttempts: Number(row['fulfil_attempts']),
    nextAttemptAt: toDateOrNull(row['next_attempt_at']),
    lastError: textOrNull(row['last_error']),
    leaseOwner: textOrNull(row['lease_owner']),
    leaseExpiresAt: toDateOrNull(row['lease_expires_at']),
    fulfilledAt: toDateOrNull(row['fulfilled_at']),
    packKey: textOrNull(row['pack_key']),
    packExpiresAt: toDateOrNull(row['pack_expires_at']),
    emailedAt: toDateOrNull(row['emailed_at']),
    purgedAt: toDateOrNull(row['purged_at']),
    buildProgress: parseBuildProgress(row['build_progress']),
  };
}

/** The progress as stored (JSON text), or null to keep what is recorded. */
export function progressText(progress: BuildProgress | undefined): string | null {
  return progress ? JSON.stringify(progress) : null;
}

/** The stored JSON text → the progress; anything unreadable is no progress (only the worker writes it). */
export function parseBuildProgress(text: unknown): BuildProgress | null {
  if (typeof text !== 'string' || text === '') return null;
  try {
    const value = JSON.parse(text) as BuildProgress;
    return typeof value === 'object' && value !== null && typeof value.phase === 'string' ? value : null;
  } catch {
    return null;
  }
}

const textOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** What `markPaid` reports when the conditional update changed nothing, from the order as it is. */
export function unpaidOutcome(
  order: Row | undefined,
): 'unknown-order' | 'not-awaiting-payment' | 'amount-mismatch' {
  if (!order) return 'unknown-order';
  return order['status'] === 'created' ? 'amount-mismatch' : 'not-awaiting-payment';
}

/** A `payment_events` row, for `orders show`. */
export function toPaymentEvent(row: Row): OrderPaymentEvent {
  return {
    eventId: String(row['event_id']),
    eventType: String(row['event_type']),
    outcome: String(row['outcome']),
    receivedAt: toDate(row['received_at']),
  };
}

/** An `order_retries` row, for `orders show`. */
export function toOrderRetry(row: Row): OrderRetry {
  return {
    retriedAt: toDate(row['retried_at']),
    version: row['version'] === null || row['version'] === undefined ? null : Number(row['version']),
    attemptsBefore: Number(row['attempts_before']),
    errorBefore: row['error_before'] === null ? null : String(row['error_before']),
  };
}

/** An `order_revisions` row (SQLite keeps `files` as JSON text, PostgreSQL as jsonb). */
export function toRevision(row: Row): OrderRevision {
  const files = row['files'];
  return {
    orderId: String(row['order_id']),
    version: Number(row['version']),
    status: row['status'] as RevisionStatus,
    createdAt: toDate(row['created_at']),
    files: (typeof files === 'string' ? JSON.parse(files) : files) as RevisionFile[],
    problem: textOrNull(row['problem']),
    attempts: Number(row['attempts']),
    nextAttemptAt: toDateOrNull(row['next_attempt_at']),
    lastError: textOrNull(row['last_error']),
    leaseOwner: textOrNull(row['lease_owner']),
    leaseExpiresAt: toDateOrNull(row['lease_expires_at']),
    builtAt: toDateOrNull(row['built_at']),
    packKey: textOrNull(row['pack_key']),
    emailedAt: toDateOrNull(row['emailed_at']),
    filesDeletedAt: toDateOrNull(row['files_deleted_at']),
    supersededBy:
      row['superseded_by'] === null || row['superseded_by'] === undefined
        ? null
        : Number(row['superseded_by']),
    buildProgress: parseBuildProgress(row['build_progress']),
  };
}
