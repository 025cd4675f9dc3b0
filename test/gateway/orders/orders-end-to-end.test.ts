/**
 * Tax orders end to end (issue 15): checkout against the Stripe stand-in, the one 404, 409 before the
 * pack, the signed webhook (replays, forgeries, stale signatures, wrong amounts), the fulfilment command,
 * the download, delivery through the outbox and through a real SMTP server, the purge and the 410.
 * The gateway runs in-process on a real SQLite file with a clock the test moves; Stripe is the stand-in
 * over real HTTP, spoken to by the official client.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import JSZip from 'jszip';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayConfig, loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import type { OrderAlert } from '../../../gateway/orders/order-alerts.js';
import { orderServicesFrom } from '../../../gateway/orders/order-services.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { CommandExit } from '../../../pipeline/command-line.js';
import { StripeFake } from '../../../pipeline/devnet/stripe/stripe-fake.js';
import { pounds } from '../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { pdfToText } from '../../tax/products/pack/pdf-text.js';
import { readCsv } from '../../tax/products/pack/read-pack-csv.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import {
  ALICE,
  BOB,
  CHARLIE,
  NOW_MS,
  ORDER_SECRET,
  type OrderWorld,
  orderWorld,
  payThroughWebhook,
  signedEvent,
  WEBHOOK_SECRET,
} from './order-world.js';
import { runOrderCommand } from './run-order-command.js';

const BASE = 'https://sbm.example';
const DAY_MS = 86_400_000;
const tokens = orderTokens(ORDER_SECRET);

let world: OrderWorld;
/** The sandbox's demo coldkey: the order's first coldkey, with stakes, unstakes and moves in 2026/27. */
let DEMO: string;
let stateStore: TestStateStore;
let fake: StripeFake;
let gw: GatewayUnderTest;
let config: GatewayConfig;
const alerts: OrderAlert[] = [];
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

function env(extra: Record<string, string> = {}) {
  return {
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${world.storeDir}`,
    SBM_CHAIN_URL: world.chainUrl,
    SBM_BASE_URL: BASE,
    SBM_ORDER_SECRET: ORDER_SECRET,
    STRIPE_SECRET_KEY: 'sk_test_orders_e2e',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    SBM_OUTBOX_DIR: world.outboxDir,
    SBM_MAIL_FROM: 'Packs <packs@sbm.example>',
    ...extra,
  };
}

beforeAll(async () => {
  world = await orderWorld();
  DEMO = world.demoColdkey;
  stateStore = await STATE_ENGINES[0]!.start();
  fake = new StripeFake({ now: () => gw?.clock.nowMs ?? NOW_MS });
  await fake.listen();
  config = loadGatewayConfig(env());
  gw = await gatewayUnderTest({
    storeDir: world.storeDir,
    stateUrl: stateStore.url,
    nowMs: NOW_MS,
    baseUrl: BASE,
    orders: orderServicesFrom(config.orders, world.store, (alert) => alerts.push(alert)),
  });
}, 300_000);

afterAll(async () => {
  await gw?.close();
  await fake?.close();
  await stateStore?.stop();
  await world?.close();
});

const now = () => new Date(gw.clock.nowMs);

function checkout(body: unknown, ip = freshIp()): Promise<Response> {
  return gw.app.fetch(
    new Request(`${BASE}/tax/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    { ip },
  );
}

function webhook(body: string, signature: string | null): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['stripe-signature'] = signature;
  return gw.app.fetch(new Request(`${BASE}/tax/webhooks/stripe`, { method: 'POST', headers, body }), {
    ip: '203.0.113.200',
  });
}

async function snapshot(response: Response) {
  return {
    status: response.status,
    headers: [...response.headers.entries()].sort(),
    body: await response.text(),
  };
}

