/**
 * The flow `make demo` prints, with real processes: `sbm-gateway serve` pointed at the Stripe stand-in
 * (with the settings `startDemoOrders` writes), `skus list`, checkout over HTTP for each tax year the demo
 * sells, `sbm-gateway stripe simulate-payment`, the success URLs, `sbm-gateway orders fulfil`, the
 * downloads. And the refusal of simulate-payment when STRIPE_API_BASE is not a loopback stand-in.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, type RunningChild, runToEnd, startChild } from '../../../pipeline/demo/child-process.js';
import { demoHistory } from '../../../pipeline/demo/demo-command.js';
import { type DemoOrders, startDemoOrders } from '../../../pipeline/demo/demo-orders.js';
import { ukDay } from '../../../pipeline/time/uk-day.js';
import { ukTaxYear, ukTaxYearOf } from '../../../pipeline/time/uk-tax-year.js';
import { type PackWorld, publishPackWorld } from '../../tax/products/pack/pack-world.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The world's blocks: an hour each, so the two tax years' history is collected in seconds. */
const BLOCK_TIME_MS = HOUR_MS;
/**
 * The gateway and `orders fulfil` are processes that read the real clock: a year is on sale when the record
 * reaches yesterday's last UK day. The world's clock is fixed this far ahead of the real one when the test
 * starts, so yesterday's last block is final (the sandbox's finality lag is two blocks) at any hour the test
 * runs, even across midnight: three blocks for the lag and the block that ends the day, and three hours for
 * the test itself.
 */
const WORLD_AHEAD_MS = 3 * BLOCK_TIME_MS + 3 * HOUR_MS;

const STARTED_MS = Date.now();
/** The demo's own history (two days before the previous tax year's 6 April), from its own rule. */
const HISTORY = demoHistory(STARTED_MS);
/**
 * The tax years the demo sells: the previous one, complete, and the one under way, except on its 6 April,
 * when it has no finished UK day yet (then it must not be on sale).
 */
const CURRENT = ukTaxYearOf(STARTED_MS);
const skuOf = (label: string) => `uk-${label.replace('/', '-')}`;
const CURRENT_HAS_A_DAY = ukDay(STARTED_MS) > CURRENT.firstDay;
const YEARS = [ukTaxYear(CURRENT.startYear - 1), ...(CURRENT_HAS_A_DAY ? [CURRENT] : [])].map((year) => ({
  taxYear: year.label,
  sku: skuOf(year.label),
}));

let world: PackWorld;
let coldkey: string;
let outboxDir: string;
let stateStore: TestStateStore;
let orders: DemoOrders;
let gateway: RunningChild;
let base: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const genesis = new Date(`${HISTORY.firstDay}T00:00:00Z`);
  const worldNowMs = STARTED_MS + WORLD_AHEAD_MS;
  const historyDays = Math.floor((worldNowMs - genesis.getTime()) / DAY_MS);
  world = await publishPackWorld({
    seed: 'orders',
    genesis,
    historyDays,
    hoursIntoToday: (worldNowMs - genesis.getTime() - historyDays * DAY_MS) / HOUR_MS,
    blockTimeMs: BLOCK_TIME_MS,
    ...(HISTORY.runtimesByDate ? { runtimes: 'mainnet' as const } : {}),
  });
  // The coldkey the demo prints: the one that holds the world's demo stake now.
  coldkey = world.devnet.holderColdkey;
  outboxDir = join(world.dir, 'outbox');
  stateStore = await STATE_ENGINES[0]!.start();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  orders = await startDemoOrders(world.dir, base, world.devnet.url, {});
  env = {
    ...process.env,
    ...orders.env,
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${join(world.dir, 'store')}`,
    SBM_OUTBOX_DIR: outboxDir,
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
  expect(text).toContain(`SBM_CHAIN_URL=${world.devnet.url}`);
  expect(orders.env['SBM_ORDER_SECRET']).toMatch(/^[0-9a-f]{64}$/);
  const next = await startDemoOrders(world.dir, base, world.devnet.url, {});
  try {
    expect(next.env['SBM_ORDER_SECRET']).toBe(orders.env['SBM_ORDER_SECRET']);
    expect(next.env['STRIPE_WEBHOOK_SECRET']).toBe(orders.env['STRIPE_WEBHOOK_SECRET']);
  } finally {
    await next.close();
  }
});

it('sells the tax years the demo collects: the previous one and the one under way', async () => {
  const listed = JSON.parse(await cli('skus', 'list', '--json')) as { sku: string; tax_year: string }[];
  const skus = listed.map((pack) => pack.sku);
  for (const year of YEARS) {
    expect(skus, `${year.sku} on sale`).toContain(year.sku);
    expect(listed.find((pack) => pack.sku === year.sku)?.tax_year).toBe(year.taxYear);
  }
  if (!CURRENT_HAS_A_DAY) expect(skus).not.toContain(skuOf(CURRENT.label));
});

it('checkout → simulate-payment → success URL → fulfil → download, for each year, as the demo prints it', async () => {
  const bought: { sku: string; orderId: string; successUrl: string }[] = [];
  for (const { sku } of YEARS) {
    const response = await fetch(`${base}/tax/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku, coldkeys: [coldkey] }),
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
    bought.push({ sku, orderId, successUrl });
  }

  const fulfilled = await cli('orders', 'fulfil');
  const listed = await cli('orders', 'list');
  for (const { sku, orderId, successUrl } of bought) {
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
      'reconciliation.csv',
      'summary.pdf',
    ]);
    const eml = await readFile(join(outboxDir, `${orderId}.eml`), 'utf8');
    expect(eml).toMatch(/^To: demo@example\.com$/m);
    expect(listed).toContain(`${orderId}  fulfilled  ${sku}  1 coldkey  £39.00`);
  }
  expect(listed).not.toContain('demo@example.com');
  expect(listed).not.toContain(coldkey);
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
