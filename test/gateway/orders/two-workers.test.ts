/**
 * Two fulfilment workers, each its own process, on one PostgreSQL database over 20 paid orders: every
 * pack is built exactly once, every order fulfilled once, one pack object each.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { runToEnd } from '../../../pipeline/demo/child-process.js';
import { startTestPostgres, type TestPostgres } from '../../services/postgres.js';
import { ORDER_SECRET, type OrderWorld, orderWorld, paidOrders } from './order-world.js';

let world: OrderWorld;
let postgres: TestPostgres;

beforeAll(async () => {
  world = await orderWorld();
  postgres = await startTestPostgres();
}, 300_000);

afterAll(async () => {
  await postgres?.stop();
  await world?.close();
});

it('builds each of 20 paid orders exactly once with two workers racing on one database', async () => {
  const state = await openGatewayState(postgres.url);
  try {
    const ids = await paidOrders(state, 20, new Date());
    const buildLog = join(world.dir, 'builds.log');
    const env = {
      ...process.env,
      SBM_STATE_URL: postgres.url,
      SBM_ORDER_SECRET: ORDER_SECRET,
      SBM_OUTBOX_DIR: world.outboxDir,
      FULFIL_STORE_DIR: world.storeDir,
      SBM_CHAIN_URL: world.chainUrl,
      FULFIL_BUILD_LOG: buildLog,
      FULFIL_BUILD_DELAY_MS: '40',
    };
    const outputs = await Promise.all(
      [0, 1].map(() =>
        runToEnd(process.execPath, ['--import', 'tsx', 'test/gateway/orders/fulfil-child.ts'], env),
      ),
    );
    const reports = outputs.map(
      (out) =>
        JSON.parse(out.trim().split('\n').at(-1)!) as {
          worker: string;
          report: { fulfilled: string[]; reusedPacks: string[]; lostLeases: string[]; failed: unknown[] };
        },
    );
    const builds = (await readFile(buildLog, 'utf8')).trim().split('\n');
    const built = builds.map((line) => line.split(' ')[0]!);
    expect(built).toHaveLength(20);
    expect(new Set(built)).toEqual(new Set(ids));
    const fulfilled = reports.flatMap((r) => r.report.fulfilled);
    expect(fulfilled.sort()).toEqual([...ids].sort());
    expect(
      reports.flatMap((r) => [...r.report.reusedPacks, ...r.report.lostLeases, ...r.report.failed]),
    ).toEqual([]);
    // Both workers took part (each build takes 40 ms, so one cannot have drained the queue alone).
    const byWorker = new Set(builds.map((line) => line.split(' ')[1]));
    expect(byWorker.size).toBe(2);
    const orders = await state.orders.listOrders({ status: 'fulfilled' });
    expect(orders.map((o) => o.id).sort()).toEqual([...ids].sort());
    expect(await world.store.list('tax-packs/')).toHaveLength(20);
  } finally {
    await state.close();
  }
}, 180_000);
