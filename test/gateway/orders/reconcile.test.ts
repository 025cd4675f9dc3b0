/**
 * `orders reconcile` against the Stripe stand-in, on both state engines: a payment whose webhook never
 * came is recorded and its pack built; an order missing from the state is made again with its own id
 * from its session's sealed metadata, and the buyer's link works; a tampered seal is refused and
 * reported; a second run, two runs at once and a late webhook change nothing; the API plan's
 * subscription paid on Stripe while its webhook was lost gives the account its paid period. The
 * gateway runs in-process with a clock the test moves; Stripe is the stand-in over real HTTP.
 */

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeAddress } from '@polkadot/util-crypto';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingStripeClient, startSubscriptionCheckout } from '../../../gateway/account/stripe-billing.js';
import { ordersCommand } from '../../../gateway/commands/orders.js';
import { type GatewayConfig, loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { startCheckout } from '../../../gateway/orders/checkout.js';
import { checkOrderRequest, createOrder, OrderRequestError } from '../../../gateway/orders/create-order.js';
import type { OrderAlert } from '../../../gateway/orders/order-alerts.js';
import {
  orderSeal,
  STRIPE_METADATA_MAX_KEYS,
  STRIPE_METADATA_MAX_VALUE,
} from '../../../gateway/orders/order-seal.js';
import { orderServicesFrom } from '../../../gateway/orders/order-services.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { CommandExit } from '../../../pipeline/command-line.js';
import { DEFAULT_SKUS, MAX_COLDKEYS_PER_PACK } from '../../../pipeline/contract/sku.js';
import { StripeFake } from '../../../pipeline/devnet/stripe/stripe-fake.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import {
  ALICE,
  BOB,
  NOW_MS,
  ORDER_SECRET,
  type OrderWorld,
  orderWorld,
  signedEvent,
  WEBHOOK_SECRET,
  WORLD_SKU,
} from './order-world.js';
import { runOrderCommand } from './run-order-command.js';
import { deleteOrderRow } from './state-surgery.js';

const BASE = 'https://sbm.example';
const tokens = orderTokens(ORDER_SECRET);
let world: OrderWorld;

beforeAll(async () => {
  world = await orderWorld();
}, 300_000);

afterAll(async () => {
  await world?.close();
});

describe('an order’s sealed metadata', () => {
  const seal = orderSeal(ORDER_SECRET);
  const id = `ord_${'ab'.repeat(16)}`;
  const most = Array.from({ length: MAX_COLDKEYS_PER_PACK }, () => encodeAddress(randomBytes(32), 42));

  it('fits Stripe’s metadata limits for the most coldkeys an order allows, and opens to the same order', () => {
    for (const sku of DEFAULT_SKUS) {
      const order = {
        sku: sku.sku,
        taxYear: sku.tax_year,
        coldkeys: most,
        amountMinor: 99_999_999,
        currency: 'gbp',
        createdAt: new Date(NOW_MS),
      };
      const metadata = seal.seal(id, order);
      const all = { order_id: id, sku: sku.sku, ...metadata };
      expect(Object.keys(all).length).toBeLessThanOrEqual(STRIPE_METADATA_MAX_KEYS);
      for (const [key, value] of Object.entries(all)) {
        expect(key.length).toBeLessThanOrEqual(40);
        expect(value.length).toBeLessThanOrEqual(STRIPE_METADATA_MAX_VALUE);
      }
      // Stripe sees no coldkey, nor any part of one long enough to find it.
      for (const coldkey of most) expect(JSON.stringify(all)).not.toContain(coldkey.slice(0, 12));
      expect(seal.open(id, all)).toEqual(order);
      // Bound to the order id: the same sealed value under another order does not open.
      expect(() => seal.open(`ord_${'cd'.repeat(16)}`, all)).toThrow(/does not verify/);
      // Under another secret it does not open either.
      expect(() => orderSeal('b2'.repeat(32)).open(id, all)).toThrow(/does not verify/);
    }
  });
});

