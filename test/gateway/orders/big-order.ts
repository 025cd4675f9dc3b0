/**
 * A full-year pack of a coldkey of about 200 positions (the sandbox's staker in 100 subnets, 2025/26)
 * bought, paid through the Stripe stand-in's signed webhook, and fulfilled by the real fulfilment job against
 * the sandbox chain, while a second worker polls all along as cron's next run would and support runs
 * `orders show` every 2 s. Shared by `big-order.test.ts` (which asserts the outcome) and the `pack-order`
 * bench (which prints it with its time).
 */
import { join } from 'node:path';
import JSZip from 'jszip';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { type FulfilmentReport, runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { buildPack } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { type BigPackWorld, startBigSandbox } from '../../bench/big-pack-world.js';
import { STATE_ENGINES } from '../state/state-engines.js';
import { ORDER_SECRET, payThroughWebhook } from './order-world.js';
import { runOrderCommand } from './run-order-command.js';
import { watchedFulfilment } from './watched-fulfilment.js';

const BASE = 'https://sbm.example';
export const BIG_ORDER_SKU = 'uk-2025-26';

export interface BigOrderOutcome {
  /** The Stripe stand-in's answer to the signed webhook. */
  paid: string;
  status: string | undefined;
  seconds: number;
  /** One entry a build the fulfilment job started (order id and worker). */
  builds: string[];
  /** The first worker's report, and the second worker's polls while the first one built. */
  report: FulfilmentReport;
  others: FulfilmentReport[];
  /** Each distinct `build:` line `orders show` printed while the pack was built, in order. */
  progress: string[];
  /** The stored pack's positions.csv: its distinct positions and its rows (position-days). */
  positions: number;
  positionDays: number;
}

/**
 * Buys and fulfils the big staker's pack at `latencyMs` a chain request with a lease of `leaseMs`: shorter
 * than the build, so the worker must renew it, yet longer than the pack's longest synchronous step.
 */
export async function fulfilBigOrder(
  world: BigPackWorld,
  options: { latencyMs: number; leaseMs: number },
): Promise<BigOrderOutcome> {
  const coldkey = world.coldkeys['wide-staker'];
  const sandbox = await startBigSandbox(world, options.latencyMs);
  const engine = STATE_ENGINES[0]!;
  const stateStore = await engine.start();
  const state = await openGatewayState(stateStore.url);
  const config = loadGatewayConfig({
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${join(world.dir, 'store')}`,
    SBM_BASE_URL: BASE,
    SBM_ORDER_SECRET: ORDER_SECRET,
    SBM_OUTBOX_DIR: join(world.dir, 'outbox'),
  });
  const packChain = openPackChain(sandbox.url);
  const now = () => new Date();
  try {
    const request = checkOrderRequest(catalogueWithPrices(), BIG_ORDER_SKU, [coldkey]);
    const { id } = await createOrder({ state, now }, request, 'checkout');
    const paid = await payThroughWebhook(state, id, now());
    const builds: string[] = [];
    const worker = (name: string) =>
      runFulfilment({
        state,
        store: world.store,
        now,
        baseUrl: BASE,
        tokens: orderTokens(ORDER_SECRET),
        mailer: { description: 'memory', send: async () => {}, close: () => {} },
        maxAttempts: 5,
        leaseMs: options.leaseMs,
        worker: name,
        alert: () => {},
        buildPack: async (order, customer, onProgress) => {
          builds.push(`${order.id} ${name}`);
          return buildPack(
            order,
            { store: world.store, chain: packChain.reader, ...(onProgress ? { onProgress } : {}) },
            customer,
          );
        },
      });

    const progress: string[] = [];
    const { report, others, ms } = await watchedFulfilment(worker, 2_000, async () => {
      const shown = (await runOrderCommand(config, now, 'orders', 'show', id)).out;
      const line = shown.split('\n').find((l) => l.includes('build: '));
      if (line && progress.at(-1) !== line.trim()) progress.push(line.trim());
    });
    const seconds = ms / 1000;
    const zip = await world.store.get(`tax-packs/${id}.zip`);
    const files = zip ? await JSZip.loadAsync(zip) : null;
    const positionsCsv = files ? await files.file('positions.csv')?.async('string') : undefined;
    // One row a position a day: the distinct (hotkey, netuid) pairs are the positions.
    const rows = positionsCsv ? positionsCsv.trim().split('\n').slice(1) : [];
    return {
      paid,
      status: (await state.orders.getOrder(id))?.status,
      seconds,
      builds,
      report,
      others,
      progress,
      positions: new Set(rows.map((row) => row.split(',').slice(3, 5).join('/'))).size,
      positionDays: rows.length,
    };
  } finally {
    await packChain.close();
    await sandbox.stop();
    await state.close();
    await stateStore.stop();
  }
}

/** Built exactly once: one build, fulfilled by the first worker, and nothing done by the polling one. */
export function builtOnce(outcome: BigOrderOutcome): boolean {
  return (
    outcome.builds.length === 1 &&
    outcome.report.fulfilled.length === 1 &&
    outcome.report.lostLeases.length === 0 &&
    outcome.others.every((o) => o.fulfilled.length + o.lostLeases.length + o.reusedPacks.length === 0)
  );
}

/** The phases `orders show` named, in order. */
export function shownPhases(outcome: BigOrderOutcome): string[] {
  return [...new Set(outcome.progress.map((line) => /build: ([a-z ]+)/.exec(line)?.[1]?.trim() ?? ''))];
}

/** Whether `orders show` gave the build's size: its blocks read of the total and its 200 positions. */
export function shownSize(outcome: BigOrderOutcome): boolean {
  return outcome.progress.some((line) => /\d+ \/ \d+ blocks read, 200 positions × \d+ days/.test(line));
}
