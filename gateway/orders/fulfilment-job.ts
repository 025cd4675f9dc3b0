import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ObjectStore } from '../../pipeline/store/object-store.js';
import type { LedgerProgress } from '../../pipeline/tax/products/compute-tax-year.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
} from '../../pipeline/tax/products/own-records/customer-inputs.js';
import { DAY_MS, HOUR_MS } from '../../pipeline/time/utc-day.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { OrderRecord, OrderRevision } from '../state/order-state.js';
import { startHeartbeat } from './build-heartbeat.js';
import { deliveryEmail, revisionEmail } from './delivery-email.js';
import type { Mailer } from './mailer.js';
import type { OrderAlert } from './order-alerts.js';
import type { OrderTokens } from './order-token.js';
import { packKeyFor } from './pack-key.js';
import { storedCustomerInputs } from './revision-inputs.js';

/**
 * How long a worker that dies holding an order keeps it from the others. A build renews its lease every
 * few seconds while it runs, and at least every third of it (build-heartbeat.ts), so a pack that takes
 * longer (hundreds of positions) keeps its order: the lease bounds how long a dead worker's order waits,
 * not how long a build may take.
 */
export const DEFAULT_LEASE_MS = 10 * 60_000;
/** Retry delays after a failed build: 1, 2, 4, 8 … minutes, at most an hour. */
const BACKOFF_BASE_MS = 60_000;
const BACKOFF_MAX_MS = HOUR_MS;
/** A failed delivery is tried again this much later (until the pack is purged). */
const MAIL_RETRY_MS = 10 * 60_000;

export interface FulfilmentDeps {
  state: GatewayState;
  /** Where packs go (and what the pack builder reads published data from). */
  store: ObjectStore;
  now: () => Date;
  baseUrl: string;
  tokens: OrderTokens;
  mailer: Mailer;
  /**
   * `buildPack` from pipeline/tax/products/pack, bound to its dependencies; tests may wrap it. `customer`: the
   * buyer's own records of a revision (absent for the first pack); it may throw `CustomerInputsRejected`
   * when they fail only against the chain record (a sell that empties a pool below zero).
   */
  buildPack: (
    order: OrderRecord,
    customer?: CustomerInputs,
    onProgress?: (progress: LedgerProgress) => void,
  ) => Promise<Uint8Array>;
  maxAttempts: number;
  leaseMs?: number;
  /** Unique per run; made from host, pid and random bytes when absent. */
  worker?: string;
  alert: (alert: OrderAlert) => void;
  /**
   * Called after a pack is in the store and before the order (version 1) or the revision (`version` 2,
   * 3, …) is marked done (crash tests).
   */
  afterPackStored?: (order: OrderRecord, version: number) => Promise<void> | void;
  /** Called after a revision is marked rejected and before its files are deleted (crash tests). */
  afterRevisionRejected?: (order: OrderRecord, version: number) => Promise<void> | void;
  /** Called after a revision's email is sent and before it is recorded (crash tests). */
  afterRevisionEmailSent?: (order: OrderRecord, version: number) => Promise<void> | void;
}

export interface FulfilmentReport {
  fulfilled: string[];
  /** Orders whose pack was already in the store (an earlier run stopped after the upload). */
  reusedPacks: string[];
  failed: { id: string; error: string; stuck: boolean }[];
  /** Orders another worker took over while this one held them (its lease ran out). */
  lostLeases: string[];
  emailed: string[];
  mailFailed: { id: string; error: string }[];
  /** Revisions (the buyer's records added) whose pack was built and marked built: `{id, version}`. */
  revisionsBuilt: RevisionRef[];
  /** Revisions whose pack was already in the store (an earlier run stopped after the upload). */
  revisionsReused: RevisionRef[];
  /** Revisions the build refused (their problem is on the buyer's page, not here: it names their files). */
  revisionsRejected: RevisionRef[];
  revisionsFailed: (RevisionRef & { error: string; stuck: boolean })[];
  /** Revisions another worker took over while this one held them. */
  revisionsLost: RevisionRef[];
  /** Built revisions whose email (the same pack link: this version is ready) went out. */
  revisionsEmailed: RevisionRef[];
  revisionsMailFailed: (RevisionRef & { error: string })[];
  /** Rejected revisions whose files an earlier run left in the store (it stopped before deleting them). */
  rejectedFilesDeleted: RevisionRef[];
}

export interface RevisionRef {
  id: string;
  version: number;
}

