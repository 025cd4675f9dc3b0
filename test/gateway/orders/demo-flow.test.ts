/**
 * The flow `make demo` prints, with real processes: `sbm-gateway serve` pointed at the Stripe stand-in
 * (with the settings `startDemoOrders` writes), checkout over HTTP, `sbm-gateway stripe
 * simulate-payment`, the success URL, `sbm-gateway orders fulfil`, the download. And the refusal of
 * simulate-payment when STRIPE_API_BASE is not a loopback stand-in.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type RunningChild, runToEnd, startChild } from '../../../pipeline/demo/child-process.js';
import { type DemoOrders, startDemoOrders } from '../../../pipeline/demo/demo-orders.js';
import { ukTaxYearOf } from '../../../pipeline/time/uk-tax-year.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { ALICE, type OrderWorld, orderWorld } from './order-world.js';

/** The tax year under way: the one a world running to today covers. */
const SKU = `uk-${ukTaxYearOf(Date.now()).label.replace('/', '-')}`;

let world: OrderWorld;
let stateStore: TestStateStore;
let orders: DemoOrders;
let gateway: RunningChild;
let base: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  // The gateway process reads the real clock: the world runs to today, so this tax year is on sale.
  world = await orderWorld({ realClock: true });
  stateStore = await STATE_ENGINES[0]!.start();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  orders = await startDemoOrders(world.dir, base, world.chainUrl, {});
  env = {
    ...process.env,
    ...orders.env,
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${world.storeDir}`,
    SBM_OUTBOX_DIR: world.outboxDir,
  };
  const started = await startChild(
    process.execPath,
    ['--import', 'tsx', 'gateway/cli.ts', 'serve', '--port', String(port)],
    { env, ready: /listening on (\S+)/, label: 'the gateway', timeoutMs: 60_000 },
  );
  gateway = started.child;
  expect(started.match[1]).toBe(base);
}, 2_400_000);

afterAll(async () => {
  await gateway?.stop();
  await orders?.close();
  await stateStore?.stop();
  await world?.close();
});

const cli = (...args: string[]) =>
  runToEnd(process.execPath, ['--import', 'tsx', 'gateway/cli.ts', ...args], env);

it('keeps the demo secrets in an env file the shell can source, reused by the next demo', async () => {
  const text = await readFile(orders.envFile, 'utf8');
  expect(text).toContain(`SBM_ORDER_SECRET=${orders.env['SBM_ORDER_SECRET']}`);
  expect(text).toContain(`STRIPE_API_BASE=${orders.standInUrl}`);
  // `orders fulfil`, run in a shell that sourced the file, reads the pack's stake from the sandbox chain.
  expect(text).toContain(`SBM_CHAIN_URL=${world.chainUrl}`);
  expect(orders.env['SBM_ORDER_SECRET']).toMatch(/^[0-9a-f]{64}$/);
  const next = await startDemoOrders(world.dir, base, world.chainUrl, {});
  try {
    expect(next.env['SBM_ORDER_SECRET']).toBe(orders.env['SBM_ORDER_SECRET']);
    expect(next.env['STRIPE_WEBHOOK_SECRET']).toBe(orders.env['STRIPE_WEBHOOK_SECRET']);
  } finally {
    await next.close();
  }
});

it('checkout → simulate-payment → success URL → fulfil → download, as the demo prints it', async () => {
  const response = await fetch(`${base}/tax/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sku: SKU, coldkeys: [ALICE] }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const { order_id: orderId, checkout_url: checkoutUrl } = (await response.json()) as {
    order_id: string;
    checkout_url: string;
  };
  expect(checkoutUrl.startsWith(`${orders.standInUrl}/c/pay/cs_test_`)).toBe(true);
  const page = await fetch(checkoutUrl);
  // The stand-in's page takes the payment itself, as Stripe's does; the demo's CLI can pay it too.
  expect(await page.text()).toMatch(/<button type="submit">Pay 39\.00 GBP<\/button>/);

  const paid = await cli('stripe', 'simulate-payment', orderId, '--email', 'demo@example.com');
  expect(paid).toMatch(/HTTP 200 \{"received":true\}/);
  const successUrl = /send the buyer to: (\S+)/.exec(paid)![1]!;
  const status = await fetch(successUrl);
  expect(status.status).toBe(200);
  expect(await status.json()).toMatchObject({ id: orderId, status: 'paid' });

  const fulfilled = await cli('orders', 'fulfil');
  expect(fulfilled).toContain(`fulfilled ${orderId}`);
  const order = (await (await fetch(successUrl)).json()) as { status: string; pack_url: string };
  expect(order.status).toBe('fulfilled');
  const pack = await fetch(order.pack_url);
  expect(pack.status).toBe(200);
  const zip = await JSZip.loadAsync(await pack.arrayBuffer());
  expect(Object.keys(zip.files).sort()).toEqual([
    'README.txt',
    'bittytax.csv',
    'cgt-input.csv',
    'disposals.csv',
    'events.csv',
    'income.csv',
    'koinly.csv',
    'matches.csv',
    'pools.csv',
    'positions.csv',
    'summary.pdf',
  ]);
  const eml = await readFile(join(world.outboxDir, `${orderId}.eml`), 'utf8');
  expect(eml).toMatch(/^To: demo@example\.com$/m);

  const listed = await cli('orders', 'list');
  expect(listed).toContain(`${orderId}  fulfilled  ${SKU}  1 coldkey  £39.00`);
  expect(listed).not.toContain('demo@example.com');
  expect(listed).not.toContain(ALICE);
}, 900_000);

it('refuses to simulate a payment unless STRIPE_API_BASE is a loopback stand-in', async () => {
  const elsewhere = runToEnd(
    process.execPath,
    ['--import', 'tsx', 'gateway/cli.ts', 'stripe', 'simulate-payment', 'ord_x'],
    { ...env, STRIPE_API_BASE: 'https://api.stripe.com' },
  );
  await expect(elsewhere).rejects.toThrow(/only against the local Stripe stand-in/);
  const unset = runToEnd(
    process.execPath,
    ['--import', 'tsx', 'gateway/cli.ts', 'stripe', 'simulate-payment', 'ord_x'],
    {
      ...env,
      STRIPE_API_BASE: '',
    },
  );
  await expect(unset).rejects.toThrow(/only against the local Stripe stand-in/);
}, 60_000);
