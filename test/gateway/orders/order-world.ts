/**
 * The world of the order tests: a sandbox published by the real pipeline (the tax objects a pack reads,
 * its chain kept running for the pack's stake reads), real coldkey addresses, and Stripe events signed
 * the way Stripe signs them.
 */
import { join } from 'node:path';
import Stripe from 'stripe';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { handleStripeWebhook } from '../../../gateway/orders/stripe-webhook.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import type { PaymentOutcome } from '../../../gateway/state/order-state.js';
import type { FolderObjectStore } from '../../../pipeline/store/index.js';
import { sharedPackWorld } from '../../support/shared-pack-world.js';
import { publishPackWorld } from '../../tax/products/pack/pack-world.js';

/** Alice, Bob and Charlie of the Substrate dev keyring: valid prefix-42 addresses. */
export const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CHARLIE = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';

/**
 * Three weeks into UK tax year 2026/27: the world's record starts on the UK day before 6 April 2026 and
 * reaches yesterday, so the 2026/27 pack is on sale (issue 26: only years covered from 6 April are sold).
 */
export const NOW_MS = Date.parse('2026-04-28T12:00:00Z');
/** The world's first UTC day: its UK days start on 5 April 2026 (4 April began the evening before). */
const GENESIS_MS = Date.parse('2026-04-04T00:00:00Z');
/** The tax year the world covers, and its SKU. */
export const WORLD_TAX_YEAR = '2026/27';
export const WORLD_SKU = 'uk-2026-27';
export const WEBHOOK_SECRET = 'whsec_test_orders_world';
export const ORDER_SECRET = 'a1'.repeat(32);

export interface OrderWorld {
  dir: string;
  storeDir: string;
  store: FolderObjectStore;
  outboxDir: string;
  /** The sandbox chain the packs read stake from (SBM_CHAIN_URL). */
  chainUrl: string;
  /** The sandbox's demo coldkey: stakes, unstakes and moves in tax year 2026/27. */
  demoColdkey: string;
  close(): Promise<void>;
}

/**
 * A sandbox world from 4 April 2026 to NOW_MS (2026/27 covered up to yesterday), collected and published by
 * the real pipeline, its chain kept running: the fulfilment job builds the real pack from it. With
 * `realClock` (a gateway process that reads the real time) it runs from the same day to today, in
 * one-hour blocks to keep the collection short.
 *
 * The fixed-clock world is the same in every file that uses it, so it is collected and published once per
 * test run (`sharedPackWorld`); each file gets its own copy of the published folder (its orders write
 * packs and emails there) and its own sandbox chain started with the same options, the same chain.
 */
export async function orderWorld(options: { realClock?: boolean } = {}): Promise<OrderWorld> {
  const world = options.realClock
    ? await publishPackWorld({
        ...ORDER_WORLD,
        historyDays: daysTo(Date.now()),
        realClock: true,
        blockTimeMs: 3_600_000,
      })
    : await sharedPackWorld({ ...ORDER_WORLD, historyDays: daysTo(NOW_MS) });
  return {
    dir: world.dir,
    storeDir: join(world.dir, 'store'),
    store: world.store,
    outboxDir: join(world.dir, 'outbox'),
    chainUrl: world.devnet.url,
    demoColdkey: world.devnet.demoColdkey,
    close: () => world.close(),
  };
}

const ORDER_WORLD = { seed: 'orders', genesis: new Date(GENESIS_MS), hoursIntoToday: 12 } as const;

function daysTo(endMs: number): number {
  return Math.floor((endMs - GENESIS_MS) / 86_400_000);
}

/** A Checkout Session event body as Stripe sends it, and its `Stripe-Signature` under `secret`. */
export function signedEvent(
  session: Record<string, unknown>,
  options: { type?: string; id?: string; secret?: string; timestampMs?: number } = {},
): { body: string; signature: string; id: string } {
  const id = options.id ?? `evt_test_${Math.random().toString(36).slice(2)}`;
  const created = Math.floor((options.timestampMs ?? NOW_MS) / 1000);
  const body = JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    data: { object: session },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: options.type ?? 'checkout.session.completed',
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: created,
  });
  return { body, signature, id };
}

/**
 * Pays an order the only way an order is paid: a signed `checkout.session.completed` through the
 * webhook handler (in-process), for the order's exact amount.
 */
export async function payThroughWebhook(
  state: GatewayState,
  orderId: string,
  at: Date,
): Promise<PaymentOutcome> {
  const order = await state.orders.getOrder(orderId);
  if (!order) throw new Error(`no order ${orderId}`);
  const event = signedEvent(
    {
      id: `cs_test_${orderId.slice(4, 20)}`,
      object: 'checkout.session',
      amount_total: order.amountMinor,
      currency: order.currency,
      client_reference_id: orderId,
      metadata: { order_id: orderId },
      mode: 'payment',
      payment_status: 'paid',
      status: 'complete',
      customer_details: { email: 'buyer@example.com', name: null },
    },
    { timestampMs: at.getTime() },
  );
  const result = await handleStripeWebhook(
    { state, now: () => at, webhookSecret: WEBHOOK_SECRET, alert: () => {} },
    new TextEncoder().encode(event.body),
    event.signature,
  );
  if (result.handled !== 'payment') throw new Error(`event not handled as a payment: ${result.reason}`);
  return result.outcome;
}

/** `count` paid orders (made as checkout makes them, paid through the webhook). */
export async function paidOrders(state: GatewayState, count: number, at: Date): Promise<string[]> {
  const catalogue = catalogueWithPrices();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const request = checkOrderRequest(catalogue, WORLD_SKU, [i % 2 ? ALICE : BOB]);
    const order = await createOrder({ state, now: () => at }, request, 'checkout');
    expectPaid(await payThroughWebhook(state, order.id, at));
    ids.push(order.id);
  }
  return ids;
}

function expectPaid(outcome: PaymentOutcome): void {
  if (outcome !== 'paid') throw new Error(`payment outcome ${outcome}`);
}