/**
 * One run of `sbm-gateway orders fulfil`: fulfils every due paid order, one at a time, then sends the
 * delivery emails that are due. The only code path that writes `fulfilled`.
 *
 * Exactly once, whatever crashes where:
 * - a worker takes an order with a lease (`claimForFulfilment`: one conditional UPDATE, `FOR UPDATE SKIP
 *   LOCKED` on PostgreSQL), so two workers never build one order at the same time;
 * - the pack's key is a function of the order id. Check-then-write under the lease: if the key already
 *   holds a pack (an earlier run stopped between upload and status change), that pack is kept and not
 *   rebuilt; otherwise the pack is built, the lease is renewed (a worker that stalled past its lease
 *   and lost the order writes nothing), and only then uploaded (an atomic PUT or rename);
 * - only after the upload does one conditional UPDATE move the order `paid → fulfilled`, and only for
 *   the lease holder. A crash before it leaves a paid order whose lease runs out and whose pack the
 *   next run finds and keeps; a crash after it leaves a fulfilled order with its pack.
 * The build is also deterministic (same published run → same bytes), so even the one remaining race,
 * an upload that itself outlasts the renewed lease, could only write the same bytes again unless a
 * new run was published in between.
 * Emails: one per pack version. The delivery lease (the order's, or the revision's own) lets one worker
 * send it; it is sent, then recorded by one conditional UPDATE for the lease holder, so a retry after a
 * failed send or a second worker never sends a recorded one again. The one window left, a crash after the
 * mail server took the email and before the record, sends it again under the same key (the outbox file is
 * replaced, not added) and the same Message-ID (see `Mailer`).
 */
export async function runFulfilment(deps: FulfilmentDeps): Promise<FulfilmentReport> {
  const worker = deps.worker ?? newWorkerId();
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const report: FulfilmentReport = {
    fulfilled: [],
    reusedPacks: [],
    failed: [],
    lostLeases: [],
    emailed: [],
    mailFailed: [],
    revisionsBuilt: [],
    revisionsReused: [],
    revisionsRejected: [],
    revisionsFailed: [],
    revisionsLost: [],
    revisionsEmailed: [],
    revisionsMailFailed: [],
    rejectedFilesDeleted: [],
  };
  const leaseFrom = (now: Date) => ({ worker, now, leaseUntil: new Date(now.getTime() + leaseMs) });

  for (;;) {
    const order = await deps.state.orders.claimForFulfilment({
      ...leaseFrom(deps.now()),
      maxAttempts: deps.maxAttempts,
    });
    if (!order) break;
    try {
      await fulfilOne(deps, worker, leaseMs, order, report);
    } catch (error) {
      const message = describe(error);
      const stuck = order.fulfilAttempts >= deps.maxAttempts;
      const delay = Math.min(BACKOFF_BASE_MS * 2 ** (order.fulfilAttempts - 1), BACKOFF_MAX_MS);
      await deps.state.orders.releaseLease(order.id, worker, message, new Date(deps.now().getTime() + delay));
      report.failed.push({ id: order.id, error: message, stuck });
      deps.alert({
        level: stuck ? 'alert' : 'warn',
        event: stuck ? 'pack-stuck' : 'pack-build-failed',
        order_id: order.id,
        attempts: order.fulfilAttempts,
        error: message,
      });
    }
  }

  // A run that stopped between rejecting a revision and deleting its files: those files go now.
  // A store that fails here is left for the next run (an alert says so); the builds below go on.
  for (const rejected of await deps.state.orders.listRejectedWithFiles()) {
    try {
      await deleteRejectedFiles(deps, rejected);
      report.rejectedFilesDeleted.push({ id: rejected.orderId, version: rejected.version });
    } catch (error) {
      deps.alert({
        level: 'warn',
        event: 'rejected-files-not-deleted',
        order_id: rejected.orderId,
        version: rejected.version,
        error: describe(error),
      });
    }
  }

  // The buyer's revisions, each once, as the first packs above: an order's versions in turn (a version
  // out of tries does not hold a later one back: the later one's pack includes its files).
  for (;;) {
    const revision = await deps.state.orders.claimRevision({
      ...leaseFrom(deps.now()),
      maxAttempts: deps.maxAttempts,
    });
    if (!revision) break;
    try {
      await buildRevision(deps, worker, leaseMs, revision, report);
    } catch (error) {
      // The builder's message may quote the buyer's records (a file's name): those are masked.
      const names = (await deps.state.orders.listRevisions(revision.orderId)).flatMap((r) => r.files);
      const message = maskNames(
        describe(error),
        names.map((file) => file.name),
      );
      const stuck = revision.attempts >= deps.maxAttempts;
      const delay = Math.min(BACKOFF_BASE_MS * 2 ** (revision.attempts - 1), BACKOFF_MAX_MS);
      await deps.state.orders.releaseRevisionLease(
        revision.orderId,
        revision.version,
        worker,
        message,
        new Date(deps.now().getTime() + delay),
      );
      const ref = { id: revision.orderId, version: revision.version };
      report.revisionsFailed.push({ ...ref, error: message, stuck });
      deps.alert({
        level: stuck ? 'alert' : 'warn',
        event: stuck ? 'revision-stuck' : 'revision-build-failed',
        order_id: revision.orderId,
        version: revision.version,
        attempts: revision.attempts,
        error: message,
      });
    }
  }

  for (;;) {
    const order = await deps.state.orders.claimForDelivery(leaseFrom(deps.now()));
    if (!order) break;
    try {
      await deps.mailer.send(deliveryEmail(order, deps.baseUrl, deps.tokens.tokenFor(order.id)));
      await deps.state.orders.markEmailed(order.id, worker, deps.now());
      report.emailed.push(order.id);
    } catch (error) {
      const message = describe(error);
      await deps.state.orders.releaseLease(
        order.id,
        worker,
        `delivery: ${message}`,
        new Date(deps.now().getTime() + MAIL_RETRY_MS),
      );
      report.mailFailed.push({ id: order.id, error: message });
      deps.alert({ level: 'warn', event: 'delivery-failed', order_id: order.id, error: message });
    }
  }

  // Each built revision's email, once, as the first pack's above: the same link, which now serves it.
  for (;;) {
    const revision = await deps.state.orders.claimRevisionDelivery(leaseFrom(deps.now()));
    if (!revision) break;
    const ref = { id: revision.orderId, version: revision.version };
    try {
      const order = await deps.state.orders.getOrder(revision.orderId);
      if (!order) throw new Error(`revision of unknown order ${revision.orderId}`);
      await deps.mailer.send(revisionEmail(order, revision, deps.baseUrl, deps.tokens.tokenFor(order.id)));
      await deps.afterRevisionEmailSent?.(order, revision.version);
      if (await deps.state.orders.markRevisionEmailed(order.id, revision.version, worker, deps.now()))
        report.revisionsEmailed.push(ref);
      else report.revisionsLost.push(ref);
    } catch (error) {
      const message = describe(error);
      await deps.state.orders.releaseRevisionLease(
        revision.orderId,
        revision.version,
        worker,
        `delivery: ${message}`,
        new Date(deps.now().getTime() + MAIL_RETRY_MS),
      );
      report.revisionsMailFailed.push({ ...ref, error: message });
      deps.alert({
        level: 'warn',
        event: 'revision-delivery-failed',
        order_id: revision.orderId,
        version: revision.version,
        error: message,
      });
    }
  }
  return report;
}

