/**
 * A fulfilment worker killed (SIGKILL, a real process) after the pack upload and before the status
 * change; then the real `sbm-gateway orders fulfil` runs and finishes the order: one pack object (the
 * killed run's bytes, kept, not rebuilt) and one fulfilled order, emailed once.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { runToEnd, startChild } from '../../../pipeline/demo/child-process.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { ORDER_SECRET, type OrderWorld, orderWorld, paidOrders } from './order-world.js';

let world: OrderWorld;
let stateStore: TestStateStore;

beforeAll(async () => {
  world = await orderWorld();
  stateStore = await STATE_ENGINES[0]!.start();
}, 300_000);

afterAll(async () => {
  await stateStore?.stop();
  await world?.close();
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

it('finishes an order whose worker died between the upload and the status change, with the same pack', async () => {
  const state = await openGatewayState(stateStore.url);
  try {
    const [orderId] = await paidOrders(state, 1, new Date());
    const env = {
      ...process.env,
      SBM_STATE_URL: stateStore.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_CHAIN_URL: world.chainUrl,
      SBM_ORDER_SECRET: ORDER_SECRET,
      SBM_OUTBOX_DIR: world.outboxDir,
      SBM_BASE_URL: 'https://sbm.example',
    };
    const child = await startChild(
      process.execPath,
      ['--import', 'tsx', 'test/gateway/orders/fulfil-child.ts'],
      {
        env: {
          ...env,
          FULFIL_STORE_DIR: world.storeDir,
          FULFIL_STOP_AFTER_STORE: '1',
          // Long enough that the run below always starts and ends inside it, on any machine.
          FULFIL_LEASE_MS: '120000',
        },
        ready: /stored (ord_[0-9a-f]{32}) (\S+)/,
        label: 'the fulfilment worker',
        timeoutMs: 60_000,
      },
    );
    expect(child.match[1]).toBe(orderId);
    child.child.process.kill('SIGKILL');
    await new Promise((resolve) => child.child.process.once('exit', resolve));

    // The crash left a paid order held by the dead worker, and its pack in the store.
    const stranded = await state.orders.getOrder(orderId!);
    expect(stranded).toMatchObject({ status: 'paid', leaseOwner: child.match[2], fulfilAttempts: 1 });
    const packs = await world.store.list('tax-packs/');
    expect(packs).toEqual([`tax-packs/${orderId}.zip`]);
    const uploaded = sha((await world.store.get(packs[0]!))!);

    // While the dead worker's lease lasts a run leaves the order alone; once it has run out, the next
    // run completes the order with the pack already stored.
    const early = await runToEnd(
      process.execPath,
      ['--import', 'tsx', 'gateway/cli.ts', 'orders', 'fulfil'],
      env,
    );
    expect(Date.now(), 'the run ended inside the lease').toBeLessThan(stranded!.leaseExpiresAt!.getTime());
    expect(early).toContain('0 fulfilled');
    expect(await state.orders.getOrder(orderId!)).toMatchObject({
      status: 'paid',
      leaseOwner: child.match[2],
    });
    // The lease then ends in a second instead of two minutes (its holder's renewal API, set short).
    const leaseEnd = Date.now() + 1_000;
    expect(await state.orders.renewLease(orderId!, child.match[2]!, new Date(), new Date(leaseEnd))).toBe(
      true,
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, leaseEnd - Date.now() + 100)));
    const out = await runToEnd(
      process.execPath,
      ['--import', 'tsx', 'gateway/cli.ts', 'orders', 'fulfil'],
      env,
    );
    expect(out).toContain(`fulfilled ${orderId}`);
    expect(out).toContain(`kept the pack already stored for ${orderId}`);
    expect(out).toContain(`emailed ${orderId}`);

    expect(await world.store.list('tax-packs/')).toEqual([`tax-packs/${orderId}.zip`]);
    expect(sha((await world.store.get(`tax-packs/${orderId}.zip`))!)).toBe(uploaded);
    const done = await state.orders.getOrder(orderId!);
    expect(done).toMatchObject({
      status: 'fulfilled',
      packKey: `tax-packs/${orderId}.zip`,
      fulfilAttempts: 2,
    });
    expect(await state.orders.listOrders({ status: 'fulfilled' })).toHaveLength(1);
    expect(await readdir(world.outboxDir)).toEqual([`${orderId}.eml`]);
    // Nothing is left to do.
    const again = await runToEnd(
      process.execPath,
      ['--import', 'tsx', 'gateway/cli.ts', 'orders', 'fulfil'],
      env,
    );
    expect(again).toContain('0 fulfilled, 0 failed, 0 emailed');
  } finally {
    await state.close();
  }
}, 120_000);
