import Stripe from 'stripe';
import type { GatewayState } from '../state/gateway-state.js';
import type { PaymentOutcome } from '../state/order-state.js';
import { catalogueWithPrices } from './catalogue.js';
import { PACK_RETENTION_DAYS } from './create-order.js';
import type { OrderAlert } from './order-alerts.js';
import { ORDER_ID_PATTERN } from './order-id.js';
import { type OrderSeal, type SealedOrder, SealRefusedError } from './order-seal.js';

/** A missing, malformed, wrongly signed or stale `Stripe-Signature`: 400, nothing changes. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

export interface WebhookDeps {
  state: GatewayState;
  now: () => Date;
  /** The endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
  alert: (alert: OrderAlert) => void;
  /** Opens sealed session metadata to make again an order the state lacks; absent: such orders stay unknown. */
  seal?: OrderSeal | null;
}

/** What the handler did with an event; the HTTP answer is 200 for every one of them. */
export type WebhookResult =
  | { handled: 'ignored'; reason: string }
  | { handled: 'payment'; outcome: PaymentOutcome; remade: boolean }
  | { handled: 'refused'; reason: string };

/** The events that mean "paid" for a Checkout Session in payment mode (Stripe documents both: `checkout.session.completed` with `payment_status` paid, and `checkout.session.async_payment_succeeded`). */
const PAYMENT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * `POST /tax/webhooks/stripe`. The signature is checked over the raw bytes with Stripe's own
 * `constructEvent` (HMAC-SHA256 of `t.body` under the endpoint secret, default 300 s tolerance measured
 * against our clock). Then, for a paid Checkout Session, `markPaid`, the only writer of `paid`: it
 * records the event id and moves the order `created → paid` in one transaction, only when the amount
 * and currency equal the order's, so a redelivered event (Stripe sends events more than once and out
 * of order) changes nothing. Everything else a valid signature brings is answered 200 and ignored:
 * Stripe retries non-2xx answers for days, and nothing it could resend would change the outcome.
 */
export async function handleStripeWebhook(
  deps: WebhookDeps,
  rawBody: Uint8Array,
  signature: string | null,
): Promise<WebhookResult> {
  if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
  const receivedAt = deps.now();
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(
      Buffer.from(rawBody),
      signature,
      deps.webhookSecret,
      undefined,
      undefined,
      receivedAt.getTime(),
    );
  } catch (error) {
    const reason =
      error instanceof Stripe.errors.StripeSignatureVerificationError
        ? error.message
        : 'the body is not a Stripe event';
    throw new WebhookSignatureError(`The Stripe-Signature does not verify: ${reason}`);
  }
  return handleCheckoutSessionEvent(
    deps,
    event,
    event.data.object as Stripe.Checkout.Session,
    receivedAt,
    stripeTime(event.created, receivedAt),
  );
}

/**
 * A time Stripe gave (Unix seconds) as the payment's time, never later than when we learnt of it (a
 * clock ahead of ours must not date a payment in our future); absent: `receivedAt`.
 */
export function stripeTime(seconds: number | null | undefined, receivedAt: Date): Date {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return receivedAt;
  return new Date(Math.min(seconds * 1000, receivedAt.getTime()));
}

/** What the checkout session events need: the webhook's deps without its signing secret. */
export type CheckoutEventDeps = Omit<WebhookDeps, 'webhookSecret'>;

/**
 * One Checkout Session event, verified: pushed by Stripe to the webhook (signed), or pulled from
 * Stripe's API by `orders reconcile` (the session as Stripe lists it). Both go through here, so a
 * session pays its order the same way whichever way it came, and `markPaid` keeps one caller.
 *
 * An order the state lacks (made after the backup it was restored from) is made again, with its own
 * id, from the session's sealed metadata (order-seal.ts) before the payment is recorded; a sealed
 * value that does not open is refused and reported, and nothing is made. `paidAt` is Stripe's time of the
 * payment (the event's `created`, or the PaymentIntent's for reconcile): the order's `paid_at`, so an order
 * paid late through reconcile, or made again after a restore, keeps the time its buyer paid.
 */
