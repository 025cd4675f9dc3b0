/**
 * Issue 36: a fulfilment worker killed (SIGKILL, a real process) after it stored a revision's pack
 * (`tax-packs/<id>.v2.zip`, built by the real pack builder with the buyer's records) and before the
 * conditional UPDATE that marks the revision built. Until the next run the download keeps serving version 1;
 * the real `sbm-gateway orders fulfil` then finishes the revision with the stored pack (kept, not rebuilt):
 * one v2 object, one built revision. Packs are deterministic, so equal bytes cannot tell a kept pack from a
 * rebuilt one: the CLI's own line says it kept the stored pack, and the store's file under the key is the
 * one the dead worker wrote (the folder store writes a new file and renames it over the key on every put, so a
 * second upload changes the file's inode).
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import { orderServicesFrom } from '../../../gateway/orders/order-services.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { runToEnd, startChild } from '../../../pipeline/demo/child-process.js';
import { buildPack } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { ORDER_SECRET, type OrderWorld, orderWorld, payThroughWebhook, WORLD_SKU } from './order-world.js';

const BASE = 'https://sbm.example';
const tokens = orderTokens(ORDER_SECRET);
const RECORDS = ['time_utc,type,asset,quantity,gbp_value,fee', '2026-04-10T12:00:00Z,buy,TAO,1,300,1.5'].join(
  '\n',
);

let world: OrderWorld;
let packChain: PackChain;
let stateStore: TestStateStore;
let gw: GatewayUnderTest;

beforeAll(async () => {
  world = await orderWorld();
  packChain = openPackChain(world.chainUrl);
  stateStore = await STATE_ENGINES[0]!.start();
  const config = loadGatewayConfig({
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${world.storeDir}`,
    SBM_BASE_URL: BASE,
    SBM_ORDER_SECRET: ORDER_SECRET,
    SBM_OUTBOX_DIR: world.outboxDir,
  });
  // The real clock: the child and the CLI read it too.
  gw = await gatewayUnderTest({
    storeDir: world.storeDir,
    stateUrl: stateStore.url,
    nowMs: Date.now(),
    baseUrl: BASE,
    orders: orderServicesFrom(config.orders, world.store, () => {}),
  });
}, 300_000);

afterAll(async () => {
  await gw?.close();
  await stateStore?.stop();
  await packChain?.close();
  await world?.close();
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

it('finishes a revision whose worker died between the v2 upload and its UPDATE, with the same pack', async () => {
  gw.clock.nowMs = Date.now();
  const now = () => new Date();
  const order = await createOrder(
    { state: gw.state, now },
    checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [world.demoColdkey]),
    'checkout',
  );
  expect(await payThroughWebhook(gw.state, order.id, now())).toBe('paid');
  const first = await runFulfilment({
    state: gw.state,
    store: world.store,
    now,
    baseUrl: BASE,
    tokens,
    mailer: { description: 'none', send: async () => {}, close: () => {} },
    buildPack: (o, customer) => buildPack(o, { store: world.store, chain: packChain.reader }, customer),
    maxAttempts: 3,
    alert: () => {},
  });
  expect(first.fulfilled).toEqual([order.id]);
  const token = tokens.tokenFor(order.id);
  const download = async () => {
    gw.clock.nowMs = Date.now();
    const response = await gw.app.fetch(new Request(`${BASE}/tax/orders/${order.id}/pack?t=${token}`), {
      ip: `198.51.100.${Math.floor(Math.random() * 200)}`,
    });
    expect(response.status).toBe(200);
    return {
      version: response.headers.get('x-pack-version'),
      bytes: new Uint8Array(await response.arrayBuffer()),
    };
  };
  const v1 = await download();

  const body = new FormData();
  body.append('records', new Blob([RECORDS]), 'kraken.csv');
  gw.clock.nowMs = Date.now();
  const upload = await gw.app.fetch(
    new Request(`${BASE}/tax/orders/${order.id}/records?t=${token}`, { method: 'POST', body }),
    { ip: '198.51.100.250' },
  );
  expect(upload.status).toBe(202);

  const env = {
    ...process.env,
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${world.storeDir}`,
    SBM_CHAIN_URL: world.chainUrl,
    SBM_ORDER_SECRET: ORDER_SECRET,
    SBM_OUTBOX_DIR: world.outboxDir,
    SBM_BASE_URL: BASE,
  };
  const child = await startChild(
    process.execPath,
    ['--import', 'tsx', 'test/gateway/orders/fulfil-child.ts'],
    {
      env: {
        ...env,
        FULFIL_STORE_DIR: world.storeDir,
        FULFIL_STOP_AFTER_STORE: '1',
        FULFIL_STOP_VERSION: '2',
        FULFIL_LEASE_MS: '120000',
      },
      ready: /stored (ord_[0-9a-f]{32}) (\S+)/,
      label: 'the fulfilment worker',
      timeoutMs: 120_000,
    },
  );
  expect(child.match[1]).toBe(order.id);
  child.child.process.kill('SIGKILL');
  await new Promise((resolve) => child.child.process.once('exit', resolve));

  // The crash left a pending revision held by the dead worker, its pack in the store, v1 still served.
  const [stranded] = await gw.state.orders.listRevisions(order.id);
  expect(stranded).toMatchObject({ version: 2, status: 'pending', leaseOwner: child.match[2], attempts: 1 });
  const stored = await world.store.get(`tax-packs/${order.id}.v2.zip`);
  expect(stored).not.toBeNull();
  // The file the dead worker's upload left under the key (the test's store is a folder: SBM_STORE_URL file:).
  const storedFile = () => stat(join(world.storeDir, 'tax-packs', `${order.id}.v2.zip`), { bigint: true });
  const written = await storedFile();
  expect(sha(stored!)).not.toBe(sha(v1.bytes));
  expect(await download()).toEqual(v1);

  const cli = ['--import', 'tsx', 'gateway/cli.ts', 'orders', 'fulfil'];
  // Inside the dead worker's lease a run leaves it alone.
  const early = await runToEnd(process.execPath, cli, env);
  expect(early).not.toContain('version 2');
  // The lease then ends in a second (its holder's renewal API, set short), and the next run finishes it.
  const leaseEnd = Date.now() + 1_000;
  expect(
    await gw.state.orders.renewRevisionLease(order.id, 2, child.match[2]!, new Date(), new Date(leaseEnd)),
  ).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, leaseEnd - Date.now() + 100)));
  const out = await runToEnd(process.execPath, cli, env);
  expect(out).toContain(`built ${order.id} version 2`);
  // Reuse, not a rebuild: the CLI says so, and nothing was uploaded under the key again.
  expect(out).toContain(`kept the pack already stored for ${order.id} version 2`);
  const after = await storedFile();
  expect({ ino: after.ino, mtimeNs: after.mtimeNs }).toEqual({ ino: written.ino, mtimeNs: written.mtimeNs });

  expect((await world.store.list(`tax-packs/${order.id}.`)).filter((k) => k.endsWith('.zip'))).toEqual([
    `tax-packs/${order.id}.v2.zip`,
    `tax-packs/${order.id}.zip`,
  ]);
  const served = await download();
  expect(served.version).toBe('2');
  // The link serves the stored object (equal bytes say only that, not how it was made).
  expect(sha(served.bytes)).toBe(sha(stored!));
  expect(await gw.state.orders.listRevisions(order.id)).toMatchObject([
    { version: 2, status: 'built', attempts: 2, leaseOwner: null },
  ]);
  const again = await runToEnd(process.execPath, cli, env);
  expect(again).not.toContain('version 2');
}, 300_000);
