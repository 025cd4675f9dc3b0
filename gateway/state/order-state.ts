/**
 * Tax orders in the gateway state (docs/api.md, Tax orders): one row per order and one per processed payment
 * event. Every change of `status` is one conditional statement (or one transaction with the event's
 * row), so it happens once however many webhook deliveries, workers or processes race for it:
 *
 * - `markPaid` is the only statement that writes `paid` (`created → paid`, with the payment event's id
 *   inserted in the same transaction; a second delivery of the event finds its id and changes nothing);
 * - `completeFulfilment` is the only statement that writes `fulfilled` (`paid → fulfilled`, only for
 *   the worker that holds the order's fulfilment lease).
 *
 * `test/architecture/order-status-writers.test.ts` checks that nothing else in the source writes them.
 * Times are passed in by the caller, as everywhere in the state.
 */

export type OrderStatus = 'created' | 'paid' | 'fulfilled';
export const ORDER_STATUSES: readonly OrderStatus[] = ['created', 'paid', 'fulfilled'];

/** How the order came to be: the public checkout, or an operator's `orders create`. */
export type OrderOrigin = 'checkout' | 'support';

export interface NewOrder {
  /** `ord_` + 32 hex digits (128 random bits). */
  id: string;
  sku: string;
  packName: string;
  packKind: string;
  /** `2025/26`: the tax year the SKU covers, kept with the order so a catalogue change cannot move it. */
  taxYear: string;
  coldkeys: string[];
  /** The price in minor units of `currency` (pence for `gbp`). */
  amountMinor: number;
  /** ISO 4217, lower case, as Stripe writes it. */
  currency: string;
  retentionDays: number;
  origin: OrderOrigin;
  createdAt: Date;
}

/**
 * How far a pack's build is, as the fulfilment worker records it with each renewal of its lease
 * (`orders.build_progress`, `order_revisions.build_progress`: JSON text on both engines), for `orders show`
 * and the buyer's order page. Cleared when a worker claims the build. Times are UTC instants (ISO 8601).
 */
export interface BuildProgress {
  /** `reading-chain`: the stake reads, most of a big pack's time; `writing-files`: the PDF and the CSVs. */
  phase: 'starting' | 'reading-chain' | 'writing-files';
  /** The pack's positions (coldkey, subnet, hotkey) and the days of the record it reads: 0 until known. */
  positions: number;
  days: number;
  /** Chain blocks read so far, of `blocks`. */
  blocksRead: number;
  blocks: number;
  startedAt: string;
  updatedAt: string;
}

export interface OrderRecord extends NewOrder {
  status: OrderStatus;
  /** The Stripe Checkout Session made for the order (null until made, and for support orders). */
  stripeSessionId: string | null;
  paidAt: Date | null;
  /** The buyer's email from the payment event, for delivery; erased when the pack is purged. */
  buyerEmail: string | null;
  /** Fulfilment claims so far (a claim counts as a try: a build that kills its worker is a failure too). */
  fulfilAttempts: number;
  /** The earliest time the job may try again (fulfilment or delivery backoff); null: at once. */
  nextAttemptAt: Date | null;
  /** The last fulfilment or delivery failure, for `orders list` (never a secret or an address). */
  lastError: string | null;
  /** The worker holding the order (fulfilment while paid, delivery while fulfilled), until the expiry. */
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  fulfilledAt: Date | null;
  /** The object store key of the pack (derived from the order id). */
  packKey: string | null;
  packExpiresAt: Date | null;
  /** When the delivery email went out (null: not yet, or no email to send to). */
  emailedAt: Date | null;
  purgedAt: Date | null;
  /** The build under way (or the last one's, until the next claim); null: none recorded. */
  buildProgress: BuildProgress | null;
}

/** A verified payment event about one order, as the webhook hands it over. */
export interface PaymentEvent {
  eventId: string;
  eventType: string;
  orderId: string;
  receivedAt: Date;
  /**
   * When the buyer paid, by Stripe's clock: the webhook event's `created`, or for `orders reconcile` the
   * session's PaymentIntent's `created` (made when the buyer confirmed), so an order paid through a lost
   * webhook or made again after a restore keeps its payment time. Never after `receivedAt`.
   */
  paidAt: Date;
  /** The amount and currency Stripe charged: they must equal the order's. */
  amountMinor: number | null;
  currency: string | null;
  email: string | null;
  sessionId: string | null;
}

/**
 * What `markPaid` did. Only `paid` changed the order; the event's id is recorded in every case but
 * `duplicate-event`, so a redelivery of any of them is a `duplicate-event`.
 */
export type PaymentOutcome =
  | 'paid'
  | 'duplicate-event'
  | 'unknown-order'
  | 'amount-mismatch'
  | 'not-awaiting-payment';

export interface LeaseClaim {
  /** Who claims: unique per job run (`fulfil-<host>-<pid>-<random>`). */
  worker: string;
  now: Date;
  /** The lease runs out here; a worker that died holding it frees the order then. */
  leaseUntil: Date;
}

export interface FulfilmentClaim extends LeaseClaim {
  /** Orders with this many claims are left alone ("stuck") until an operator looks. */
  maxAttempts: number;
}

