/**
 * A pack build that outlasts the fulfilment lease (a coldkey of hundreds of positions reads the chain for
 * minutes): the worker renews its lease while it builds, so a second worker polling all along never takes
 * the order, and the pack is built once; `orders show` prints the build's progress meanwhile. The build
 * is the real one, on the orders' sandbox world, through an archive node slowed down (each stake read
 * waits) so that it lasts several leases. And the buyer's page of a big pack says so, with the estimate.
 * On both state engines; the clock is the real one (a lease runs out in real time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayConfig, loadGatewayConfig } from '../../../gateway/config.js';
import { estimatedBuildSeconds } from '../../../gateway/orders/build-progress.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import { orderServicesFrom } from '../../../gateway/orders/order-services.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { ChainReader } from '../../../pipeline/chain/chain-reader.js';
import type { RpcClient } from '../../../pipeline/chain/rpc-client.js';
import { buildPack } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import {
  ORDER_SECRET,
  type OrderWorld,
  orderWorld,
  paidOrders,
  payThroughWebhook,
  WORLD_SKU,
} from './order-world.js';
import { runOrderCommand } from './run-order-command.js';
import { watchedFulfilment } from './watched-fulfilment.js';

const BASE = 'https://sbm.example';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const tokens = orderTokens(ORDER_SECRET);
/** The lease: the build below lasts several of them. */
const LEASE_MS = 2_000;
/** Each stake read waits this long, one at a time: a far archive node. */
const READ_DELAY_MS = 25;

let world: OrderWorld;
let packChain: PackChain;

beforeAll(async () => {
  world = await orderWorld();
  packChain = openPackChain(world.chainUrl);
}, 300_000);

afterAll(async () => {
  await packChain?.close();
  await world?.close();
});

/** The archive node's client, each stake read (`state_queryStorageAt`) answered `delayMs` later. */
function slowNode(rpc: RpcClient, delayMs: number): RpcClient {
  return {
    async send<T>(method: string, params: unknown[]): Promise<T> {
      if (method === 'state_queryStorageAt') await new Promise((resolve) => setTimeout(resolve, delayMs));
      return rpc.send<T>(method, params);
    },
    stats: rpc.stats,
    close: () => rpc.close(),
  };
}