/** A paid Checkout Session as Stripe describes it in the event, for an order made by checkout. */
function paidSession(orderId: string, overrides: Record<string, unknown> = {}) {
  const stored = fake.sessions().find((s) => s.client_reference_id === orderId);
  return {
    ...stored,
    status: 'complete',
    payment_status: 'paid',
    customer_details: { email: 'buyer@example.com', name: null },
    ...overrides,
  };
}

async function newCheckout(coldkeys: string[], sku = 'uk-2026-27') {
  const response = await checkout({ sku, coldkeys });
  expect(response.status).toBe(201);
  return (await response.json()) as { order_id: string; checkout_url: string };
}

describe('tax orders end to end', () => {
  let orderId: string;
  let token: string;

  it('checkout makes a created order and one Checkout Session in payment mode at the SKU price', async () => {
    const calls = fake.calls.length;
    const response = await checkout({ sku: 'uk-2026-27', coldkeys: [` ${DEMO}\n`, BOB] });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-ratelimit-limit')).toBe('20');
    const body = (await response.json()) as { order_id: string; checkout_url: string };
    expect(Object.keys(body).sort()).toEqual(['checkout_url', 'order_id']);
    expect(body.order_id).toMatch(/^ord_[0-9a-f]{32}$/);
    orderId = body.order_id;
    token = tokens.tokenFor(orderId);

    const call = fake.calls.slice(calls);
    expect(call).toHaveLength(1);
    expect(call[0]).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      idempotencyKey: `sbm-checkout-${orderId}`,
      status: 200,
    });
    expect(call[0]!.params).toMatchObject({
      mode: 'payment',
      client_reference_id: orderId,
      metadata: { order_id: orderId, sku: 'uk-2026-27' },
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'gbp', unit_amount: '3900', product_data: { name: 'UK tax pack 2026/27' } },
        },
      ],
    });
    const successUrl = new URL(String(call[0]!.params['success_url']));
    expect(successUrl.pathname).toBe(`/tax/orders/${orderId}`);
    expect(successUrl.searchParams.get('ot')).toBe(token);
    expect(successUrl.searchParams.get('t')).toBe(token);
    const session = fake.sessions().find((s) => s.client_reference_id === orderId)!;
    expect(body.checkout_url).toBe(session.url);
    expect(session).toMatchObject({
      amount_total: 3900,
      currency: 'gbp',
      payment_status: 'unpaid',
      status: 'open',
    });

    const stored = await gw.state.orders.getOrder(orderId);
    expect(stored).toMatchObject({
      status: 'created',
      coldkeys: [DEMO, BOB],
      amountMinor: 3900,
      currency: 'gbp',
      stripeSessionId: session.id,
      origin: 'checkout',
      buyerEmail: null,
    });
  });

  it('answers an unknown id, a wrong token and a missing token with byte-identical 404s', async () => {
    const unknown = `ord_${randomBytes(16).toString('hex')}`;
    const probes = {
      unknown: `/tax/orders/${unknown}?t=${tokens.tokenFor(unknown)}`,
      wrongToken: `/tax/orders/${orderId}?t=${tokens.tokenFor(unknown)}`,
      missingToken: `/tax/orders/${orderId}`,
      emptyToken: `/tax/orders/${orderId}?t=`,
      twoTokens: `/tax/orders/${orderId}?t=${token}&t=${token}`,
      upperCaseToken: `/tax/orders/${orderId}?t=${token.toUpperCase()}`,
      unknownPack: `/tax/orders/${unknown}/pack?t=${tokens.tokenFor(unknown)}`,
      wrongTokenPack: `/tax/orders/${orderId}/pack?t=${'0'.repeat(64)}`,
      missingTokenPack: `/tax/orders/${orderId}/pack`,
    };
    // Each from a fresh address: the limit headers then say the same (19 left), as they would for
    // any first request; they depend on the caller's count, never on the order.
    const answers = new Map<string, Awaited<ReturnType<typeof snapshot>>>();
    for (const [name, path] of Object.entries(probes))
      answers.set(name, await snapshot(await gw.get(path, {}, freshIp())));
    const reference = answers.get('unknown')!;
    expect(reference.status).toBe(404);
    expect(JSON.parse(reference.body)).toEqual({ detail: 'Unknown order, or wrong or missing token.' });
    for (const [name, answer] of answers) expect({ name, ...answer }).toEqual({ name, ...reference });
  });

  it('shows the created order to its token, with nothing that has not happened, and 409 for the pack', async () => {
    const response = await gw.get(`/tax/orders/${orderId}?t=${token}`, {}, freshIp());
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(await response.json()).toEqual({
      id: orderId,
      status: 'created',
      pack: { sku: 'uk-2026-27', name: 'UK tax pack 2026/27', kind: 'uk-tax-year' },
      coldkeys: [DEMO, BOB],
      created_at: new Date(NOW_MS).toISOString(),
      retention_days: 30,
    });
    const pack = await gw.get(`/tax/orders/${orderId}/pack?t=${token}`, {}, freshIp());
    expect(pack.status).toBe(409);
    expect(await pack.json()).toEqual({ detail: 'The order has no pack yet: it is not paid.' });
  });

  it('refuses forged, missing and stale signatures with 400 and changes nothing', async () => {
    const forged = signedEvent(paidSession(orderId), { secret: 'whsec_not_ours' });
    const stale = signedEvent(paidSession(orderId), { timestampMs: NOW_MS - 301_000 });
    const good = signedEvent(paidSession(orderId));
    const answers = [
      await webhook(forged.body, forged.signature),
      await webhook(good.body, null),
      await webhook(stale.body, stale.signature),
      await webhook(`${good.body} `, good.signature),
      await webhook(good.body, 't=123,v1=deadbeef'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(/Stripe-Signature/);
    }
    expect((await gw.state.orders.getOrder(orderId))?.status).toBe('created');
  });

  it('refuses a payment of the wrong amount or currency with an alert, leaving the order created', async () => {
    for (const overrides of [{ amount_total: 100 }, { currency: 'usd' }]) {
      const event = signedEvent(paidSession(orderId, overrides));
      const answer = await webhook(event.body, event.signature);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: true });
    }
    expect((await gw.state.orders.getOrder(orderId))?.status).toBe('created');
    const mismatches = alerts.filter((a) => a.event === 'payment-amount-mismatch');
    expect(mismatches).toHaveLength(2);
    expect(mismatches[0]).toMatchObject({ level: 'alert', order_id: orderId, amount_total: 100 });
    expect(JSON.stringify(alerts)).not.toContain('buyer@example.com');
  });

  it('ignores other events, unpaid completions and unknown orders with 200', async () => {
    const expired = signedEvent(paidSession(orderId), { type: 'checkout.session.expired' });
    const unpaid = signedEvent(paidSession(orderId, { payment_status: 'unpaid' }));
    const unknown = signedEvent(
      paidSession(orderId, { metadata: { order_id: 'ord_nobody' }, client_reference_id: 'ord_nobody' }),
    );
    for (const event of [expired, unpaid, unknown]) {
      const answer = await webhook(event.body, event.signature);
      expect(answer.status).toBe(200);
    }
    expect((await gw.state.orders.getOrder(orderId))?.status).toBe('created');
    expect(alerts.some((a) => a.event === 'payment-for-unknown-order' && a.order_id === 'ord_nobody')).toBe(
      true,
    );
  });

  it('moves the order to paid on a signed checkout.session.completed, once: a replay changes nothing', async () => {
    gw.clock.nowMs = NOW_MS + 120_000;
    const event = signedEvent(paidSession(orderId), { timestampMs: gw.clock.nowMs });
    const answer = await webhook(event.body, event.signature);
    expect(answer.status).toBe(200);
    const paid = await gw.state.orders.getOrder(orderId);
    expect(paid).toMatchObject({
      status: 'paid',
      paidAt: new Date(NOW_MS + 120_000),
      buyerEmail: 'buyer@example.com',
    });
    gw.clock.nowMs = NOW_MS + 180_000;
    const replay = await webhook(event.body, event.signature);
    expect(replay.status).toBe(200);
    expect(await gw.state.orders.getOrder(orderId)).toEqual(paid);
    // The webhook is not under the tax limit: 25 deliveries from one address all answer 200.
    for (let i = 0; i < 25; i++) expect((await webhook(event.body, event.signature)).status).toBe(200);

    const status = await gw.get(`/tax/orders/${orderId}?t=${token}`, {}, freshIp());
    expect(await status.json()).toMatchObject({
      status: 'paid',
      paid_at: new Date(NOW_MS + 120_000).toISOString(),
    });
    const pack = await gw.get(`/tax/orders/${orderId}/pack?t=${token}`, {}, freshIp());
    expect(pack.status).toBe(409);
    expect(((await pack.json()) as { detail: string }).detail).toMatch(/paid and the pack is being prepared/);
  });

  it('fulfils: the pack is stored, the order fulfilled with its link and expiry, the email in the outbox', async () => {
    gw.clock.nowMs = NOW_MS + 600_000;
    const run = await runOrderCommand(config, now, 'orders', 'fulfil');
    expect(run.out).toContain(`fulfilled ${orderId}`);
    expect(run.out).toContain(`emailed ${orderId}`);
    const fulfilledAt = new Date(NOW_MS + 600_000);
    const expiresAt = new Date(fulfilledAt.getTime() + 30 * DAY_MS);
    const status = await gw.get(`/tax/orders/${orderId}?t=${token}`, {}, freshIp());
    expect(await status.json()).toEqual({
      id: orderId,
      status: 'fulfilled',
      pack: { sku: 'uk-2026-27', name: 'UK tax pack 2026/27', kind: 'uk-tax-year' },
      coldkeys: [DEMO, BOB],
      created_at: new Date(NOW_MS).toISOString(),
      paid_at: new Date(NOW_MS + 120_000).toISOString(),
      fulfilled_at: fulfilledAt.toISOString(),
      pack_url: `${BASE}/tax/orders/${orderId}/pack?t=${token}`,
      pack_expires_at: expiresAt.toISOString(),
      retention_days: 30,
      // Issue 36 (additive): the version the link serves, where the buyer adds records, their uploads.
      pack_version: 1,
      records_url: `${BASE}/tax/orders/${orderId}/records?t=${token}`,
      revisions: [],
    });

    const eml = await readFile(join(world.outboxDir, `${orderId}.eml`), 'utf8');
    expect(eml).toMatch(/^To: buyer@example\.com$/m);
    expect(eml).toMatch(/^From: Packs <packs@sbm\.example>$/m);
    expect(eml).toContain(orderId);
    const text = eml.replace(/=\r?\n/g, '');
    // Quoted-printable: `=` is written `=3D`.
    expect(text).toContain(`${BASE}/tax/orders/${orderId}/pack?t=3D${token}`);
    expect(text).toContain(expiresAt.toISOString().slice(0, 10));
    expect(text).toContain('not tax advice');
    // A second run finds nothing to do and sends nothing again.
    const again = await runOrderCommand(config, now, 'orders', 'fulfil');
    expect(again.out).toContain('0 fulfilled, 0 failed, 0 emailed');
  });

  it('downloads the pack: a zip of a PDF and CSVs with the figures, private and not cached', async () => {
    const response = await gw.get(`/tax/orders/${orderId}/pack?t=${token}`, {}, freshIp());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="sbm-tax-pack-${orderId}.zip"`,
    );
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const zip = await JSZip.loadAsync(await response.arrayBuffer());
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
    const text = async (name: string) => zip.file(name)!.async('string');
    const income = readCsv(await text('income.csv'));
    const disposals = readCsv(await text('disposals.csv'));
    expect(income.length).toBeGreaterThan(0);
    expect(disposals.length).toBeGreaterThan(0);
    // The record follows the demo coldkey through its coldkey swap (events.csv names it): the income is the
    // demo's and its successor's, no one else's.
    const swapped = readCsv(await text('events.csv'))
      .filter((row) => row['kind'] === 'ColdkeySwapped')
      .map((row) => row['counterpart_coldkey']!);
    const owners = new Set(income.map((row) => row['coldkey']));
    expect(owners).toContain(DEMO);
    expect([...owners].every((coldkey) => coldkey === DEMO || swapped.includes(coldkey!))).toBe(true);
    expect((await text('cgt-input.csv')).split('\r\n')[0]).toBe(
      'datetime,asset,action,quantity,gbp,fee_gbp,kind,counterparty',
    );
    for (const name of ['events.csv', 'pools.csv', 'positions.csv'])
      expect(readCsv(await text(name)).length).toBeGreaterThan(0);
    expect(await text('README.txt')).toContain('income.csv');

    // The PDF's text, as pdftotext extracts it, holds the income total and the SA108 figures of the CSVs.
    const pdfText = pdfToText(await zip.file('summary.pdf')!.async('uint8array'), world.dir);
    const sum = (values: string[]) => values.reduce((total, v) => total.add(v), new Decimal(0));
    // The income total is what was received: negative days are shown beside it, never deducted.
    const received = income.filter((row) => !row['gbp']!.startsWith('-')).map((row) => row['gbp']!);
    expect(pdfText).toContain(`£${pounds(sum(received))}`);
    const year = new Map<string, Record<string, string>>();
    for (const row of disposals)
      if (row['tax_year'] === '2026/27') year.set(`${row['date']}|${row['asset']}`, row);
    const gains = [...year.values()].map((row) => new Decimal(row['gain_gbp']!));
    const sa108 = {
      disposals: String(year.size),
      proceeds: pounds(sum([...year.values()].map((row) => row['proceeds_gbp']!))),
      costs: pounds(sum([...year.values()].map((row) => row['cost_gbp']!))),
      gains: pounds(gains.filter((g) => g.gt(0)).reduce((a, g) => a.add(g), new Decimal(0))),
      losses: pounds(gains.filter((g) => g.lt(0)).reduce((a, g) => a.sub(g), new Decimal(0))),
    };
    expect(pdfText).toMatch(new RegExp(`Number of disposals\\s+${sa108.disposals}\\b`));
    expect(pdfText).toMatch(new RegExp(`Disposal proceeds\\s+£${sa108.proceeds.replace(/[.,]/g, '\\$&')}`));
    expect(pdfText).toMatch(new RegExp(`Allowable costs[^\\n]*\\s+£${sa108.costs.replace(/[.,]/g, '\\$&')}`));
    expect(pdfText).toMatch(
      new RegExp(`Gains in the year, before losses\\s+£${sa108.gains.replace(/[.,]/g, '\\$&')}`),
    );
    expect(pdfText).toMatch(new RegExp(`Losses in the year\\s+£${sa108.losses.replace(/[.,]/g, '\\$&')}`));
    expect(pdfText).toContain('not tax advice');
    for (const coldkey of [DEMO, BOB]) expect(pdfText).toContain(`Coldkey ${coldkey}`);
  });

  it('delivers through SMTP when SBM_SMTP_URL is set', async () => {
    const received: { to: string[]; data: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as { port: number }).port;
    try {
      const second = await newCheckout(
        [CHARLIE],
        'uk-2026-27' /* a tax year the sandbox has collected: its pack can be built */,
      );
      const event = signedEvent(
        paidSession(second.order_id, { customer_details: { email: 'second@example.com', name: null } }),
        { timestampMs: gw.clock.nowMs },
      );
      expect((await webhook(event.body, event.signature)).status).toBe(200);
      const smtpConfig = loadGatewayConfig(env({ SBM_SMTP_URL: `smtp://127.0.0.1:${port}` }));
      const run = await runOrderCommand(smtpConfig, now, 'orders', 'fulfil');
      expect(run.out).toContain(`emailed ${second.order_id}`);
      expect(received).toHaveLength(1);
      expect(received[0]!.to).toEqual(['second@example.com']);
      const text = received[0]!.data.replace(/=\r?\n/g, '');
      expect(text).toContain(`/tax/orders/${second.order_id}/pack?t=3D${tokens.tokenFor(second.order_id)}`);
      expect(text).toContain('not tax advice');
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('answers 410 from the expiry on even before the purge has run', async () => {
    const [second] = (await gw.state.orders.listOrders({ status: 'fulfilled' })).filter(
      (o) => o.purgedAt === null,
    );
    const t = tokens.tokenFor(second!.id);
    gw.clock.nowMs = second!.packExpiresAt!.getTime() - 1;
    expect((await gw.get(`/tax/orders/${second!.id}/pack?t=${t}`, {}, freshIp())).status).toBe(200);
    gw.clock.nowMs = second!.packExpiresAt!.getTime();
    expect((await gw.get(`/tax/orders/${second!.id}/pack?t=${t}`, {}, freshIp())).status).toBe(410);
    expect(await world.store.list('tax-packs/')).toContain(`tax-packs/${second!.id}.zip`);
    gw.clock.nowMs = NOW_MS + 600_000;
  });
  it('purges packs 31 days on: 410 for the pack, the order still answers, the email is erased; idempotent', async () => {
    const later = new Date(NOW_MS + 600_000 + 31 * DAY_MS);
    const purge = await runOrderCommand(
      config,
      now,
      'orders',
      'purge',
      '--as-of',
      later.toISOString(),
      '--json',
    );
    const purged = (JSON.parse(purge.out) as { purged: string[] }).purged;
    expect(purged).toContain(orderId);
    // The clock has not moved: the 410 comes from the purge itself.
    const pack = await gw.get(`/tax/orders/${orderId}/pack?t=${token}`, {}, freshIp());
    expect(pack.status).toBe(410);
    expect(((await pack.json()) as { detail: string }).detail).toMatch(/kept 30 days after fulfilment/);
    const status = await gw.get(`/tax/orders/${orderId}?t=${token}`, {}, freshIp());
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ id: orderId, status: 'fulfilled' });
    const stored = await gw.state.orders.getOrder(orderId);
    expect(stored).toMatchObject({ buyerEmail: null, purgedAt: later });
    expect(await world.store.list('tax-packs/')).not.toContain(`tax-packs/${orderId}.zip`);
    const again = await runOrderCommand(
      config,
      now,
      'orders',
      'purge',
      '--as-of',
      later.toISOString(),
      '--json',
    );
    expect((JSON.parse(again.out) as { purged: string[] }).purged).toEqual([]);
  });
});