/**
 * Deletes a rejected revision's files (the build refused them; they are not kept), then records it once.
 * Deleting a missing object is a no-op, so a run that stopped in between is finished by the next.
 */
async function deleteRejectedFiles(deps: FulfilmentDeps, revision: OrderRevision): Promise<void> {
  await deps.store.delete(revision.files.map((file) => file.key));
  await deps.state.orders.markRevisionFilesDeleted(revision.orderId, revision.version, deps.now());
}

async function fulfilOne(
  deps: FulfilmentDeps,
  worker: string,
  leaseMs: number,
  order: OrderRecord,
  report: FulfilmentReport,
): Promise<void> {
  const key = packKeyFor(order.id);
  const existing = await deps.store.get(key);
  if (existing) {
    report.reusedPacks.push(order.id);
  } else {
    const heartbeat = startHeartbeat({
      renew: (now, leaseUntil, progress) =>
        deps.state.orders.renewLease(order.id, worker, now, leaseUntil, progress),
      now: deps.now,
      leaseMs,
    });
    let pack: Uint8Array;
    try {
      pack = await deps.buildPack(order, undefined, heartbeat.onProgress);
    } finally {
      await heartbeat.stop();
    }
    if (heartbeat.lost()) {
      report.lostLeases.push(order.id);
      return;
    }
    const now = deps.now();
    if (!(await deps.state.orders.renewLease(order.id, worker, now, new Date(now.getTime() + leaseMs)))) {
      report.lostLeases.push(order.id);
      return;
    }
    await deps.store.put(key, pack, 'application/zip');
  }
  await deps.afterPackStored?.(order, 1);
  const fulfilledAt = deps.now();
  const completed = await deps.state.orders.completeFulfilment({
    id: order.id,
    worker,
    fulfilledAt,
    packKey: key,
    packExpiresAt: packExpiry(order, fulfilledAt),
  });
  if (completed) report.fulfilled.push(order.id);
  else report.lostLeases.push(order.id);
}

/**
 * The end of the pack's download window: `retention_days` from the payment (Stripe's time, `paid_at`) or
 * from the build, whichever is later. A pack is built minutes after its payment, so this is the build's
 * time plus 30 days; an order made again after a restore, paid weeks before its pack is rebuilt, still
 * gets its full 30 days from the rebuild, while its `paid_at` keeps the day its buyer paid.
 */
