import { Command, InvalidArgumentError, Option } from 'commander';
import { CommandExit } from '../../pipeline/command-line.js';
import { openObjectStore } from '../../pipeline/store/index.js';
import type { ObjectStore } from '../../pipeline/store/object-store.js';
import { buildPack } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { HOUR_MS } from '../../pipeline/time/utc-day.js';
import type { GatewayConfig } from '../config.js';
import { catalogueWithPrices, formatPrice } from '../orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../orders/create-order.js';
import { type FulfilmentReport, runFulfilment } from '../orders/fulfilment-job.js';
import { type Mailer, outboxMailer, smtpMailer } from '../orders/mailer.js';
import { alertLine, type OrderAlert } from '../orders/order-alerts.js';
import type { OrderConfig } from '../orders/order-config.js';
import { type OrderTokens, orderTokens } from '../orders/order-token.js';
import { statusUrl } from '../orders/order-urls.js';
import { purgeExpiredPacks } from '../orders/purge.js';
import { isStuck } from '../orders/stuck-order.js';
import { readPublishedCalendar, yearCoverage } from '../orders/tax-year-coverage.js';
import type { GatewayState } from '../state/gateway-state.js';
import { openGatewayState } from '../state/open-gateway-state.js';
import { ORDER_STATUSES, type OrderRecord, type OrderStatus } from '../state/order-state.js';
import { type CommandIo, isoOrNull, printJson, processIo } from './command-io.js';
import { addOrderSupportCommands } from './order-support.js';
import { addReconcileCommand } from './orders-reconcile.js';

/** What the order commands print to and read the clock from; alerts go to stderr; `stop` ends `--watch`. */
export interface OrderCommandIo extends CommandIo {
  alert: (alert: OrderAlert) => void;
  /** Resolves when a `--watch` loop should end (SIGINT/SIGTERM for the real CLI). */
  stopped: () => Promise<void>;
}

export const processOrderIo: OrderCommandIo = {
  ...processIo,
  alert: (alert) => process.stderr.write(alertLine(alert)),
  stopped: () =>
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};

interface OrderDeps {
  state: GatewayState;
  store: ObjectStore;
}

async function withOrderDeps<T>(config: GatewayConfig, run: (deps: OrderDeps) => Promise<T>): Promise<T> {
  const state = await openGatewayState(config.stateUrl);
  const store = openObjectStore(config.storeUrl, config.s3);
  try {
    return await run({ state, store });
  } finally {
    await state.close();
    await store.close();
  }
}

function requireTokens(config: OrderConfig): OrderTokens {
  if (!config.orderSecret) {
    throw new Error(
      'SBM_ORDER_SECRET is not set: it makes the order tokens (64 hex digits, e.g. `openssl rand -hex 32`)',
    );
  }
  return orderTokens(config.orderSecret);
}

export function mailerFor(config: OrderConfig): Mailer {
  return config.smtpUrl
    ? smtpMailer(config.smtpUrl, config.mailFrom)
    : outboxMailer(config.outboxDir, config.mailFrom);
}

/** An order as support sees it: no email, no coldkey (only how many), no token. */
function describeOrder(order: OrderRecord, maxAttempts: number, now: Date) {
  return {
    id: order.id,
    status: order.status,
    sku: order.sku,
    tax_year: order.taxYear,
    coldkeys: order.coldkeys.length,
    amount_minor: order.amountMinor,
    currency: order.currency,
    origin: order.origin,
    created_at: order.createdAt.toISOString(),
    paid_at: isoOrNull(order.paidAt),
    fulfilled_at: isoOrNull(order.fulfilledAt),
    pack_expires_at: isoOrNull(order.packExpiresAt),
    emailed_at: isoOrNull(order.emailedAt),
    purged_at: isoOrNull(order.purgedAt),
    has_email: order.buyerEmail !== null,
    fulfil_attempts: order.fulfilAttempts,
    next_attempt_at: isoOrNull(order.nextAttemptAt),
    last_error: order.lastError,
    leased: order.leaseExpiresAt !== null && order.leaseExpiresAt > now,
    stuck: isStuck(order, maxAttempts, now),
  };
}

function orderLine(order: OrderRecord, maxAttempts: number, now: Date): string {
  const d = describeOrder(order, maxAttempts, now);
  const parts = [
    d.id,
    d.status,
    d.sku,
    `${d.coldkeys} coldkey${d.coldkeys === 1 ? '' : 's'}`,
    formatPrice(d.amount_minor, d.currency),
    `created ${d.created_at}`,
  ];
  if (d.paid_at) parts.push(`paid ${d.paid_at}`);
  if (d.fulfilled_at) parts.push(`fulfilled ${d.fulfilled_at}, pack until ${d.pack_expires_at}`);
  if (d.purged_at) parts.push(`purged ${d.purged_at}`);
  if (d.status === 'paid' && d.fulfil_attempts > 0) parts.push(`tries ${d.fulfil_attempts}/${maxAttempts}`);
  if (d.last_error && d.status !== 'fulfilled') parts.push(`last error: ${d.last_error}`);
  if (d.stuck) parts.push('STUCK');
  return parts.join('  ');
}

