import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ObjectStore } from '../../pipeline/store/object-store.js';
import { DAY_MS } from '../../pipeline/time/utc-day.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { OrderRecord } from '../state/order-state.js';
import { deliveryEmail } from './delivery-email.js';
import type { Mailer } from './mailer.js';
import type { OrderAlert } from './order-alerts.js';
import type { OrderTokens } from './order-token.js';
import { packKeyFor } from './pack-key.js';

/** Long enough for any pack build and upload; a worker that dies holding a lease frees it this late. */
export const DEFAULT_LEASE_MS = 10 * 60_000;
/** Retry delays after a failed build: 1, 2, 4, 8 … minutes, at most an hour. */
const BACKOFF_BASE_MS = 60_000;
const BACKOFF_MAX_MS = 3_600_000;
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
  /** `buildPack` from pipeline/tax/pack, bound to its dependencies; tests may wrap it. */
  buildPack: (order: OrderRecord) => Promise<Uint8Array>;
  maxAttempts: number;
  leaseMs?: number;
  /** Unique per run; made from host, pid and random bytes when absent. */
  worker?: string;
  alert: (alert: OrderAlert) => void;
  /** Called after a pack is in the store and before the order is marked fulfilled (crash tests). */
  afterPackStored?: (order: OrderRecord) => Promise<void> | void;
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
 * Emails are at least once: one is sent, then recorded; a crash between the two sends it again.
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
  return report;
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
    const pack = await deps.buildPack(order);
    const now = deps.now();
    if (!(await deps.state.orders.renewLease(order.id, worker, now, new Date(now.getTime() + leaseMs)))) {
      report.lostLeases.push(order.id);
      return;
    }
    await deps.store.put(key, pack, 'application/zip');
  }
  await deps.afterPackStored?.(order);
  const fulfilledAt = deps.now();
  const completed = await deps.state.orders.completeFulfilment({
    id: order.id,
    worker,
    fulfilledAt,
    packKey: key,
    packExpiresAt: new Date(fulfilledAt.getTime() + order.retentionDays * DAY_MS),
  });
  if (completed) report.fulfilled.push(order.id);
  else report.lostLeases.push(order.id);
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