describe('checkout edges', () => {
  it('refuses with 409 a tax year the record does not cover from 6 April, naming the first missing day', async () => {
    // The world's record runs from 5 April 2026 to yesterday (27 April): 2026/27 so far is covered; the
    // earlier years have no day of it, and a record that starts after 6 April would not do either.
    const ordersBefore = (await gw.state.orders.listOrders()).length;
    const sessionsBefore = fake.sessions().length;
    for (const [sku, firstDay] of [
      ['uk-2024-25', '2024-04-06'],
      ['uk-2025-26', '2025-04-06'],
    ] as const) {
      const response = await checkout({ sku, coldkeys: [ALICE] });
      expect(response.status).toBe(409);
      const { detail } = (await response.json()) as { detail: string };
      expect(detail).toContain(`lacks UK day ${firstDay}`);
      expect(detail).toContain('the record covers UK days 2026-04-05 to 2026-04-27');
    }
    expect((await gw.state.orders.listOrders()).length).toBe(ordersBefore);
    expect(fake.sessions().length).toBe(sessionsBefore);
    expect((await checkout({ sku: 'uk-2026-27', coldkeys: [ALICE] })).status).toBe(201);
  });
  it('offers in skus list only the years covered, and orders create refuses the others with one line', async () => {
    const listed = await runOrderCommand(config, now, 'skus', 'list', '--json');
    expect((JSON.parse(listed.out) as { sku: string }[]).map((s) => s.sku)).toEqual(['uk-2026-27']);
    const text = (await runOrderCommand(config, now, 'skus', 'list')).out;
    expect(text).toContain('uk-2026-27  UK tax pack 2026/27');
    expect(text).toContain('not on sale: uk-2025-26 (the record lacks UK day 2025-04-06)');
    const ordersBefore = (await gw.state.orders.listOrders()).length;
    await expect(
      runOrderCommand(config, now, 'orders', 'create', '--coldkey', ALICE, '--sku', 'uk-2025-26'),
    ).rejects.toThrow(/^The 2025\/26 pack cannot be made: the chain record lacks UK day 2025-04-06/);
    expect((await gw.state.orders.listOrders()).length).toBe(ordersBefore);
  });
  it('stops selling the year under way when the record falls behind: the first day not collected is named', async () => {
    // Two days on, the record still ends on 27 April: 28 April is missing.
    const saved = gw.clock.nowMs;
    gw.clock.nowMs = Date.parse('2026-04-30T12:00:00Z');
    try {
      const response = await checkout({ sku: 'uk-2026-27', coldkeys: [ALICE] });
      expect(response.status).toBe(409);
      expect(((await response.json()) as { detail: string }).detail).toContain(
        'lacks UK day 2026-04-28 of tax year 2026/27',
      );
    } finally {
      gw.clock.nowMs = saved;
    }
  });
  it('refuses bad requests with 400 and a message that says what to change', async () => {
    const cases: [unknown, RegExp][] = [
      ['{not json', /must be JSON/],
      [[ALICE], /JSON object/],
      [{ sku: 'uk-2026-27' }, /coldkeys is required/],
      [{ sku: 'uk-2026-27', coldkeys: [] }, /coldkeys is required/],
      [
        { sku: 'uk-1999-00', coldkeys: [ALICE] },
        /not on sale; choose one of uk-2024-25, uk-2025-26, uk-2026-27/,
      ],
      [{ coldkeys: [ALICE] }, /sku is required/],
      [{ sku: 'uk-2026-27', coldkeys: [ALICE, BOB, CHARLIE, ALICE.slice(0, 47), BOB, CHARLIE] }, /at most 5/],
      [{ sku: 'uk-2026-27', coldkeys: [ALICE, ` ${ALICE}`] }, /coldkeys\[1\] repeats coldkeys\[0\]/],
      [{ sku: 'uk-2026-27', coldkeys: [ALICE, 'OxZ'] }, /coldkeys\[1\]: coldkey character 1 is "O"/],
      [{ sku: 'uk-2026-27', coldkeys: [ALICE, 42] }, /coldkeys\[1\] must be a string/],
    ];
    const before = (await gw.state.orders.listOrders()).length;
    for (const [body, message] of cases) {
      const response = await checkout(body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(message);
    }
    const phrase = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';
    const secret = await checkout({ sku: 'uk-2026-27', coldkeys: [phrase] });
    const detail = ((await secret.json()) as { detail: string }).detail;
    expect(detail).toMatch(/looks like a secret/);
    expect(detail).not.toContain('obey');
    expect((await gw.state.orders.listOrders()).length).toBe(before);
  });

  it('makes one session when the answer to the first request is lost and the client retries', async () => {
    const calls = fake.calls.length;
    const sessions = fake.sessions().length;
    fake.dropNextResponses(1);
    const created = await newCheckout([BOB]);
    const made = fake.calls.slice(calls);
    expect(made).toHaveLength(2);
    expect(made.map((c) => c.idempotencyKey)).toEqual([
      `sbm-checkout-${created.order_id}`,
      `sbm-checkout-${created.order_id}`,
    ]);
    expect(made.map((c) => c.replayed)).toEqual([false, true]);
    expect(fake.sessions().length).toBe(sessions + 1);
  });

  it('answers 503 when Stripe cannot be reached; the order stays created', async () => {
    const closed = new StripeFake();
    const url = await closed.listen();
    await closed.close();
    const offline = loadGatewayConfig(env({ STRIPE_API_BASE: url }));
    const offlineGw = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: stateStore.url,
      nowMs: NOW_MS,
      baseUrl: BASE,
      orders: orderServicesFrom(offline.orders, world.store, () => {}),
    });
    try {
      const before = new Set((await offlineGw.state.orders.listOrders()).map((o) => o.id));
      const response = await offlineGw.app.fetch(
        new Request(`${BASE}/tax/checkout`, {
          method: 'POST',
          body: JSON.stringify({ sku: 'uk-2026-27', coldkeys: [ALICE] }),
        }),
        { ip: freshIp() },
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('60');
      const added = (await offlineGw.state.orders.listOrders()).filter((o) => !before.has(o.id));
      expect(added.map((o) => [o.status, o.stripeSessionId])).toEqual([['created', null]]);
      expect(String(offlineGw.errors[0])).toMatch(/PaymentUnavailableError/);
    } finally {
      await offlineGw.close();
    }
  }, 30_000);

  it('turns tax orders off cleanly without SBM_ORDER_SECRET: order links 404, checkout 503', async () => {
    const off = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: stateStore.url,
      nowMs: NOW_MS,
      baseUrl: BASE,
      orders: orderServicesFrom(
        loadGatewayConfig(env({ SBM_ORDER_SECRET: '' })).orders,
        world.store,
        () => {},
      ),
    });
    try {
      const [any] = await off.state.orders.listOrders();
      const status = await off.get(`/tax/orders/${any!.id}?t=${tokens.tokenFor(any!.id)}`, {}, freshIp());
      expect(status.status).toBe(404);
      const response = await off.app.fetch(
        new Request(`${BASE}/tax/checkout`, {
          method: 'POST',
          body: JSON.stringify({ sku: 'uk-2026-27', coldkeys: [ALICE] }),
        }),
        { ip: freshIp() },
      );
      expect(response.status).toBe(503);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/SBM_ORDER_SECRET/);
    } finally {
      await off.close();
    }
  });

  it('refuses an SBM_ORDER_SECRET that is not 64 hex digits at start-up', () => {
    expect(() => loadGatewayConfig(env({ SBM_ORDER_SECRET: 'abc' }))).toThrow(/64 hex digits/);
    expect(() => loadGatewayConfig(env({ SBM_SKU_PRICES: 'uk-2025-26:10' }))).toThrow(/at least 30 pence/);
    expect(() => loadGatewayConfig(env({ SBM_SKU_PRICES: 'uk-2030-31:3900' }))).toThrow(/known SKU/);
    expect(loadGatewayConfig(env({ SBM_SKU_PRICES: 'uk-2025-26:4900' })).orders.skuPrices).toEqual({
      'uk-2025-26': 4900,
    });
  });
});

// Last in the file: it leaves a paid order whose pack cannot be built, which every later pass would retry.
describe('orders fulfil and a failed build', () => {
  it('exits non-zero when a pack failed, after reporting it, so cron and monitoring see it', async () => {
    // An order made before coverage decided what is sold (or by a year the record stopped covering):
    // paid, for a year with no collected day.
    const stale = await createOrder(
      { state: gw.state, now },
      checkOrderRequest(catalogueWithPrices(config.orders.skuPrices), 'uk-2024-25', [ALICE]),
      'support',
    );
    await payThroughWebhook(gw.state, stale.id, now());
    const failed = runOrderCommand(config, now, 'orders', 'fulfil');
    await expect(failed).rejects.toBeInstanceOf(CommandExit);
    await expect(failed).rejects.toMatchObject({ code: 1 });
    const order = await gw.state.orders.getOrder(stale.id);
    expect(order).toMatchObject({ status: 'paid', fulfilAttempts: 1 });
    expect(order?.lastError).toMatch(/2024\/25/);
  }, 60_000);
});
