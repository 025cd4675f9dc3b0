import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { GatewayConfig } from '../config.js';
import { progressJson, progressLine } from '../orders/build-progress.js';
import { isRevisionStuck, isStuck } from '../orders/stuck-order.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { OrderRecord, OrderRevision } from '../state/order-state.js';
import { type CommandIo, isoOrNull, printJson } from './command-io.js';

/**
 * `orders show ID` and `orders retry ID`: what support needs when a buyer writes in, and the way a
 * stuck order, or a stuck version of its pack (the buyer's own records added), goes back into the queue
 * once its cause is fixed. Mounted by `ordersCommand`. Nothing of the buyer's files is shown but how many.
 */

/** `buyer@example.com` → `b***@e***.com`: enough to match a buyer's message, not enough to read it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local[0]}***@${host[0] ?? ''}***${tld}`;
}

interface HistoryEntry {
  at: Date;
  event: string;
}

async function orderHistory(state: GatewayState, order: OrderRecord): Promise<HistoryEntry[]> {
  const { payments, retries } = await state.orders.orderHistory(order.id);
  const entries: HistoryEntry[] = [{ at: order.createdAt, event: `created (${order.origin})` }];
  for (const payment of payments) {
    entries.push({
      at: payment.receivedAt,
      event: `payment event ${payment.eventId} (${payment.eventType}): ${payment.outcome}`,
    });
  }
  if (order.paidAt) entries.push({ at: order.paidAt, event: 'paid' });
  for (const retry of retries) {
    const error = retry.errorBefore ? `; its last error: ${retry.errorBefore}` : '';
    const what = retry.version === null ? '' : `version ${retry.version} `;
    entries.push({
      at: retry.retriedAt,
      event: `${what}put back into the queue by an operator after ${retry.attemptsBefore} tries${error}`,
    });
  }
  if (order.fulfilledAt) {
    entries.push({
      at: order.fulfilledAt,
      event: `fulfilled, pack kept until ${isoOrNull(order.packExpiresAt)}`,
    });
  }
  if (order.emailedAt) entries.push({ at: order.emailedAt, event: 'delivery email sent' });
  if (order.purgedAt) entries.push({ at: order.purgedAt, event: 'pack deleted and email erased (purge)' });
  // Stable: events of one instant keep the order above (a payment event before the `paid` it caused).
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** One version of the order's pack as support sees it: its status, tries and times, no file names. */
function describeVersion(revision: OrderRevision, maxAttempts: number, now: Date) {
  return {
    version: revision.version,
    status: revision.status,
    created_at: revision.createdAt.toISOString(),
    files: revision.files.length,
    attempts: revision.attempts,
    next_attempt_at: isoOrNull(revision.nextAttemptAt),
    last_error: revision.lastError,
    leased: revision.leaseExpiresAt !== null && revision.leaseExpiresAt > now,
    stuck: isRevisionStuck(revision, maxAttempts, now),
    built_at: isoOrNull(revision.builtAt),
    emailed_at: isoOrNull(revision.emailedAt),
    superseded_by: revision.supersededBy,
    files_deleted_at: isoOrNull(revision.filesDeletedAt),
  };
}

function versionLine(orderId: string, revision: OrderRevision, maxAttempts: number, now: Date): string {
  const v = describeVersion(revision, maxAttempts, now);
  const parts = [
    `version ${v.version}`,
    v.status,
    `added ${v.created_at} (${v.files} file${v.files === 1 ? '' : 's'})`,
  ];
  if (v.built_at) parts.push(`built ${v.built_at}`);
  if (v.status === 'built') parts.push(v.emailed_at ? `email sent ${v.emailed_at}` : 'email not sent yet');
  if (v.status === 'superseded') parts.push(`its files are in version ${v.superseded_by}`);
  if (v.status === 'rejected')
    parts.push(v.files_deleted_at ? `files deleted ${v.files_deleted_at}` : 'files not deleted yet');
  if (v.status === 'pending') {
    const next = v.next_attempt_at ? `, next try not before ${v.next_attempt_at}` : '';
    parts.push(`tries ${v.attempts} of ${maxAttempts}${next}${v.leased ? ', a worker holds it now' : ''}`);
  }
  if (v.last_error && v.status !== 'rejected') parts.push(`last error: ${v.last_error}`);
  if (v.status === 'pending' && revision.buildProgress) parts.push(progressLine(revision.buildProgress, now));
  if (v.stuck)
    parts.push(`STUCK: fix the cause, then \`sbm-gateway orders retry ${orderId} --version ${v.version}\``);
  return parts.join('  ');
}

