/**
 * The flow `make demo` prints, with real processes: `sbm-gateway serve` pointed at the Stripe stand-in
 * (with the settings `startDemoOrders` writes) and the demo's order jobs (`startOrderJobs`, the shipped
 * cron's `orders fulfil` and `orders reconcile` on a faster clock), `skus list`, checkout over HTTP for
 * each tax year the demo sells, paid on the stand-in's page or by `sbm-gateway stripe simulate-payment`,
 * the success URLs, the packs arriving with nobody running `orders fulfil`, the downloads, and
 * `orders reconcile` finding both payments on Stripe's side. And the refusal of simulate-payment when
 * STRIPE_API_BASE is not a loopback stand-in.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { freePort, type RunningChild, runToEnd, startChild } from '../../../pipeline/demo/child-process.js';
import { demoHistory } from '../../../pipeline/demo/demo-command.js';
import { type DemoOrders, startDemoOrders } from '../../../pipeline/demo/demo-orders.js';
import { type OrderJobs, startOrderJobs } from '../../../pipeline/demo/order-jobs.js';
import { SCREENFUL_LINES } from '../../../pipeline/tax/products/pack/points-view.js';
import { ukDay } from '../../../pipeline/time/uk-day.js';
import { ukTaxYear, ukTaxYearOf } from '../../../pipeline/time/uk-tax-year.js';
import { type PackWorld, publishPackWorld } from '../../tax/products/pack/pack-world.js';
import { pdfToText } from '../../tax/products/pack/pdf-text.js';
import { readCsv } from '../../tax/products/pack/read-pack-csv.js';
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
let jobs: OrderJobs;
const jobLines: string[] = [];
/** The orders the checkout test bought, the previous tax year's first. */
const bought: { sku: string; orderId: string; successUrl: string }[] = [];

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
  // The demo's cron, on a faster clock than the shipped one (every minute, every 15 minutes). Each run is a
  // process that loads the gateway's code (about 5 s of CPU through tsx), so a shorter period would keep a
  // core loading code all through the file, beside the other fork's tests.
  jobs = startOrderJobs({
    jobs: [
      { args: ['orders', 'fulfil'], everyMs: 10_000 },
      { args: ['orders', 'reconcile'], everyMs: 15_000 },
    ],
    env,
    logFile: join(world.dir, 'demo-orders.log'),
    say: (line) => jobLines.push(line),
  });
}, 2_400_000);

