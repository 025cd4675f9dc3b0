/**
 * Issue 36's order page in a real browser (Debian's chromium through puppeteer-core): the buyer of a
 * fulfilled order adds their own records with the page's plain form (no script: the pages' CSP). A file
 * with a mistake is refused on a page that names its line and reason, and the pack is unchanged; a good
 * file becomes version 2, which the fulfilment job builds with the real pack builder, and the same
 * download link then gives it. The gateway runs over real HTTP on a real SQLite state and the sandbox
 * world the order tests publish. Screenshots, desktop (1280 wide) and phone (390 wide), go to
 * /tmp/order-page-*.png to be looked at.
 *
 * The tests are steps of one walk and run in order; without chromium the file is skipped with a banner.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayConfig, loadGatewayConfig } from '../../gateway/config.js';
import { catalogueWithPrices } from '../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../gateway/orders/create-order.js';
import { type FulfilmentDeps, runFulfilment } from '../../gateway/orders/fulfilment-job.js';
import { orderServicesFrom } from '../../gateway/orders/order-services.js';
import { orderTokens } from '../../gateway/orders/order-token.js';
import { buildPack } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import {
  NOW_MS,
  ORDER_SECRET,
  type OrderWorld,
  orderWorld,
  payThroughWebhook,
  WORLD_SKU,
} from '../gateway/orders/order-world.js';
import { runOrderCommand } from '../gateway/orders/run-order-command.js';
import { STATE_ENGINES, type TestStateStore } from '../gateway/state/state-engines.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../support/gateway-under-test.js';
import { findChromium, launchBrowser, NO_BROWSER } from './browser.js';

const chromium = findChromium();
const BASE = 'https://sbm.example';
const HOUR = 3_600_000;
const tokens = orderTokens(ORDER_SECRET);

const BAD_NAME = 'exchange-with-a-mistake.csv';
const BAD = [
  'time_utc,type,asset,quantity,gbp_value,fee',
  '2026-04-10T12:00:00Z,buy,TAO,1,300,',
  '2026-04-11T12:00:00Z,buy,DOGE,5,1,',
].join('\n');
const GOOD_NAME = 'kraken-2026.csv';
const GOOD = ['time_utc,type,asset,quantity,gbp_value,fee', '2026-04-10T12:00:00Z,buy,TAO,1,300,1.5'].join(
  '\n',
);

const WALK = `the order page's "Add your records and addresses" in a real browser${chromium ? '' : NO_BROWSER}`;

describe.skipIf(!chromium)(WALK, () => {
  let world: OrderWorld;
  let packChain: PackChain;
  let stateStore: TestStateStore;
  let gw: GatewayUnderTest;
  let browser: Browser;
  let page: Page;
  let files: string;
  let config: GatewayConfig;
  let orderId: string;
  let statusPath: string;
  let firstHref: string;
  let v1: Uint8Array;
  const consoleErrors: string[] = [];

  const now = () => new Date(gw.clock.nowMs);
  const jobDeps = (): FulfilmentDeps => ({
    state: gw.state,
    store: world.store,
    now,
    baseUrl: BASE,
    tokens,
    mailer: { description: 'none', send: async () => {}, close: () => {} },
    buildPack: (order, customer) =>
      buildPack(order, { store: world.store, chain: packChain.reader }, customer),
    maxAttempts: 3,
    alert: () => {},
  });

  beforeAll(async () => {
    world = await orderWorld();
    packChain = openPackChain(world.chainUrl);
    stateStore = await STATE_ENGINES[0]!.start();
    config = loadGatewayConfig({
      SBM_STATE_URL: stateStore.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_BASE_URL: BASE,
      SBM_ORDER_SECRET: ORDER_SECRET,
      SBM_OUTBOX_DIR: world.outboxDir,
      SBM_CHAIN_URL: world.chainUrl,
    });
    gw = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: stateStore.url,
      nowMs: NOW_MS,
      baseUrl: BASE,
      orders: orderServicesFrom(config.orders, world.store, () => {}),
      transport: 'http',
    });
    files = await mkdtemp(join(tmpdir(), 'sbm-order-files-'));
    await writeFile(join(files, BAD_NAME), BAD);
    await writeFile(join(files, GOOD_NAME), GOOD);

    const order = await createOrder(
      { state: gw.state, now },
      checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [world.demoColdkey]),
      'checkout',
    );
    orderId = order.id;
    expect(await payThroughWebhook(gw.state, order.id, now())).toBe('paid');
    expect((await runFulfilment(jobDeps())).fulfilled).toEqual([order.id]);
    statusPath = `/tax/orders/${order.id}?t=${tokens.tokenFor(order.id)}`;

    browser = await launchBrowser(chromium!);
    page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${String(error)}`));
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await stateStore?.stop();
    await packChain?.close();
    await world?.close();
    if (files) await rm(files, { recursive: true, force: true });
  });

  const text = () => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);
  const downloadHref = () =>
    page.$eval('a.download', (a) =>
      (a as unknown as { getAttribute(name: string): string }).getAttribute('href'),
    );
  /** The link as the browser holds it, fetched from this gateway (its base URL is the service's). */
  const fetchPack = async (href: string) => {
    const url = new URL(href);
    const response = await fetch(`${gw.url}${url.pathname}${url.search}`);
    expect(response.status).toBe(200);
    return {
      version: response.headers.get('x-pack-version'),
      bytes: new Uint8Array(await response.arrayBuffer()),
    };
  };
  /** Desktop and phone screenshots of the page as it is now. */
  const shots = async (name: string) => {
    await page.setViewport({ width: 1280, height: 900 });
    await page.screenshot({ path: `/tmp/order-page-${name}-desktop.png`, fullPage: true });
    await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await page.screenshot({ path: `/tmp/order-page-${name}-phone.png`, fullPage: true });
    await page.setViewport({ width: 1280, height: 900 });
  };

  it('shows a ready pack with the form to add records (no script on the page)', async () => {
    await page.goto(`${gw.url}${statusPath}`, { waitUntil: 'load' });
    const body = await text();
    expect(body).toContain('Your tax pack is ready');
    expect(body).toContain('Add your records and addresses');
    expect(await page.$$eval('script', (s) => s.length)).toBe(0);
    expect(await page.$eval('form.upload', (f) => (f as unknown as { enctype: string }).enctype)).toBe(
      'multipart/form-data',
    );
    firstHref = await downloadHref();
    const first = await fetchPack(firstHref);
    expect(first.version).toBe('1');
    v1 = first.bytes;
    await shots('ready');
  }, 60_000);

  it('refuses a file with a mistake on a page naming its line and reason; the pack is unchanged', async () => {
    const input = await page.$('input[name="records"]');
    await input!.uploadFile(join(files, BAD_NAME));
    const [response] = await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.click('form.upload button[type="submit"]'),
    ]);
    expect(response!.status()).toBe(422);
    const body = await text();
    expect(body).toContain('Your files were not added');
    expect(body).toMatch(new RegExp(`${BAD_NAME}, line 3, column asset: .*DOGE`));
    await shots('refused');
    expect(await gw.state.orders.listRevisions(orderId)).toEqual([]);
    expect((await world.store.list(`tax-packs/${orderId}.`)).length).toBe(1);
    const after = await fetchPack(firstHref);
    expect(after.version).toBe('1');
    expect(after.bytes).toEqual(v1);
    // The way back is the order page.
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('main a')]);
    expect(await text()).toContain('Your tax pack is ready');
  }, 60_000);

  it('takes a good file as version 2; after the fulfilment run the same link gives version 2', async () => {
    gw.clock.nowMs += HOUR; // a fresh hour of the tax limit (every request here comes from 127.0.0.1)
    await page.goto(`${gw.url}${statusPath}`, { waitUntil: 'load' });
    await (await page.$('input[name="records"]'))!.uploadFile(join(files, GOOD_NAME));
    await page.type('textarea[name="addresses"]', `address,label\n${world.demoColdkey.replace(/.$/, '')}`);
    // A typo in the address first: refused, nothing kept; then the address line is left out.
    const [refused] = await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.click('form.upload button[type="submit"]'),
    ]);
    expect(refused!.status()).toBe(422);
    expect(await text()).toMatch(/addresses \(typed in\), line 2/);
    expect(await gw.state.orders.listRevisions(orderId)).toEqual([]);

    await page.goto(`${gw.url}${statusPath}`, { waitUntil: 'load' });
    await (await page.$('input[name="records"]'))!.uploadFile(join(files, GOOD_NAME));
    const [accepted] = await Promise.all([
      page.waitForNavigation({ waitUntil: 'load' }),
      page.click('form.upload button[type="submit"]'),
    ]);
    // Back on the order page (303), which says version 2 is being built and refreshes itself.
    expect(accepted!.url()).toBe(`${gw.url}${statusPath}`);
    expect(accepted!.headers()['refresh']).toBe('10');
    const pending = await text();
    expect(pending).toContain('Version 2, with the records you added, is being built');
    expect(pending).toContain(GOOD_NAME);
    expect(await page.$('form.upload')).toBeNull();
    await shots('building');

    // The operator's job as cron runs it (`sbm-gateway orders fulfil`), with the real pack builder.
    const run = await runOrderCommand(config, now, 'orders', 'fulfil');
    expect(run.out).toContain(`built ${orderId} version 2`);
    expect(run.out).toContain('1 revision built, 0 rejected, 0 failed');

    await page.goto(`${gw.url}${statusPath}`, { waitUntil: 'load' });
    const ready = await text();
    expect(ready).toContain('Download the pack (ZIP), version 2');
    expect(ready).toMatch(new RegExp(`${GOOD_NAME}: 1 row\\s+SHA-256 [0-9a-f]{64}`));
    expect(await downloadHref()).toBe(firstHref);
    const second = await fetchPack(firstHref);
    expect(second.version).toBe('2');
    expect(second.bytes).not.toEqual(v1);
    const zip = await JSZip.loadAsync(second.bytes);
    expect(Object.keys(zip.files)).toEqual(Object.keys((await JSZip.loadAsync(v1)).files));
    await shots('version-2');
    // The refusals' 422s are the only failed loads (Chromium reports each in the console).
    expect(consoleErrors.filter((line) => !line.includes('status of 422'))).toEqual([]);
  }, 300_000);
});