class OrderSupportError extends Error {
  override name = 'OrderSupportError';
}

async function requireOrder(state: GatewayState, id: string): Promise<OrderRecord> {
  const order = await state.orders.getOrder(id);
  if (!order) throw new OrderSupportError(`unknown order ${id} (see \`sbm-gateway orders list\`)`);
  return order;
}

export function addOrderSupportCommands(
  orders: Command,
  config: GatewayConfig,
  io: CommandIo,
  withState: <T>(run: (state: GatewayState) => Promise<T>) => Promise<T>,
): void {
  const maxAttempts = config.orders.fulfilMaxAttempts;

  orders
    .command('show')
    .description('Show one order: status history, tries, last error, the buyer email masked')
    .argument('<order-id>')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      await withState(async (state) => {
        const order = await requireOrder(state, id);
        const now = io.now();
        const history = await orderHistory(state, order);
        const revisions = await state.orders.listRevisions(order.id);
        const stuck = isStuck(order, maxAttempts, now);
        const leased = order.leaseExpiresAt !== null && order.leaseExpiresAt > now;
        const email = order.buyerEmail ? maskEmail(order.buyerEmail) : null;
        // The first pack's build while the order waits for it (a worker records it with its lease).
        const building = order.status === 'paid' ? order.buildProgress : null;
        if (options.json) {
          printJson(io, {
            id: order.id,
            status: order.status,
            sku: order.sku,
            tax_year: order.taxYear,
            coldkeys: order.coldkeys.length,
            origin: order.origin,
            email,
            fulfil_attempts: order.fulfilAttempts,
            max_attempts: maxAttempts,
            next_attempt_at: isoOrNull(order.nextAttemptAt),
            last_error: order.lastError,
            leased,
            stuck,
            build: building ? progressJson(building) : null,
            history: history.map((entry) => ({ at: entry.at.toISOString(), event: entry.event })),
            versions: revisions.map((revision) => describeVersion(revision, maxAttempts, now)),
          });
          return;
        }
        io.out(`order ${order.id}  ${order.status}  ${order.sku} (${order.taxYear})`);
        io.out(`coldkeys: ${order.coldkeys.length}  email: ${email ?? (order.purgedAt ? 'erased' : 'none')}`);
        io.out('history:');
        for (const entry of history) io.out(`  ${entry.at.toISOString()}  ${entry.event}`);
        const next = order.nextAttemptAt ? `, next try not before ${order.nextAttemptAt.toISOString()}` : '';
        io.out(
          `fulfilment tries: ${order.fulfilAttempts} of ${maxAttempts}${next}${leased ? ', a worker holds it now' : ''}`,
        );
        io.out(`last error: ${order.lastError ?? 'none'}`);
        if (building) io.out(progressLine(building, now));
        if (stuck)
          io.out(`STUCK: fix the cause of the last error, then \`sbm-gateway orders retry ${order.id}\``);
        if (revisions.length > 0) {
          io.out('versions (the buyer’s own records added):');
          io.out(
            `  version 1  ${order.fulfilledAt ? `built ${order.fulfilledAt.toISOString()}` : 'not built yet'}  (from the chain record)`,
          );
          for (const revision of revisions) io.out(`  ${versionLine(order.id, revision, maxAttempts, now)}`);
        }
      });
    });

  orders
    .command('retry')
    .description(
      'Put a stuck order, or a stuck version of its pack (--version N), back into the queue once its cause is fixed (idempotent)',
    )
    .argument('<order-id>')
    .option(
      '--version <n>',
      'the version of the pack: 1 is the first pack, 2, 3, … the buyer’s revisions (default: the order, else its stuck versions)',
      parseVersion,
    )
    .option('--json', 'print JSON')
    .action(async (id: string, options: { version?: number; json?: boolean }) => {
      await withState(async (state) => {
        const now = io.now();
        if (options.version !== undefined && options.version >= 2) {
          await retryRevision(state, id, options.version, now, options.json === true);
          return;
        }
        const result = await state.orders.requeueStuck(id, now, maxAttempts);
        if (result.outcome === 'unknown-order') {
          throw new OrderSupportError(`unknown order ${id} (see \`sbm-gateway orders list\`)`);
        }
        if (result.outcome === 'requeued') {
          if (options.json) printJson(io, { id, outcome: 'requeued', retried_at: now.toISOString() });
          else
            io.out(
              `order ${id} is back in the queue with ${maxAttempts} fresh tries; the next \`orders fulfil\` run takes it`,
            );
          return;
        }
        const order = result.order;
        // Without --version, an order whose first pack is built but a version of which is stuck: the newest
        // stuck one (its pack includes the files of the earlier ones, which it then supersedes).
        if (options.version === undefined) {
          const revisions = await state.orders.listRevisions(id);
          const stuck = revisions.filter((r) => isRevisionStuck(r, maxAttempts, now));
          // Run twice: the second finds the version queued by the first and changes nothing.
          const { retries } = await state.orders.orderHistory(id);
          const requeued = retries.filter((retry) => retry.version !== null).at(-1)?.version ?? undefined;
          const pending = revisions.find((r) => r.version === requeued && r.status === 'pending');
          const version =
            stuck.at(-1)?.version ?? (order.status === 'fulfilled' ? pending?.version : undefined);
          if (version !== undefined) {
            await retryRevision(state, id, version, now, options.json === true);
            return;
          }
        }
        // Run twice: the second finds the order queued by the first and changes nothing.
        const { retries } = await state.orders.orderHistory(id);
        const lastRetry = retries.filter((retry) => retry.version === null).at(-1);
        if (lastRetry && order.status === 'paid' && order.fulfilAttempts < maxAttempts) {
          if (options.json)
            printJson(io, { id, outcome: 'already-queued', retried_at: lastRetry.retriedAt.toISOString() });
          else
            io.out(
              `order ${id} was already put back in the queue at ${lastRetry.retriedAt.toISOString()} ` +
                `(tries since: ${order.fulfilAttempts} of ${maxAttempts}); nothing changed`,
            );
          return;
        }
        throw new OrderSupportError(`order ${id} is not stuck: ${notStuckReason(order, maxAttempts, now)}`);
      });
    });

  /** `orders retry ID --version N` (N ≥ 2): the revision back into the queue, once. */
  async function retryRevision(
    state: GatewayState,
    id: string,
    version: number,
    now: Date,
    json: boolean,
  ): Promise<void> {
    const result = await state.orders.requeueStuckRevision(id, version, now, maxAttempts);
    if (result.outcome === 'unknown-revision') {
      await requireOrder(state, id);
      throw new OrderSupportError(
        `order ${id} has no version ${version} (see \`sbm-gateway orders show ${id}\`)`,
      );
    }
    if (result.outcome === 'requeued') {
      if (json) printJson(io, { id, version, outcome: 'requeued', retried_at: now.toISOString() });
      else
        io.out(
          `order ${id} version ${version} is back in the queue with ${maxAttempts} fresh tries; the next \`orders fulfil\` run builds it`,
        );
      return;
    }
    const revision = result.revision;
    const { retries } = await state.orders.orderHistory(id);
    const lastRetry = retries.filter((retry) => retry.version === version).at(-1);
    if (lastRetry && revision.status === 'pending' && revision.attempts < maxAttempts) {
      if (json)
        printJson(io, {
          id,
          version,
          outcome: 'already-queued',
          retried_at: lastRetry.retriedAt.toISOString(),
        });
      else
        io.out(
          `order ${id} version ${version} was already put back in the queue at ${lastRetry.retriedAt.toISOString()} ` +
            `(tries since: ${revision.attempts} of ${maxAttempts}); nothing changed`,
        );
      return;
    }
    throw new OrderSupportError(
      `order ${id} version ${version} is not stuck: ${revisionNotStuckReason(revision, maxAttempts, now)}`,
    );
  }
}

