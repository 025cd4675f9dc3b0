import Stripe from 'stripe';
import type { GatewayState } from '../state/gateway-state.js';
import type { PaymentOutcome } from '../state/order-state.js';
import type { OrderAlert } from './order-alerts.js';

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
}

/** What the handler did with an event; the HTTP answer is 200 for every one of them. */
export type WebhookResult =
  | { handled: 'ignored'; reason: string }
  | { handled: 'payment'; outcome: PaymentOutcome };

/** The events that mean "paid" for a Checkout Session in payment mode (see /work/shared/tax/README.md). */
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
  if (!PAYMENT_EVENTS.has(event.type)) return { handled: 'ignored', reason: `event type ${event.type}` };
  const session = event.data.object as Stripe.Checkout.Session;
  // The API plan's subscription checkouts are handled by /account/webhooks/stripe (issue 27).
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
  const outcome = await deps.state.orders.markPaid({
    eventId: event.id,
    eventType: event.type,
    orderId,
    receivedAt,
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
  return { handled: 'payment', outcome };
}