export interface CompletedFulfilment {
  id: string;
  worker: string;
  fulfilledAt: Date;
  packKey: string;
  packExpiresAt: Date;
}

/**
 * A revision's build: waiting for the fulfilment job, built (its pack served), rejected by the build, or
 * superseded: it ran out of tries and a later version, whose pack includes its files, was built instead.
 */
export type RevisionStatus = 'pending' | 'built' | 'rejected' | 'superseded';

/**
 * One file of an accepted upload. `key`: where its bytes are in the object store (under the order's pack
 * prefix, named by the upload, never by the buyer's file name); the buyer's `name` is kept for their page
 * and the PDF only.
 */
export interface RevisionFile {
  name: string;
  sha256: string;
  /** Data rows read (the header not counted). */
  rows: number;
  role: 'records' | 'addresses' | 'opening';
  key: string;
  bytes: number;
}

/**
 * Version 2, 3, … of an order's pack: one accepted upload of the buyer's records. Built once
 * by the fulfilment job under a lease of its own, as the order's first pack is.
 */
export interface OrderRevision {
  orderId: string;
  version: number;
  status: RevisionStatus;
  createdAt: Date;
  files: RevisionFile[];
  /** Why the build refused the files (one line, as the buyer sees it on their page); null otherwise. */
  problem: string | null;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  builtAt: Date | null;
  packKey: string | null;
  /** When the email telling the buyer this version is ready went out (built revisions only). */
  emailedAt: Date | null;
  /** When the job deleted a rejected revision's files from the store (null: not yet, or not rejected). */
  filesDeletedAt: Date | null;
  /** The later version whose pack includes this one's files (superseded revisions only). */
  supersededBy: number | null;
  /** The build under way (or the last one's, until the next claim); null: none recorded. */
  buildProgress: BuildProgress | null;
}

export interface NewRevision {
  orderId: string;
  /** Also the instant the order must still take uploads at (paid or fulfilled, pack not expired). */
  createdAt: Date;
  files: RevisionFile[];
}

/** What `addRevision` did: `added` made the revision; the others say why not. */
export type AddRevisionOutcome =
  | { outcome: 'added'; revision: OrderRevision }
  | { outcome: 'unknown-order' }
  | { outcome: 'not-open'; order: OrderRecord };

export interface CompletedRevision {
  orderId: string;
  version: number;
  worker: string;
  builtAt: Date;
  packKey: string;
}

export interface RejectedRevision {
  orderId: string;
  version: number;
  worker: string;
  problem: string;
}

/** Whether an order takes uploads at `at`: paid or fulfilled, not purged, and its pack not expired. */
export function takesUploads(order: OrderRecord, at: Date): boolean {
  if (order.status !== 'paid' && order.status !== 'fulfilled') return false;
  if (order.purgedAt) return false;
  return !order.packExpiresAt || at < order.packExpiresAt;
}

/** A payment event recorded for an order, with what `markPaid` made of it (support's history). */
export interface OrderPaymentEvent {
  eventId: string;
  eventType: string;
  outcome: string;
  receivedAt: Date;
}

/** One `orders retry` that put a stuck order (or one of its revisions) back into the queue. */
export interface OrderRetry {
  retriedAt: Date;
  /** The revision put back (2, 3, …); null: the order's first pack. */
  version: number | null;
  attemptsBefore: number;
  errorBefore: string | null;
}

/** What `requeueStuck` did: `requeued` changed the order; the others say why it did not. */
export type RequeueOutcome =
  | { outcome: 'requeued'; order: OrderRecord }
  | { outcome: 'unknown-order' }
  | { outcome: 'not-stuck'; order: OrderRecord };

/** What `requeueStuckRevision` did: `requeued` changed the revision; the others say why it did not. */
export type RequeueRevisionOutcome =
  | { outcome: 'requeued'; revision: OrderRevision }
  | { outcome: 'unknown-revision' }
  | { outcome: 'not-stuck'; revision: OrderRevision };

export interface OrderState {
  /** Inserts a `created` order; a duplicate id is refused (throws). */
  insertOrder(order: NewOrder): Promise<OrderRecord>;
  getOrder(id: string): Promise<OrderRecord | null>;
  /** Orders, newest first, optionally of one status. */
  listOrders(filter?: { status?: OrderStatus }): Promise<OrderRecord[]>;
  /** Records the Checkout Session made for a `created` order; false when the order is not `created`. */
  attachCheckoutSession(id: string, sessionId: string): Promise<boolean>;

  /**
   * In one transaction: records the event id (a known id: `duplicate-event`, nothing changes) and
   * moves the order `created → paid` with `paid_at` = `paidAt` (Stripe's time of payment) and the buyer's email, if and only
   * if it is `created` and the amount and currency equal the order's. The only writer of `paid`.
   */
  markPaid(event: PaymentEvent): Promise<PaymentOutcome>;

