/**
 * `make bench`: a full-year pack of a coldkey of about 200 positions (the sandbox's staker in 100 subnets,
 * 2025/26) bought, paid through the Stripe stand-in's signed webhook, and fulfilled by the real fulfilment
 * job against the sandbox chain at 20 ms a request, while a second worker polls all along as cron's next
 * run would and support runs `orders show`. It checks, and prints, that the pack was built exactly once
 * (the worker kept its lease through a build many leases long), that `orders show` showed the build's
 * progress moving, and that the stored pack holds the coldkey's 200 positions. It takes minutes (collecting
 * the year's world and reading 200 positions at every day end), so it is a bench, not a test.
 */
import { join } from 'node:path';
import JSZip from 'jszip';
import { loadGatewayConfig } from '../../gateway/config.js';
import { catalogueWithPrices } from '../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../gateway/orders/create-order.js';
import { type FulfilmentReport, runFulfilment } from '../../gateway/orders/fulfilment-job.js';
import { orderTokens } from '../../gateway/orders/order-token.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { buildPack } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { ORDER_SECRET, payThroughWebhook } from '../gateway/orders/order-world.js';
import { runOrderCommand } from '../gateway/orders/run-order-command.js';
import { STATE_ENGINES } from '../gateway/state/state-engines.js';
import { bigPackWorld, startBigSandbox } from './big-pack-world.js';

const BASE = 'https://sbm.example';
const SKU = 'uk-2025-26';
const LATENCY_MS = 20;
/**
 * Shorter than the build (a minute or more), so the worker must renew its lease, yet longer than the pack's
 * longest synchronous step. With a 5 s lease the order was tried five times in 289 s and not fulfilled (most
 * likely the heartbeat could not run while the tax work held the event loop: about half of this pack's
 * time has no read in flight). Production's lease is 10 minutes.
 */
const LEASE_MS = 60_000;
const verdict = (passed: boolean) => (passed ? 'PASS' : 'FAIL');

export async function run(): Promise<void> {
  const world = await bigPackWorld();
  const coldkey = world.coldkeys['wide-staker'];
  const sandbox = await startBigSandbox(world, LATENCY_MS);
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
    const request = checkOrderRequest(catalogueWithPrices(), SKU, [coldkey]);
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
        leaseMs: LEASE_MS,
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

    const started = performance.now();
    let done = false;
    const first = worker('worker-a').finally(() => {
      done = true;
    });
    const others: FulfilmentReport[] = [];
    const progress: string[] = [];
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      if (done) break;
      others.push(await worker('worker-b'));
      const shown = (await runOrderCommand(config, now, 'orders', 'show', id)).out;
      const line = shown.split('\n').find((l) => l.includes('build: '));
      if (line && progress.at(-1) !== line.trim()) progress.push(line.trim());
    }
    const report = await first;
    const seconds = (performance.now() - started) / 1000;
    const zip = await world.store.get(`tax-packs/${id}.zip`);
    const files = zip ? await JSZip.loadAsync(zip) : null;
    const positionsCsv = files ? await files.file('positions.csv')?.async('string') : undefined;
    // One row a position a day: the distinct (hotkey, netuid) pairs are the positions.
    const rows = positionsCsv ? positionsCsv.trim().split('\n').slice(1) : [];
    const positions = new Set(rows.map((row) => row.split(',').slice(3, 5).join('/'))).size;
    const reads = progress
      .map((line) => /(\d+) \/ (\d+) blocks read/.exec(line))
      .filter((m) => m !== null)
      .map((m) => Number(m[1]));

    const once =
      builds.length === 1 &&
      report.fulfilled.length === 1 &&
      report.lostLeases.length === 0 &&
      others.every((o) => o.fulfilled.length + o.lostLeases.length + o.reusedPacks.length === 0);
    // The heartbeat records progress every third of the lease (20 s here): support sees the build's phase
    // change, and its blocks read of the total with its size.
    const phases = new Set(progress.map((line) => /build: ([a-z ]+)/.exec(line)?.[1]?.trim()));
    const sized = progress.some((line) => /\d+ \/ \d+ blocks read, 200 positions × \d+ days/.test(line));
    const moved = phases.size >= 2 && sized;
    const status = (await state.orders.getOrder(id))?.status;
    process.stdout.write(
      `big order: ${SKU} for the staker in 100 subnets, paid (${paid}), fulfilled in ${seconds.toFixed(0)} s at ` +
        `--latency-ms ${LATENCY_MS} with a ${LEASE_MS / 1000} s lease; status ${status}; pack stored: ${zip !== null}, ` +
        `${positions} positions, ${rows.length} position-days in positions.csv\n` +
        `  built exactly once (${builds.length} build, ${others.length} polls of a second worker took nothing): ${verdict(once && status === 'fulfilled')}\n` +
        `  progress shown by \`orders show\` (${progress.length} looks, phases: ${[...phases].join(' → ')}; blocks read ${reads[0] ?? '-'} → ${reads.at(-1) ?? '-'}): ${verdict(moved)}\n`,
    );
    for (const line of [progress[0], progress.at(-1)]) if (line) process.stdout.write(`    ${line}\n`);
    for (const failure of [...report.failed, ...others.flatMap((o) => o.failed)])
      process.stdout.write(`    failed try: ${failure.error.slice(0, 300)}\n`);
    if (!once || status !== 'fulfilled' || !moved || positions < 200)
      throw new Error('the big order was not fulfilled once with progress shown');
  } finally {
    await packChain.close();
    await sandbox.stop();
    await state.close();
    await stateStore.stop();
  }
}