const DURATION = /^(\d+)(ms|s|m|h)?$/;

/** `30s`, `5m`, `1h`, `500ms`; a bare number is seconds. */
export function parseDuration(raw: string): number {
  const match = DURATION.exec(raw.trim());
  if (!match || Number(match[1]) <= 0)
    throw new InvalidArgumentError('expected a duration such as 30s, 5m or 1h');
  const unit = { ms: 1, s: 1000, m: 60_000, h: HOUR_MS }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unit;
}

function parseInstant(raw: string): Date {
  const date = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('expected an ISO 8601 time such as 2026-05-01T00:00:00Z');
  }
  return date;
}

function reportLines(report: FulfilmentReport): string[] {
  const lines = [
    ...report.fulfilled.map((id) => `fulfilled ${id}`),
    ...report.reusedPacks.map((id) => `  (kept the pack already stored for ${id})`),
    ...report.failed.map((f) => `failed ${f.id}${f.stuck ? ' (STUCK: out of tries)' : ''}: ${f.error}`),
    ...report.lostLeases.map((id) => `left ${id} to another worker (lease lost)`),
    ...report.emailed.map((id) => `emailed ${id}`),
    ...report.mailFailed.map((f) => `email for ${f.id} failed: ${f.error}`),
    ...report.revisionsBuilt.map((r) => `built ${r.id} version ${r.version}`),
    ...report.revisionsReused.map((r) => `  (kept the pack already stored for ${r.id} version ${r.version})`),
    // The problem itself is on the buyer's page only: it names their files and cells.
    ...report.revisionsRejected.map(
      (r) => `rejected ${r.id} version ${r.version} (the buyer's page says why)`,
    ),
    ...report.revisionsFailed.map(
      (f) => `failed ${f.id} version ${f.version}${f.stuck ? ' (STUCK: out of tries)' : ''}: ${f.error}`,
    ),
    ...report.revisionsLost.map((r) => `left ${r.id} version ${r.version} to another worker (lease lost)`),
    ...report.rejectedFilesDeleted.map(
      (r) => `deleted the files of rejected ${r.id} version ${r.version} (an earlier run stopped before it)`,
    ),
    ...report.revisionsEmailed.map((r) => `emailed ${r.id} version ${r.version}`),
    ...report.revisionsMailFailed.map((f) => `email for ${f.id} version ${f.version} failed: ${f.error}`),
  ];
  const revisions =
    report.revisionsEmailed.length +
    report.revisionsMailFailed.length +
    report.revisionsBuilt.length +
    report.revisionsReused.length +
    report.revisionsRejected.length +
    report.revisionsFailed.length +
    report.revisionsLost.length;
  if (revisions > 0) {
    lines.push(
      `${report.revisionsBuilt.length} revision${report.revisionsBuilt.length === 1 ? '' : 's'} built, ${report.revisionsRejected.length} rejected, ` +
        `${report.revisionsFailed.length} failed, ${report.revisionsEmailed.length} emailed`,
    );
  }
  const summary =
    `${report.fulfilled.length} fulfilled, ${report.failed.length} failed, ` +
    `${report.emailed.length} emailed, ${report.mailFailed.length} emails failed`;
  return [...lines, summary];
}