describe.each(STATE_ENGINES)('orders reconcile on $name', (engine) => {
  let stateStore: TestStateStore;
  let fake: StripeFake;
  let gw: GatewayUnderTest;
  let config: GatewayConfig;
  let planPrice: string;
  const alerts: OrderAlert[] = [];
  let ip = 0;
  const now = () => new Date(gw.clock.nowMs);

  beforeAll(async () => {
    stateStore = await engine.start();
    const clock = { nowMs: NOW_MS };
    fake = new StripeFake({ now: () => clock.nowMs });
    await fake.listen();
    planPrice = fake.createPrice({
      unitAmount: 9900,
      currency: 'usd',
      interval: 'month',
      name: 'API plan',
    }).id;
    config = loadGatewayConfig({
      SBM_STATE_URL: stateStore.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_CHAIN_URL: world.chainUrl,
      SBM_BASE_URL: BASE,
      SBM_ORDER_SECRET: ORDER_SECRET,
      STRIPE_SECRET_KEY: 'sk_test_reconcile',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      SBM_OUTBOX_DIR: world.outboxDir,
      SBM_API_PLAN_PRICE: planPrice,
    });
    gw = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: stateStore.url,
      nowMs: NOW_MS,
      clock,
      baseUrl: BASE,
      orders: orderServicesFrom(config.orders, world.store, (alert) => alerts.push(alert)),
    });
  }, 300_000);

  afterAll(async () => {
    await gw?.close();
    await fake?.close();
    await stateStore?.stop();
  });

  async function checkout(coldkeys: string[]): Promise<{ orderId: string; sessionId: string }> {
    const response = await gw.app.fetch(
      new Request(`${BASE}/tax/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sku: WORLD_SKU, coldkeys }),
      }),
      { ip: `198.51.100.${++ip}` },
    );
    expect(response.status).toBe(201);
    const { order_id } = (await response.json()) as { order_id: string };
    const session = fake.sessions().find((s) => s.client_reference_id === order_id)!;
    return { orderId: order_id, sessionId: session.id };
  }

  const reconcile = (...args: string[]) => runOrderCommand(config, now, 'orders', 'reconcile', ...args);
  const reconcileJson = async () =>
    JSON.parse((await reconcile('--json')).out) as {
      sessions: { order_id: string; action: string; detail?: string }[];
      subscriptions: { subscription: string; account_id: string; actions: string[] }[];
    };
  /** The command as cron runs it: its output, alerts and exit code (1: something needs an operator). */
  const reconcileCapturing = async () => {
    const lines: string[] = [];
    const captured: OrderAlert[] = [];
    const program = new Command('sbm-gateway').exitOverride().addCommand(
      ordersCommand(config, {
        out: (text) => lines.push(text),
        now,
        alert: (alert) => captured.push(alert),
        stopped: () => new Promise(() => {}),
      }),
    );
    let exit = 0;
    try {
      await program.parseAsync(['orders', 'reconcile'], { from: 'user' });
    } catch (error) {
      if (!(error instanceof CommandExit)) throw error;
      exit = error.code;
    }
    return { out: lines.join('\n'), alerts: captured, exit };
  };
  const packStatus = async (orderId: string) =>
    (await gw.get(`/tax/orders/${orderId}/pack?t=${tokens.tokenFor(orderId)}`, {}, `192.0.2.${++ip % 250}`))
      .status;

  it('records a payment whose webhook never came, once, and the pack is built and emailed once', async () => {
    const { orderId, sessionId } = await checkout([ALICE]);
    // The buyer pays on Stripe's page; the webhook is never delivered.
    fake.completeSession(sessionId, 'late.buyer@example.com');
    expect((await gw.state.orders.getOrder(orderId))?.status).toBe('created');

    const first = await reconcile();
    expect(first.out).toContain(`paid ${orderId} (session ${sessionId})`);
    expect(first.out).toMatch(/1 paid now, 0 made again and paid, 0 already paid/);
    const paid = await gw.state.orders.getOrder(orderId);
    expect(paid).toMatchObject({
      status: 'paid',
      buyerEmail: 'late.buyer@example.com',
      stripeSessionId: sessionId,
    });
    expect((await gw.state.orders.orderHistory(orderId)).payments).toEqual([
      expect.objectContaining({ eventId: `reconcile:${sessionId}`, outcome: 'paid' }),
    ]);

    // Again, twice at once, and the webhook arriving late: nothing changes.
    gw.clock.nowMs += 60_000;
    const again = await Promise.all([reconcileJson(), reconcileJson()]);
    for (const run of again) {
      expect(run.sessions.find((s) => s.order_id === orderId)?.action).toBe('already-paid');
    }
    const late = signedEvent(fake.session(sessionId) as unknown as Record<string, unknown>, {
      timestampMs: gw.clock.nowMs,
    });
    const answer = await gw.app.fetch(
      new Request(`${BASE}/tax/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': late.signature },
        body: late.body,
      }),
      { ip: '203.0.113.200' },
    );
    expect(answer.status).toBe(200);
    expect(await gw.state.orders.getOrder(orderId)).toEqual(paid);

    const fulfil = await runOrderCommand(config, now, 'orders', 'fulfil');
    expect(fulfil.out).toContain(`fulfilled ${orderId}`);
    expect(fulfil.out).toContain(`emailed ${orderId}`);
    const second = await runOrderCommand(config, now, 'orders', 'fulfil');
    expect(second.out).not.toContain(orderId);
    expect((await gw.state.orders.getOrder(orderId))?.status).toBe('fulfilled');
    expect(await packStatus(orderId)).toBe(200);
  }, 300_000);

  it('makes again an order the state lacks, with its id, so the buyer’s link works', async () => {
    const { orderId, sessionId } = await checkout([BOB, ALICE]);
    const before = await gw.state.orders.getOrder(orderId);
    fake.completeSession(sessionId, 'restored.buyer@example.com');
    // Stripe stored the order without its coldkeys.
    const sent = fake.calls.filter((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions');
    for (const coldkey of [ALICE, BOB]) {
      expect(JSON.stringify(sent)).not.toContain(coldkey);
      expect(JSON.stringify(fake.session(sessionId))).not.toContain(coldkey);
    }
    await deleteOrderRow(stateStore.url, orderId);
    expect(await gw.state.orders.getOrder(orderId)).toBeNull();

    // Two runs at once: the order is made once and paid once.
    const runs = await Promise.all([reconcileJson(), reconcileJson()]);
    const actions = runs.map((run) => run.sessions.find((s) => s.order_id === orderId)?.action).sort();
    expect(actions).toEqual(['already-paid', 'remade-and-paid']);
    const remade = await gw.state.orders.getOrder(orderId);
    expect(remade).toMatchObject({
      id: orderId,
      status: 'paid',
      sku: before!.sku,
      taxYear: before!.taxYear,
      coldkeys: [BOB, ALICE],
      amountMinor: before!.amountMinor,
      currency: before!.currency,
      createdAt: before!.createdAt,
      buyerEmail: 'restored.buyer@example.com',
      stripeSessionId: sessionId,
    });
    expect((await gw.state.orders.orderHistory(orderId)).payments).toHaveLength(1);
    expect((await reconcile()).out).toMatch(/0 paid now, 0 made again and paid/);

    const fulfil = await runOrderCommand(config, now, 'orders', 'fulfil');
    expect(fulfil.out).toContain(`fulfilled ${orderId}`);
    expect(await packStatus(orderId)).toBe(200);
    // Nothing personal in what the operator reads.
    const printed = JSON.stringify([fulfil, alerts]);
    for (const secret of [ALICE, BOB, 'restored.buyer@example.com', tokens.tokenFor(orderId)]) {
      expect(printed).not.toContain(secret);
    }
  }, 300_000);

  it('keeps a remade order’s payment time (Stripe’s), and gives its pack 30 days from the rebuild', async () => {
    // Paid 20 days ago on Stripe; the state was restored from a backup older than the order.
    const request = checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [ALICE]);
    const services = orderServicesFrom(config.orders, world.store, () => {});
    const realNow = gw.clock.nowMs;
    const paidMs = realNow - 20 * 86_400_000;
    gw.clock.nowMs = paidMs - 5 * 60_000;
    const order = await createOrder({ state: gw.state, now }, request, 'checkout');
    const made = await services.checkoutSessions!.create(
      order,
      request.sku,
      `${BASE}/done`,
      services.seal!.seal(order.id, {
        ...request.sku,
        taxYear: request.sku.tax_year,
        coldkeys: [ALICE],
        amountMinor: order.amountMinor,
        createdAt: order.createdAt,
      }),
    );
    gw.clock.nowMs = paidMs;
    fake.completeSession(made.sessionId, 'paid.before.restore@example.com');
    gw.clock.nowMs = realNow;
    await deleteOrderRow(stateStore.url, order.id);

    const run = await reconcileJson();
    expect(run.sessions.find((s) => s.order_id === order.id)?.action).toBe('remade-and-paid');
    const remade = await gw.state.orders.getOrder(order.id);
    // Stripe's time of the payment (its PaymentIntent's), not the reconcile's.
    expect(remade?.paidAt?.getTime()).toBe(Math.floor(paidMs / 1000) * 1000);
    expect(remade?.createdAt.getTime()).toBe(order.createdAt.getTime());

    gw.clock.nowMs += 60_000;
    const fulfil = await runOrderCommand(config, now, 'orders', 'fulfil');
    expect(fulfil.out).toContain(`fulfilled ${order.id}`);
    const fulfilled = await gw.state.orders.getOrder(order.id);
    expect(fulfilled?.paidAt?.getTime()).toBe(Math.floor(paidMs / 1000) * 1000);
    // The buyer has the whole 30 days from the rebuild, not 10 left of the 30 from the payment.
    expect(fulfilled?.packExpiresAt?.getTime()).toBe(fulfilled!.fulfilledAt!.getTime() + 30 * 86_400_000);
    const json = (await (
      await gw.get(`/tax/orders/${order.id}?t=${tokens.tokenFor(order.id)}`, {}, `192.0.2.${++ip % 250}`)
    ).json()) as { paid_at: string; pack_expires_at: string };
    expect(json.paid_at).toBe(new Date(Math.floor(paidMs / 1000) * 1000).toISOString());
    expect(json.pack_expires_at).toBe(new Date(gw.clock.nowMs + 30 * 86_400_000).toISOString());
    // Reconciled again: nothing changes.
    expect((await reconcileJson()).sessions.find((s) => s.order_id === order.id)?.action).toBe(
      'already-paid',
    );
    expect(await gw.state.orders.getOrder(order.id)).toEqual(fulfilled);
    expect((await gw.state.orders.orderHistory(order.id)).payments).toHaveLength(1);
  }, 300_000);

  it('sees a demo payment made by `stripe simulate-payment`: the stand-in’s session is completed too', async () => {
    const { orderId, sessionId } = await checkout([ALICE]);
    // The gateway over real HTTP for the command to post its event to (the app, as `serve` runs it).
    const server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', async () => {
        const answer = await gw.app.fetch(
          new Request(`${BASE}${incoming.url}`, {
            method: incoming.method ?? 'GET',
            headers: incoming.headers as Record<string, string>,
            ...(incoming.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
          }),
          { ip: '127.0.0.1' },
        );
        outgoing.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'text/plain',
        });
        outgoing.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const paid = await runOrderCommand(
        config,
        now,
        'stripe',
        'simulate-payment',
        orderId,
        '--email',
        'demo.buyer@example.com',
        '--gateway',
        `http://127.0.0.1:${port}`,
      );
      expect(paid.out).toMatch(/HTTP 200/);
    } finally {
      server.close();
    }
    // Stripe's side knows the payment, as after a real one: the session is complete, with its PaymentIntent.
    const session = fake.session(sessionId)!;
    expect(session).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const intent = fake.paymentIntent(String(session.payment_intent))!;
    const order = await gw.state.orders.getOrder(orderId);
    expect(order).toMatchObject({ status: 'paid', buyerEmail: 'demo.buyer@example.com' });
    expect(order?.paidAt?.getTime()).toBe(intent.created * 1000);
    // So reconcile lists it, already paid, and changes nothing.
    gw.clock.nowMs += 60_000;
    const run = await reconcileJson();
    expect(run.sessions.find((s) => s.order_id === orderId)?.action).toBe('already-paid');
    expect(await gw.state.orders.getOrder(orderId)).toEqual(order);
  });

  it('asks Stripe for the sessions of the last --days days only (30 by default)', async () => {
    // A session made 40 days ago and paid then, its webhook lost.
    const request = checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [ALICE]);
    const order = await createOrder({ state: gw.state, now }, request, 'checkout');
    const services = orderServicesFrom(config.orders, world.store, () => {});
    const realNow = gw.clock.nowMs;
    gw.clock.nowMs = realNow - 40 * 86_400_000;
    const made = await services.checkoutSessions!.create(
      order,
      request.sku,
      `${BASE}/done`,
      services.seal!.seal(order.id, {
        ...request.sku,
        taxYear: request.sku.tax_year,
        coldkeys: [ALICE],
        amountMinor: order.amountMinor,
        createdAt: order.createdAt,
      }),
    );
    fake.completeSession(made.sessionId, 'old.buyer@example.com');
    gw.clock.nowMs = realNow;
    const recent = await reconcileJson();
    expect(recent.sessions.map((s) => s.order_id)).not.toContain(order.id);
    expect((await gw.state.orders.getOrder(order.id))?.status).toBe('created');
    const wider = JSON.parse((await reconcile('--days', '45', '--json')).out) as typeof recent;
    expect(wider.sessions.find((s) => s.order_id === order.id)?.action).toBe('paid');
    expect((await gw.state.orders.getOrder(order.id))?.status).toBe('paid');
    await expect(reconcile('--days', '0')).rejects.toThrow(/whole number of days from 1 to 90/);
  });

  it('refuses and reports a tampered sealed value, and makes nothing', async () => {
    const { orderId, sessionId } = await checkout([ALICE]);
    const session = fake.completeSession(sessionId, 'tampered@example.com');
    await deleteOrderRow(stateStore.url, orderId);
    const sealed = session.metadata!['order_seal_0']!;
    const flip = sealed.at(-5) === 'A' ? 'B' : 'A';
    session.metadata!['order_seal_0'] = `${sealed.slice(0, -5)}${flip}${sealed.slice(-4)}`;
    const refused = await reconcileCapturing();
    expect(refused.exit).toBe(1);
    expect(await gw.state.orders.getOrder(orderId)).toBeNull();
    // Reported: the line the operator reads, and an alert with ids only.
    expect(refused.out).toContain(
      `refused ${orderId} (session ${sessionId}): the sealed order does not verify`,
    );
    expect(refused.alerts).toEqual([
      expect.objectContaining({ level: 'alert', event: 'sealed-order-refused', order_id: orderId }),
    ]);
    expect(JSON.stringify(refused)).not.toContain('tampered@example.com');
    expect(JSON.stringify(refused)).not.toContain(ALICE);

    // Put right (the operator restored the session's metadata): the next run makes the order.
    session.metadata!['order_seal_0'] = sealed;
    const fixed = await reconcileCapturing();
    expect(fixed.exit).toBe(0);
    expect(fixed.out).toContain(`remade-and-paid ${orderId}`);
    expect((await gw.state.orders.getOrder(orderId))?.status).toBe('paid');
  }, 120_000);

  it('refuses at checkout an order whose sealed details would not fit Stripe’s metadata', async () => {
    // A catalogue allowing far more coldkeys than a pack does today. (Through the route, a body this
    // large is refused even before, at 16 KB; the checkout's own check is what holds if either grows.)
    const sku = { ...catalogueWithPrices().find(WORLD_SKU)!, max_coldkeys: 2000 };
    const services = orderServicesFrom(config.orders, world.store, () => {});
    const before = (await gw.state.orders.listOrders()).length;
    const sessions = fake.sessions().length;
    const coldkeys = Array.from({ length: 400 }, () => encodeAddress(randomBytes(32), 42));
    const refused = startCheckout(
      {
        state: gw.state,
        now,
        catalogue: { skus: [sku], find: (id) => (id === sku.sku ? sku : null) },
        tokens,
        seal: services.seal!,
        sessions: services.checkoutSessions!,
        baseUrl: BASE,
        coverage: () => null,
      },
      { sku: WORLD_SKU, coldkeys },
    );
    // An OrderRequestError: the checkout route answers it 400 with its message.
    await expect(refused).rejects.toBeInstanceOf(OrderRequestError);
    await expect(refused).rejects.toThrow(/too large .* list fewer coldkeys per order/);
    expect((await gw.state.orders.listOrders()).length).toBe(before);
    expect(fake.sessions().length).toBe(sessions);
  });

  it('gives an account the paid period of a subscription Stripe shows active, whose events were lost', async () => {
    const account = await gw.state.billing.findOrCreateEmailAccount(
      'holder@example.com',
      `acc_${randomBytes(8).toString('hex')}`,
      now(),
    );
    const deps = {
      state: gw.state,
      now,
      stripe: billingStripeClient('sk_test_reconcile', config.orders.stripeApiBase),
      priceId: planPrice,
      baseUrl: BASE,
    };
    const url = await startSubscriptionCheckout(deps, account);
    const session = fake.sessions().find((s) => s.url === url)!;
    // Paid on Stripe's page; no webhook endpoint is set, so no event reaches the gateway.
    await fake.paySession(session.id, 'holder@example.com');
    expect((await gw.state.getAccount(account.id))?.paidPeriodEnd).toBeNull();

    const first = await reconcileJson();
    const subscriptionId = fake.session(session.id)!.subscription as string;
    expect(first.subscriptions).toEqual([
      {
        subscription: subscriptionId,
        account_id: account.id,
        status: 'active',
        actions: ['synced', 'period-restored'],
      },
    ]);
    const paidTo = (await gw.state.getAccount(account.id))?.paidPeriodEnd;
    expect(paidTo?.getTime()).toBe(
      fake.subscription(subscriptionId)!.items.data[0]!.current_period_end * 1000,
    );
    expect((await gw.state.billing.listSubscriptions(account.id)).map((s) => s.status)).toEqual(['active']);
    const stored = await gw.state.billing.listSubscriptions(account.id);

    gw.clock.nowMs += 60_000;
    const second = await reconcileJson();
    expect(second.subscriptions.map((s) => s.actions)).toEqual([['in-step']]);
    expect(await gw.state.billing.listSubscriptions(account.id)).toEqual(stored);
  });
});
