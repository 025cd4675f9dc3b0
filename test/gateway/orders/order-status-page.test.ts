/**
 * The success URL a buyer's browser lands on after paying (`/tax/orders/{id}?t=`): a browser (Accept:
 * text/html) gets a page that refreshes itself while the order waits for its payment and its pack, then
 * offers the download; curl and scripts keep the JSON. The real pack is built from a published sandbox.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import { orderServicesFrom } from '../../../gateway/orders/order-services.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { buildPack } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { NOW_MS, ORDER_SECRET, type OrderWorld, orderWorld, payThroughWebhook } from './order-world.js';

const BASE = 'https://sbm.example';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const tokens = orderTokens(ORDER_SECRET);

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
  gw = await gatewayUnderTest({
    storeDir: world.storeDir,
    stateUrl: stateStore.url,
    nowMs: NOW_MS,
    baseUrl: BASE,
    orders: orderServicesFrom(config.orders, world.store, () => {}),
  });
});

afterAll(async () => {
  await gw?.close();
  await stateStore?.stop();
  await packChain?.close();
  await world?.close();
});

const page = (path: string, accept: string | null, ip = '203.0.113.9') =>
  gw.app.fetch(new Request(`${BASE}${path}`, { headers: accept === null ? {} : { accept } }), { ip });

/** The page's text without tags, one space between words. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

it('shows a browser a page that refreshes until the pack is ready, then offers the download; scripts get JSON', async () => {
  const now = () => new Date(gw.clock.nowMs);
  const order = await createOrder(
    { state: gw.state, now },
    checkOrderRequest(catalogueWithPrices(), 'uk-2025-26', [world.demoColdkey]),
    'checkout',
  );
  const token = tokens.tokenFor(order.id);
  const status = `/tax/orders/${order.id}?t=${token}`;

  const waiting = await page(status, BROWSER);
  expect(waiting.status).toBe(200);
  expect(waiting.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(waiting.headers.get('refresh')).toBe('10');
  expect(waiting.headers.get('vary')).toBe('Accept');
  expect(waiting.headers.get('cache-control')).toBe('private, no-store');
  expect(waiting.headers.get('content-security-policy')).toContain("script-src 'self'");
  // The tax limit's headers are on the page as on the JSON.
  expect(waiting.headers.get('x-ratelimit-limit')).not.toBeNull();
  const waitingText = text(await waiting.text());
  expect(waitingText).toContain('Waiting for your payment');
  expect(waitingText).toContain(`Order ${order.id}`);
  expect(waitingText).toContain('refreshes itself every 10 seconds');

  // curl's */*, a script's application/json and no Accept at all: the JSON of spec 2.10, as before.
  for (const accept of ['*/*', 'application/json', null, 'application/json, text/html;q=0.5']) {
    const json = await page(status, accept);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.headers.get('vary')).toBe('Accept');
    expect(((await json.json()) as { status: string }).status).toBe('created');
  }

  expect(await payThroughWebhook(gw.state, order.id, now())).toBe('paid');
  gw.clock.nowMs += 60_000;
  const preparing = await page(status, BROWSER);
  expect(preparing.headers.get('refresh')).toBe('10');
  expect(text(await preparing.text())).toContain('Preparing your tax pack');

  const report = await runFulfilment({
    state: gw.state,
    store: world.store,
    now,
    baseUrl: BASE,
    tokens,
    mailer: { description: 'none', send: async () => {}, close: () => {} },
    buildPack: (o) => buildPack(o, { store: world.store, chain: packChain.reader }),
    maxAttempts: 3,
    alert: () => {},
  });
  expect(report.fulfilled).toEqual([order.id]);

  const ready = await page(status, BROWSER);
  expect(ready.status).toBe(200);
  expect(ready.headers.get('refresh')).toBeNull();
  const readyHtml = await ready.text();
  expect(text(readyHtml)).toContain('Your tax pack is ready');
  const href = /<a class="download" href="([^"]+)"/.exec(readyHtml)?.[1]?.replaceAll('&amp;', '&');
  expect(href).toBe(`${BASE}/tax/orders/${order.id}/pack?t=${token}`);
  // The browser follows the link: the pack itself.
  const pack = await page(new URL(href!).pathname + new URL(href!).search, BROWSER);
  expect(pack.status).toBe(200);
  expect(pack.headers.get('content-type')).toBe('application/zip');
  expect(new Uint8Array(await pack.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));

  // After the retention the page says the pack is gone and stops refreshing.
  gw.clock.nowMs += order.retentionDays * 86_400_000 + 60_000;
  const gone = await page(status, BROWSER);
  expect(gone.headers.get('refresh')).toBeNull();
  expect(text(await gone.text())).toContain('Your tax pack was deleted');
});

it('answers a browser with a wrong or missing token with the one 404 as a page, a script with JSON', async () => {
  const order = await createOrder(
    { state: gw.state, now: () => new Date(gw.clock.nowMs) },
    checkOrderRequest(catalogueWithPrices(), 'uk-2025-26', [world.demoColdkey]),
    'checkout',
  );
  const wrong = `/tax/orders/${order.id}?t=${'0'.repeat(64)}`;
  const missing = `/tax/orders/${order.id}`;
  const bodies = [];
  for (const path of [wrong, missing]) {
    const response = await page(path, BROWSER, '203.0.113.10');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    bodies.push(await response.text());
  }
  expect(bodies[0]).toBe(bodies[1]);
  expect(text(bodies[0]!)).toContain('Order not found');
  expect(bodies[0]).not.toContain(order.id);
  const json = await page(wrong, '*/*', '203.0.113.10');
  expect(json.status).toBe(404);
  expect(json.headers.get('content-type')).toMatch(/^application\/json/);
});