function parseVersion(raw: string): number {
  const version = Number(raw);
  if (!/^\d+$/.test(raw) || version < 1) throw new InvalidArgumentError('expected a version: 1, 2, 3, …');
  return version;
}

function revisionNotStuckReason(revision: OrderRevision, maxAttempts: number, now: Date): string {
  if (revision.status === 'built') return 'it is built; the link serves it (or a newer version)';
  if (revision.status === 'rejected') return 'the build refused the buyer’s records (their page says why)';
  if (revision.status === 'superseded')
    return `version ${revision.supersededBy}, whose pack includes its files, was built in its place`;
  if (revision.leaseExpiresAt !== null && revision.leaseExpiresAt > now)
    return 'a fulfilment worker holds it right now';
  return `it has had ${revision.attempts} of ${maxAttempts} tries and the fulfilment job will try it again by itself`;
}

function notStuckReason(order: OrderRecord, maxAttempts: number, now: Date): string {
  if (order.status === 'created') return 'it is not paid, so there is nothing to build';
  if (order.status === 'fulfilled') return 'it is fulfilled; its pack is already built';
  if (order.leaseExpiresAt !== null && order.leaseExpiresAt > now)
    return 'a fulfilment worker holds it right now';
  return `it has had ${order.fulfilAttempts} of ${maxAttempts} tries and the fulfilment job will try it again by itself`;
}