describe.each(STATE_ENGINES)('a build longer than its lease on $name', (engine) => {
  let stateStore: TestStateStore;
  let state: GatewayState;
  let config: GatewayConfig;
  const now = () => new Date();

  beforeAll(async () => {
    stateStore = await engine.start();
    state = await openGatewayState(stateStore.url);
    config = loadGatewayConfig({
      SBM_STATE_URL: stateStore.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_BASE_URL: BASE,
      SBM_ORDER_SECRET: ORDER_SECRET,
      SBM_OUTBOX_DIR: world.outboxDir,
    });
  });

  afterAll(async () => {
    await state?.close();
    await stateStore?.stop();
  });

  it('keeps its lease while it builds, is built once, and `orders show` prints its progress', async () => {
    // The world's demo coldkey: it stakes, unstakes and moves in the year (Alice's and Bob's hold nothing).
    const request = checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [world.demoColdkey]);
    const { id } = await createOrder({ state, now }, request, 'checkout');
    expect(await payThroughWebhook(state, id, now())).toBe('paid');
    const builds: string[] = [];
    const worker = (name: string) =>
      runFulfilment({
        state,
        store: world.store,
        now,
        baseUrl: BASE,
        tokens,
        mailer: { description: 'memory', send: async () => {}, close: () => {} },
        maxAttempts: 5,
        leaseMs: LEASE_MS,
        worker: name,
        alert: () => {},
        buildPack: async (order, customer, onProgress) => {
          builds.push(`${order.id} ${name}`);
          const reader = new ChainReader(slowNode((await packChain.reader()).rpc, READ_DELAY_MS));
          return buildPack(
            order,
            {
              store: world.store,
              chain: async () => reader,
              concurrency: 1,
              ...(onProgress ? { onProgress } : {}),
            },
            customer,
          );
        },
      });

    // A second worker polls all along, as cron's next run would; and support looks at the order.
    const shown: string[] = [];
    const {
      report,
      others,
      ms: took,
    } = await watchedFulfilment(worker, 300, async () => {
      shown.push((await runOrderCommand(config, now, 'orders', 'show', id)).out);
    });

    // The build outlasted its lease several times over, and kept the order all along.
    expect(took).toBeGreaterThan(2 * LEASE_MS);
    expect(report.fulfilled).toEqual([id]);
    expect(report.lostLeases).toEqual([]);
    expect(builds).toEqual([`${id} worker-a`]);
    for (const other of others)
      expect(other.fulfilled.concat(other.lostLeases, other.reusedPacks)).toEqual([]);
    expect(await world.store.get(`tax-packs/${id}.zip`)).not.toBeNull();
    expect((await state.orders.getOrder(id))?.status).toBe('fulfilled');

    // Support saw the build going: the phase, the blocks read of the total, the size and the estimate.
    const building = shown.filter((out) => /build: reading the chain/.test(out));
    const progress = building
      .map((out) =>
        /build: reading the chain, (\d+) \/ (\d+) blocks read, (\d+) positions × (\d+) days/.exec(out),
      )
      .filter((match) => match !== null);
    expect(progress.length, shown.join('\n---\n')).toBeGreaterThan(1);
    const [, read, total, positions, days] = progress.at(-1)!.map(Number);
    expect(read).toBeLessThanOrEqual(total!);
    expect(total).toBeGreaterThan(10);
    expect(positions).toBeGreaterThan(0);
    expect(days).toBeGreaterThan(20);
    process.stderr.write(
      `[long-build] ${engine.name}: ${total} blocks, ${positions} positions × ${days} days, built in ${Math.round(took)} ms\n`,
    );
    // It moved on between two looks (the first look may come before the reads begin).
    const reads = progress.map((match) => Number(match[1]));
    expect(Math.max(...reads)).toBeGreaterThan(Math.min(...reads));
    // The estimate beside the progress (the last look may come after the build, with no progress shown).
    expect(building.at(-1)).toContain(
      `estimated ${estimatedBuildSeconds({ positions: positions!, days: days!, blocks: total! })} s`,
    );
    // The JSON says the same.
    const json =
      shown.length > 0
        ? JSON.parse((await runOrderCommand(config, now, 'orders', 'show', id, '--json')).out)
        : null;
    expect(json.build).toBeNull(); // fulfilled now: no build under way
  }, 300_000);

  it('tells the buyer a big pack is being made and roughly how long it takes', async () => {
    const [id] = (await paidOrders(state, 1, now())) as [string];
    const claimed = await state.orders.claimForFulfilment({
      worker: 'worker-big',
      now: now(),
      leaseUntil: new Date(Date.now() + 60_000),
      maxAttempts: 5,
    });
    expect(claimed?.id).toBe(id);
    // What a worker records while it reads a fund's coldkeys, 2,000 positions over 396 days: a minute in.
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    const progress = {
      phase: 'reading-chain' as const,
      positions: 2000,
      days: 396,
      blocksRead: 756,
      blocks: 1800,
      startedAt,
      updatedAt: new Date().toISOString(),
    };
    expect(
      await state.orders.renewLease(id, 'worker-big', now(), new Date(Date.now() + 60_000), progress),
    ).toBe(true);
    // Another worker's renewal writes nothing.
    expect(
      await state.orders.renewLease(id, 'worker-other', now(), new Date(Date.now() + 60_000), {
        ...progress,
        blocksRead: 1,
      }),
    ).toBe(false);
    expect((await state.orders.getOrder(id))?.buildProgress).toEqual(progress);

    const gw: GatewayUnderTest = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: stateStore.url,
      nowMs: Date.now(),
      baseUrl: BASE,
      orders: orderServicesFrom(config.orders, world.store, () => {}),
    });
    try {
      const page = await gw.app.fetch(
        new Request(`${BASE}/tax/orders/${id}?t=${tokens.tokenFor(id)}`, { headers: { accept: BROWSER } }),
        { ip: '203.0.113.77' },
      );
      expect(page.status).toBe(200);
      // It reloads itself once a minute: a buyer who leaves it open through the build stays within the tax limit.
      expect(page.headers.get('refresh')).toBe('60');
      const text = (await page.text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      // 3 s + 1,800 blocks at 4.5 ms + 792,000 position-days at 0.17 ms.
      expect(estimatedBuildSeconds(progress)).toBe(146);
      expect(text).toContain(
        `this is a big pack, 2000 positions over 396 days, so it takes longer than most: about 3 minutes from ${startedAt.slice(0, 10)} ${startedAt.slice(11, 16)} UTC.`,
      );
      expect(text).toContain('So far 42% of the chain record is read.');
      expect(text).not.toContain('this usually takes a minute or two');
      expect(text).toContain('This page refreshes itself every minute');
      const show = await runOrderCommand(config, now, 'orders', 'show', id);
      expect(show.out).toContain(
        'build: reading the chain, 756 / 1800 blocks read, 2000 positions × 396 days (estimated 146 s)',
      );
      const json = JSON.parse((await runOrderCommand(config, now, 'orders', 'show', id, '--json')).out);
      expect(json.build).toMatchObject({
        phase: 'reading-chain',
        positions: 2000,
        days: 396,
        blocks_read: 756,
        blocks: 1800,
        estimated_seconds: 146,
      });
    } finally {
      await gw.close();
    }
  }, 120_000);
});
