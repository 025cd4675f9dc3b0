import type { Command } from 'commander';
import type { GatewayConfig } from '../config.js';
import { isStuck } from '../orders/stuck-order.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { OrderRecord } from '../state/order-state.js';
import { type CommandIo, isoOrNull, printJson } from './command-io.js';

/**
 * `orders show ID` and `orders retry ID`: what support needs when a buyer writes in, and the way a
 * stuck order goes back into the queue once its cause is fixed. Mounted by `ordersCommand`.
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
    entries.push({
      at: retry.retriedAt,
      event: `put back into the queue by an operator after ${retry.attemptsBefore} tries${error}`,
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
        const stuck = isStuck(order, maxAttempts, now);
        const leased = order.leaseExpiresAt !== null && order.leaseExpiresAt > now;
        const email = order.buyerEmail ? maskEmail(order.buyerEmail) : null;
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
            history: history.map((entry) => ({ at: entry.at.toISOString(), event: entry.event })),
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
        if (stuck)
          io.out(`STUCK: fix the cause of the last error, then \`sbm-gateway orders retry ${order.id}\``);
      });
    });

  orders
    .command('retry')
    .description('Put a stuck order back into the queue once its cause is fixed (idempotent)')
    .argument('<order-id>')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      await withState(async (state) => {
        const now = io.now();
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
        // Run twice: the second finds the order queued by the first and changes nothing.
        const { retries } = await state.orders.orderHistory(id);
        const lastRetry = retries.at(-1);
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
}

function notStuckReason(order: OrderRecord, maxAttempts: number, now: Date): string {
  if (order.status === 'created') return 'it is not paid, so there is nothing to build';
  if (order.status === 'fulfilled') return 'it is fulfilled; its pack is already built';
  if (order.leaseExpiresAt !== null && order.leaseExpiresAt > now)
    return 'a fulfilment worker holds it right now';
  return `it has had ${order.fulfilAttempts} of ${maxAttempts} tries and the fulfilment job will try it again by itself`;
}