export function packExpiry(order: OrderRecord, fulfilledAt: Date): Date {
  const from = Math.max(fulfilledAt.getTime(), order.paidAt?.getTime() ?? 0);
  return new Date(from + order.retentionDays * DAY_MS);
}

/**
 * One revision, as `fulfilOne` builds an order's first pack: its key is a function of the order id and
 * the version; check-then-write under the revision's lease (a pack already under the key is kept, not
 * rebuilt); the lease renewed before the upload; then one conditional UPDATE `pending → built` for the
 * lease holder. A crash anywhere before that UPDATE leaves the revision pending and the earlier version
 * served; the next run finds the uploaded pack and keeps it. The build gets the buyer's inputs of every
 * accepted file up to this version, read again from the stored bytes. A build that refuses them
 * (`CustomerInputsRejected`) makes one conditional UPDATE `pending → rejected` with the problem, then
 * the revision's files are deleted and that recorded (a crash in between: the next run deletes them);
 * the earlier pack stays. The UPDATE `pending → built` also marks any earlier version left pending out of
 * tries `superseded`: this build read its files too.
 */
async function buildRevision(
  deps: FulfilmentDeps,
  worker: string,
  leaseMs: number,
  revision: OrderRevision,
  report: FulfilmentReport,
): Promise<void> {
  const ref = { id: revision.orderId, version: revision.version };
  const order = await deps.state.orders.getOrder(revision.orderId);
  if (!order) throw new Error(`revision of unknown order ${revision.orderId}`);
  const key = packKeyFor(order.id, revision.version);
  if (await deps.store.get(key)) {
    report.revisionsReused.push(ref);
  } else {
    let pack: Uint8Array;
    try {
      const upTo = (await deps.state.orders.listRevisions(order.id)).filter(
        (r) => r.version <= revision.version,
      );
      const inputs = await storedCustomerInputs(deps.store, upTo);
      const heartbeat = startHeartbeat({
        renew: (now, leaseUntil, progress) =>
          deps.state.orders.renewRevisionLease(order.id, revision.version, worker, now, leaseUntil, progress),
        now: deps.now,
        leaseMs,
      });
      try {
        pack = await deps.buildPack(order, inputs, heartbeat.onProgress);
      } finally {
        await heartbeat.stop();
      }
      if (heartbeat.lost()) {
        report.revisionsLost.push(ref);
        return;
      }
    } catch (error) {
      if (!(error instanceof CustomerInputsRejected)) throw error;
      const rejected = await deps.state.orders.rejectRevision({
        orderId: order.id,
        version: revision.version,
        worker,
        problem: problemLine(error),
      });
      if (!rejected) {
        report.revisionsLost.push(ref);
        return;
      }
      await deps.afterRevisionRejected?.(order, revision.version);
      await deleteRejectedFiles(deps, revision);
      report.revisionsRejected.push(ref);
      // The alert says which order and version only: the problem names the buyer's files and cells.
      deps.alert({
        level: 'info',
        event: 'revision-rejected',
        order_id: order.id,
        version: revision.version,
      });
      return;
    }
    const now = deps.now();
    const renewed = await deps.state.orders.renewRevisionLease(
      order.id,
      revision.version,
      worker,
      now,
      new Date(now.getTime() + leaseMs),
    );
    if (!renewed) {
      report.revisionsLost.push(ref);
      return;
    }
    await deps.store.put(key, pack, 'application/zip');
  }
  await deps.afterPackStored?.(order, revision.version);
  const built = await deps.state.orders.completeRevision({
    orderId: order.id,
    version: revision.version,
    worker,
    builtAt: deps.now(),
    packKey: key,
  });
  if (built) report.revisionsBuilt.push(ref);
  else report.revisionsLost.push(ref);
}

/** `text` with each of the buyer's file names replaced by `<file>` (for `last_error` and the alert line). */
function maskNames(text: string, names: readonly string[]): string {
  let masked = text;
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    if (name.length > 0) masked = masked.replaceAll(name, '<file>');
  }
  return masked;
}

/** The build's refusal as the buyer's page shows it: one line, bounded. */
function problemLine(error: CustomerInputsRejected): string {
  return error.message.replace(/\s+/g, ' ').slice(0, 500);
}

function newWorkerId(): string {
  return `fulfil-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * An error for `last_error` and the alert line: one line, bounded, and with no personal data. An SMTP
 * server's refusal quotes the recipient (`550 <buyer@example.com>: mailbox unavailable`) and a connection
 * error may quote a URL with its password; the column outlives the purge and the line goes to the logs,
 * so both are masked.
 */
function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text
    .split('\n')[0]!
    .replace(/[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+\.[^\s<>"'(),;:@]+/g, '<email>')
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1<credentials>@')
    .slice(0, 500);
}