export async function handleCheckoutSessionEvent(
  deps: CheckoutEventDeps,
  event: { id: string; type: string },
  session: Stripe.Checkout.Session,
  receivedAt: Date,
  paidAt: Date,
): Promise<WebhookResult> {
  if (!PAYMENT_EVENTS.has(event.type)) return { handled: 'ignored', reason: `event type ${event.type}` };
  // The API plan's subscription checkouts are handled by /account/webhooks/stripe.
  if (session.mode === 'subscription') return { handled: 'ignored', reason: 'a subscription checkout' };
  if (event.type === 'checkout.session.completed' && session.payment_status !== 'paid') {
    // A delayed payment method: `async_payment_succeeded` follows when the money arrives.
    return { handled: 'ignored', reason: `payment_status ${session.payment_status}` };
  }
  const orderId = session.metadata?.['order_id'] ?? session.client_reference_id ?? null;
  if (!orderId) {
    deps.alert({ level: 'warn', event: 'payment-without-order', stripe_event: event.id });
    return { handled: 'ignored', reason: 'no order id in the session' };
  }
  let remade = false;
  if (deps.seal && !(await deps.state.orders.getOrder(orderId))) {
    const made = await remakeOrder(deps, deps.seal, orderId, session);
    if (made.refused) {
      deps.alert({
        level: 'alert',
        event: 'sealed-order-refused',
        order_id: orderId,
        stripe_event: event.id,
        reason: made.refused,
      });
      return { handled: 'refused', reason: made.refused };
    }
    remade = made.remade;
  }
  const outcome = await deps.state.orders.markPaid({
    eventId: event.id,
    eventType: event.type,
    orderId,
    receivedAt,
    paidAt,
    amountMinor: typeof session.amount_total === 'number' ? session.amount_total : null,
    currency: typeof session.currency === 'string' ? session.currency.toLowerCase() : null,
    email: session.customer_details?.email ?? session.customer_email ?? null,
    sessionId: typeof session.id === 'string' ? session.id : null,
  });
  if (outcome === 'amount-mismatch') {
    deps.alert({
      level: 'alert',
      event: 'payment-amount-mismatch',
      order_id: orderId,
      stripe_event: event.id,
      amount_total: session.amount_total ?? null,
      currency: session.currency ?? null,
    });
  } else if (outcome === 'unknown-order') {
    deps.alert({
      level: 'warn',
      event: 'payment-for-unknown-order',
      order_id: orderId,
      stripe_event: event.id,
    });
  }
  return { handled: 'payment', outcome, remade };
}

/**
 * Inserts the order a paid session's sealed metadata describes, as `created` with its own id (its
 * buyer's links are HMACs of that id, so they work again). Two runs racing for it make it once: the
 * second insert is refused by the primary key and finds the first's row.
 */
async function remakeOrder(
  deps: CheckoutEventDeps,
  seal: OrderSeal,
  orderId: string,
  session: Stripe.Checkout.Session,
): Promise<{ remade: boolean; refused?: string }> {
  let sealed: SealedOrder | null;
  try {
    sealed = seal.open(orderId, session.metadata ?? {});
  } catch (error) {
    if (error instanceof SealRefusedError || error instanceof SyntaxError) {
      return { remade: false, refused: error instanceof SealRefusedError ? error.message : 'unreadable' };
    }
    throw error;
  }
  // A session from before orders were sealed: nothing to make it from (markPaid reports unknown-order).
  if (!sealed) return { remade: false };
  if (!ORDER_ID_PATTERN.test(orderId)) return { remade: false, refused: 'the order id is not one of ours' };
  const sku = REMAKE_CATALOGUE.find(sealed.sku);
  if (!sku || sku.tax_year !== sealed.taxYear) {
    return { remade: false, refused: `the sealed SKU ${sealed.sku} is not in the catalogue` };
  }
  try {
    await deps.state.orders.insertOrder({
      id: orderId,
      sku: sku.sku,
      packName: sku.name,
      packKind: sku.kind,
      taxYear: sealed.taxYear,
      coldkeys: sealed.coldkeys,
      amountMinor: sealed.amountMinor,
      currency: sealed.currency,
      retentionDays: PACK_RETENTION_DAYS,
      origin: 'checkout',
      createdAt: sealed.createdAt,
    });
    return { remade: true };
  } catch (error) {
    if (await deps.state.orders.getOrder(orderId)) return { remade: false };
    throw error;
  }
}

/** Pack names and kinds by SKU (the price charged comes from the sealed value, not the catalogue). */
const REMAKE_CATALOGUE = catalogueWithPrices();