afterAll(async () => {
  await jobs?.stop();
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

it('checkout → paid on the stand-in’s page or by simulate-payment → the pack arrives by itself → download', async () => {
  for (const [i, { sku }] of YEARS.entries()) {
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

    let successUrl: string;
    if (i === 0) {
      // A buyer's click on "Pay": the stand-in completes the session and sends the event, as Stripe does.
      const paid = await fetch(checkoutUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=demo%40example.com',
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      successUrl = paid.headers.get('location')!;
    } else {
      const paid = await cli('stripe', 'simulate-payment', orderId, '--email', 'demo@example.com');
      expect(paid).toMatch(/HTTP 200 \{"received":true\}/);
      successUrl = /send the buyer to: (\S+)/.exec(paid)![1]!;
    }
    // Stripe's side knows the payment: the session is complete, whichever way it was paid.
    const sessionId = /\/c\/pay\/(cs_test_\w+)/.exec(checkoutUrl)![1]!;
    expect(orders.fake.session(sessionId)).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const status = await fetch(successUrl);
    expect(status.status).toBe(200);
    expect(['paid', 'fulfilled']).toContain(((await status.json()) as { status: string }).status);
    bought.push({ sku, orderId, successUrl });
  }

  // Nobody runs `orders fulfil`: the demo's cron does. Watched in the state (the buyer's page counts
  // against the tax limit, 20 an hour per address), then the buyer's page says fulfilled below.
  const deadline = Date.now() + 600_000;
  const state = await openGatewayState(stateStore.url);
  for (const { orderId } of bought) {
    for (;;) {
      if ((await state.orders.getOrder(orderId))?.status === 'fulfilled') break;
      if (Date.now() > deadline) {
        const log = await readFile(join(world.dir, 'demo-orders.log'), 'utf8').catch(() => '(no log)');
        throw new Error(`the pack did not arrive in time; the order jobs' log:\n${log.slice(-3000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  await state.close();
  // The payments are on Stripe's side too: reconcile lists both sessions, already paid, and changes nothing.
  const reconciled = JSON.parse(await cli('orders', 'reconcile', '--json')) as {
    sessions: { order_id: string; action: string }[];
  };
  for (const { orderId } of bought) {
    expect(reconciled.sessions.find((s) => s.order_id === orderId)?.action).toBe('already-paid');
  }
  const listed = await cli('orders', 'list');
  for (const { sku, orderId, successUrl } of bought) {
    expect(jobLines).toContain(`[orders fulfil] fulfilled ${orderId}`);
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
      'liquidity.csv',
      'matches.csv',
      'points.csv',
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
  expect(jobs.runs()['orders reconcile']).toBeGreaterThan(0);
}, 900_000);

/** A pack's file as text, from the order's link (the newest version built). */
async function packFiles(packUrl: string): Promise<{
  version: string;
  text: (name: string) => Promise<string>;
  bytes: (name: string) => Promise<Uint8Array>;
}> {
  const response = await fetch(packUrl);
  expect(response.status).toBe(200);
  const zip = await JSZip.loadAsync(await response.arrayBuffer());
  return {
    version: response.headers.get('x-pack-version') ?? '',
    text: (name) => zip.file(name)!.async('string'),
    bytes: (name) => zip.file(name)!.async('uint8array'),
  };
}

/** The address points an order page lists: each point's address, words and its one-button form. */
function pageAddressPoints(html: string): { address: string; action: string; item: string }[] {
  const items = html.match(/<li class="point address"[^>]*>[\s\S]*?<\/li>/g) ?? [];
  return items.map((item) => ({
    item,
    address: /name="own_address" value="([^"]+)"/.exec(item)?.[1] ?? '',
    action: (/<form class="mark-own" method="post" action="([^"]+)"/.exec(item)?.[1] ?? '').replace(
      /&amp;/g,
      '&',
    ),
  }));
}

it("the previous year's pack groups its transfers by address, each with its action; marking one as own from its point rebuilds the pack without it", async () => {
  const first = bought[0]!;
  const page = () => fetch(first.successUrl, { headers: { accept: 'text/html' } }).then((r) => r.text());
  const order = (await (await fetch(first.successUrl)).json()) as { pack_url: string };
  const pack = await packFiles(order.pack_url);
  const points = readCsv(await pack.text('points.csv'));
  const events = readCsv(await pack.text('events.csv'));
  // Every transfer across the order's edge is in one point, its address's: as many points as addresses.
  const transfers = events.filter((row) => row['treatment']!.includes('outside the order'));
  expect(transfers.length).toBeGreaterThan(1);
  const addresses = points.filter((row) => row['kind'] === 'address');
  expect(new Set(addresses.map((row) => row['counterparty']))).toEqual(
    new Set(transfers.map((row) => row['counterpart_coldkey'])),
  );
  expect(addresses.length).toBeLessThan(transfers.length);
  expect(addresses.reduce((sum, row) => sum + Number(row['count']), 0)).toBe(transfers.length);
  for (const row of addresses) expect(row['action']).toMatch(/Mark it as yours on the order page/);
  // Most pounds at stake first.
  const stakes = points.filter((row) => row['gbp'] !== '').map((row) => Number(row['gbp']));
  expect(stakes).toEqual([...stakes].sort((a, b) => b - a));
  // The PDF lists the same points, the first with its address and its action.
  const pdf = pdfToText(await pack.bytes('summary.pdf'), world.dir).replace(/\s+/g, ' ');
  expect(pdf).toContain(`${addresses[0]!['rank']}. Transfers with ${addresses[0]!['counterparty']}`);
  expect(pdf).toContain(addresses[0]!['action']!.replace(/\s+/g, ' '));

  // The order page: a screenful of groups by what settles them (the PDF's), each naming its action, every
  // point of points.csv in one of its lines; each address on a line of its own with its one-button form.
  const html = await page();
  const section = html.split('<section class="order-points"')[1]!.split('</section>')[0]!;
  const groupLines = section.match(/<h3 class="point-group /g) ?? [];
  const pointLines = section.match(/<li class="point |<p class="point-rest /g) ?? [];
  expect(groupLines.length + pointLines.length).toBeLessThanOrEqual(SCREENFUL_LINES);
  expect(section.match(/<p class="point-action">What settles each: /g) ?? []).toHaveLength(groupLines.length);
  const merged = [...section.matchAll(/<p class="point-rest [^"]+">[\d ,to-]+\. (\d+) other/g)];
  const onLines = (section.match(/<li class="point /g) ?? []).length;
  expect(onLines + merged.reduce((sum, m) => sum + Number(m[1]), 0)).toBe(points.length);
  const listed = pageAddressPoints(html);
  expect(listed.length).toBeGreaterThan(0);
  expect(listed.map((p) => p.address)).toEqual(
    addresses.slice(0, listed.length).map((row) => row['counterparty']),
  );
  for (const p of listed) expect(p.item).toContain('This address is mine');
  const mine = listed[0]!;
  const form = new FormData();
  form.set('own_address', mine.address);
  const marked = await fetch(new URL(mine.action, base), {
    method: 'POST',
    body: form,
    headers: { accept: 'text/html', origin: base },
    redirect: 'manual',
  });
  expect(marked.status, await marked.clone().text()).toBe(303);

  // The demo's cron builds version 2 with that address as the buyer's own.
  const state = await openGatewayState(stateStore.url);
  const deadline = Date.now() + 600_000;
  try {
    for (;;) {
      const revisions = await state.orders.listRevisions(first.orderId);
      const status = revisions.find((r) => r.version === 2)?.status;
      if (status === 'built') break;
      expect(status, 'version 2 is built').not.toBe('rejected');
      if (Date.now() > deadline) throw new Error('version 2 was not built in time');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  } finally {
    await state.close();
  }
  const revised = await packFiles(order.pack_url);
  expect(revised.version).toBe('2');
  const after = readCsv(await revised.text('points.csv'));
  expect(after.map((row) => row['counterparty'])).not.toContain(mine.address);
  expect(after.filter((row) => row['kind'] === 'address').map((row) => row['counterparty'])).toEqual(
    addresses.map((row) => row['counterparty']).filter((address) => address !== mine.address),
  );
  // Its transfers are moves within the buyer's holdings now, and the page lists the point no more.
  const revisedPdf = pdfToText(await revised.bytes('summary.pdf'), world.dir);
  expect(revisedPdf).not.toContain(`Transfers with ${mine.address}`);
  expect(pageAddressPoints(await page()).map((p) => p.address)).not.toContain(mine.address);
}, 900_000);

it('stops the order jobs with the demo: the run under way ends, and no other starts', async () => {
  const own = startOrderJobs({
    jobs: [{ args: ['orders', 'list'], everyMs: 300 }],
    env,
    logFile: join(world.dir, 'stop-test.log'),
    say: () => {},
  });
  let pids: number[] = [];
  for (let i = 0; i < 100 && pids.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    pids = own.pids();
  }
  expect(pids.length).toBe(1);
  await own.stop();
  for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  const runs = own.runs()['orders list'] ?? 0;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(own.pids()).toEqual([]);
  expect(own.runs()['orders list'] ?? 0).toBe(runs);
}, 60_000);

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