  /**
   * Takes the fulfilment lease of one `paid` order that nobody holds (or whose lease ran out), that is
   * due (`next_attempt_at`) and has had fewer than `maxAttempts` claims, oldest payment first, and
   * counts the claim. One conditional statement: two workers never hold one order at once.
   */
  claimForFulfilment(claim: FulfilmentClaim): Promise<OrderRecord | null>;
  /**
   * Extends the lease if `worker` still holds it and it has not run out at `now`, and records `progress`
   * when given (one conditional UPDATE: a worker that lost the order writes nothing); false otherwise.
   */
  renewLease(
    id: string,
    worker: string,
    now: Date,
    leaseUntil: Date,
    progress?: BuildProgress,
  ): Promise<boolean>;
  /** Gives the lease back after a failed try, with the error and when to try next. */
  releaseLease(id: string, worker: string, error: string, nextAttemptAt: Date): Promise<void>;
  /**
   * `paid → fulfilled` with the pack's key and expiry, only for the lease holder. The only writer of
   * `fulfilled`. False when the worker lost the lease or the order is not `paid`.
   */
  completeFulfilment(done: CompletedFulfilment): Promise<boolean>;

  /** Takes the delivery lease of one fulfilled, unpurged, un-emailed order with an email, when due. */
  claimForDelivery(claim: LeaseClaim): Promise<OrderRecord | null>;
  /** Records the email as sent and frees the lease; false when `worker` no longer held it. */
  markEmailed(id: string, worker: string, at: Date): Promise<boolean>;

  /** Fulfilled orders whose pack expired at or before `asOf` and that are not purged yet. */
  listExpiredPacks(asOf: Date): Promise<OrderRecord[]>;
  /** Sets `purged_at` (once) and erases the buyer's email; false when already purged or unknown. */
  markPurged(id: string, at: Date): Promise<boolean>;

  /**
   * Puts a stuck order (`paid`, at least `maxAttempts` claims, no live lease) back into the queue: its
   * claim count to 0 and due at once, with a retry row keeping the count and error it had. One
   * transaction with the condition in the UPDATE, so two operators retrying together requeue it once.
   */
  requeueStuck(id: string, now: Date, maxAttempts: number): Promise<RequeueOutcome>;
  /** The payment events recorded for the order and its retries, oldest first (support's history). */
  orderHistory(id: string): Promise<{ payments: OrderPaymentEvent[]; retries: OrderRetry[] }>;

  /**
   * Records an accepted upload as the order's next version (2 for the first), if and only if the order
   * takes uploads at `createdAt` (`takesUploads`): one statement with the condition in it (two uploads
   * at once get two versions; PostgreSQL retries the number on a conflict).
   */
  addRevision(revision: NewRevision): Promise<AddRevisionOutcome>;
  /** The order's revisions, oldest first. */
  listRevisions(orderId: string): Promise<OrderRevision[]>;
  /**
   * Takes the lease of one pending revision that nobody holds (or whose lease ran out), due, with fewer
   * than `maxAttempts` claims, of a fulfilled, unpurged order whose pack has not expired, and that is
   * its order's earliest pending one (an order's versions are built in turn), and counts the claim. An
   * earlier pending revision that is stuck (out of tries, no live lease) does not hold a later one back.
   */
  claimRevision(claim: FulfilmentClaim): Promise<OrderRevision | null>;
  /** As `renewLease`, for a revision's build. */
  renewRevisionLease(
    orderId: string,
    version: number,
    worker: string,
    now: Date,
    leaseUntil: Date,
    progress?: BuildProgress,
  ): Promise<boolean>;
  releaseRevisionLease(
    orderId: string,
    version: number,
    worker: string,
    error: string,
    nextAttemptAt: Date,
  ): Promise<void>;
  /**
   * `pending → built` with the pack's key, only for the lease holder, and in the same statement every
   * earlier pending revision of the order `pending → superseded` (the built pack includes their files).
   * False when the worker no longer holds it.
   */
  completeRevision(done: CompletedRevision): Promise<boolean>;
  /** `pending → rejected` with the problem, only for the lease holder. False otherwise. */
  rejectRevision(rejected: RejectedRevision): Promise<boolean>;

  /**
   * Takes the delivery lease of one built, un-emailed revision of a fulfilled, unpurged order that has an
   * email and whose pack has not expired, when due; oldest build first.
   */
  claimRevisionDelivery(claim: LeaseClaim): Promise<OrderRevision | null>;
  /** Records the revision's email as sent and frees the lease; false when `worker` no longer held it. */
  markRevisionEmailed(orderId: string, version: number, worker: string, at: Date): Promise<boolean>;
  /** Rejected revisions whose files the job has not recorded as deleted yet. */
  listRejectedWithFiles(): Promise<OrderRevision[]>;
  /** Records a rejected revision's files as deleted (once); false when already recorded or not rejected. */
  markRevisionFilesDeleted(orderId: string, version: number, at: Date): Promise<boolean>;
  /**
   * Puts a stuck revision (pending, at least `maxAttempts` claims, no live lease) back into the queue, with
   * an `order_retries` row naming its version: as `requeueStuck`, one transaction with the condition in it.
   */
  requeueStuckRevision(
    orderId: string,
    version: number,
    now: Date,
    maxAttempts: number,
  ): Promise<RequeueRevisionOutcome>;
}