/** `orders create|list|fulfil|purge`: support and the jobs that move paid orders on. */
export function ordersCommand(config: GatewayConfig, io: OrderCommandIo = processOrderIo): Command {
  const orders = new Command('orders').description(
    'Tax orders: create (support), list, show, retry, fulfil, purge',
  );
  const maxAttempts = config.orders.fulfilMaxAttempts;

  orders
    .command('create')
    .description('Create an order without a checkout (support); prints its id, token and amount')
    .requiredOption(
      '--coldkey <address>',
      'a coldkey the pack covers (repeat for up to 5)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .requiredOption('--sku <sku>', 'the pack, e.g. uk-2025-26 (see `skus list`)')
    .option('--json', 'print JSON')
    .action(async (options: { coldkey: string[]; sku: string; json?: boolean }) => {
      const tokens = requireTokens(config.orders);
      const request = checkOrderRequest(
        catalogueWithPrices(config.orders.skuPrices),
        options.sku,
        options.coldkey,
      );
      await withOrderDeps(config, async ({ state, store }) => {
        // As checkout: a year the published record does not cover is refused, naming its first missing day.
        const coverage = yearCoverage(await readPublishedCalendar(store), request.sku.tax_year, io.now());
        if (coverage.reason) throw new Error(coverage.reason);
        const order = await createOrder({ state, now: io.now }, request, 'support');
        const token = tokens.tokenFor(order.id);
        const url = statusUrl(config.baseUrl, order.id, token);
        if (options.json) {
          printJson(io, {
            id: order.id,
            token,
            status: order.status,
            sku: order.sku,
            amount_minor: order.amountMinor,
            currency: order.currency,
            status_url: url,
          });
          return;
        }
        io.out(
          `created order ${order.id} (${order.sku}, ${formatPrice(order.amountMinor, order.currency)}), awaiting payment`,
        );
        io.out(`token: ${token}`);
        io.out(`status: ${url}`);
        io.out('Only a Stripe payment event for this order id (metadata.order_id) moves it to paid.');
      });
    });

  orders
    .command('list')
    .description('List orders, newest first (no emails, no addresses)')
    .addOption(new Option('--status <status>', 'only orders in this status').choices(ORDER_STATUSES))
    .option('--stuck', `only paid orders whose pack failed ${maxAttempts} times (SBM_FULFIL_MAX_ATTEMPTS)`)
    .option('--json', 'print JSON')
    .action(async (options: { status?: OrderStatus; stuck?: boolean; json?: boolean }) => {
      await withOrderDeps(config, async ({ state }) => {
        const now = io.now();
        const status = options.status ?? (options.stuck ? 'paid' : undefined);
        let found = await state.orders.listOrders(status ? { status } : {});
        if (options.stuck) found = found.filter((order) => isStuck(order, maxAttempts, now));
        if (options.json)
          printJson(
            io,
            found.map((order) => describeOrder(order, maxAttempts, now)),
          );
        else if (found.length === 0) io.out('no orders');
        else for (const order of found) io.out(orderLine(order, maxAttempts, now));
      });
    });

  orders
    .command('fulfil')
    .description(
      'Build and store the pack of every paid order, mark it fulfilled, email the buyer; exits 1 when a pack failed',
    )
    .option('--watch', 'keep running, one pass every --interval, until SIGINT/SIGTERM')
    .option('--interval <duration>', 'time between passes with --watch', parseDuration, 30_000)
    .option('--json', 'print each pass as JSON')
    .action(async (options: { watch?: boolean; interval: number; json?: boolean }) => {
      const tokens = requireTokens(config.orders);
      const mailer = mailerFor(config.orders);
      // Packs read stake at past blocks from the node the tax check uses (SBM_CHAIN_URL, an archive node).
      const packChain = openPackChain(config.chainUrl);
      try {
        await withOrderDeps(config, async ({ state, store }) => {
          const pass = async () => {
            const report = await runFulfilment({
              state,
              store,
              now: io.now,
              baseUrl: config.baseUrl,
              tokens,
              mailer,
              buildPack: (order, customer, onProgress) =>
                buildPack(
                  order,
                  { store, chain: packChain.reader, ...(onProgress ? { onProgress } : {}) },
                  customer,
                ),
              maxAttempts,
              alert: io.alert,
            });
            if (options.json) printJson(io, report);
            else for (const line of reportLines(report)) io.out(line);
            return report;
          };
          const first = await pass();
          // Cron and monitoring see a failed build in the exit code (the lines above say which and why).
          if (!options.watch) {
            if (first.failed.length > 0 || first.revisionsFailed.length > 0) throw new CommandExit(1);
            return;
          }
          let stop = false;
          const stopped = io.stopped().then(() => {
            stop = true;
          });
          while (!stop) {
            await Promise.race([
              stopped,
              new Promise((resolve) => setTimeout(resolve, options.interval).unref()),
            ]);
            if (!stop) await pass();
          }
        });
      } finally {
        mailer.close();
        await packChain.close();
      }
    });

  orders
    .command('purge')
    .description('Delete the packs past their expiry and erase the buyers’ emails (idempotent)')
    .option('--as-of <iso>', 'purge what expired by this time (default: now)', parseInstant)
    .option('--json', 'print JSON')
    .action(async (options: { asOf?: Date; json?: boolean }) => {
      await withOrderDeps(config, async (deps) => {
        const asOf = options.asOf ?? io.now();
        const report = await purgeExpiredPacks(deps, asOf);
        if (options.json) printJson(io, { as_of: asOf.toISOString(), purged: report.purged });
        else {
          for (const id of report.purged) io.out(`purged ${id}`);
          io.out(
            `${report.purged.length} pack${report.purged.length === 1 ? '' : 's'} purged as of ${asOf.toISOString()}`,
          );
        }
      });
    });

  addOrderSupportCommands(orders, config, io, (run) => withOrderDeps(config, ({ state }) => run(state)));
  addReconcileCommand(orders, config, io);
  return orders;
}
