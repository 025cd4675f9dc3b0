import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import Stripe from 'stripe';
import type { GatewayState } from '../state/gateway-state.js';
import type { StripeApiBase } from './order-config.js';

/** Refused: simulating a payment only makes sense against the local Stripe stand-in. */
export class SimulationRefusedError extends Error {
  override name = 'SimulationRefusedError';
}

export interface SimulationDeps {
  state: GatewayState;
  apiBase: StripeApiBase | null;
  webhookSecret: string | null;
  /** The gateway to deliver the event to (its `/tax/webhooks/stripe`). */
  gatewayUrl: string;
  now: () => Date;
}

export interface SimulatedPayment {
  eventId: string;
  /** Where Stripe sends the buyer after paying (the order status, with the token). */
  successUrl: string | null;
  status: number;
  body: string;
}

/**
 * `sbm-gateway stripe simulate-payment ORDER_ID`: what Stripe does when a buyer pays, against the
 * stand-in. It has the stand-in complete the order's Checkout Session as its checkout page does
 * (`POST /_stand-in/checkout/sessions/{id}/complete`: the session `complete` and `paid`, with the buyer's
 * email and a PaymentIntent made now), so Stripe's side knows the payment and `orders reconcile` finds
 * it as it finds a real one; then it builds the `checkout.session.completed` event Stripe would send
 * (the completed session), signs it with the configured webhook secret as Stripe signs
 * (`generateTestHeaderString`: `t=<unix>,v1=<HMAC-SHA256>`) and POSTs it to the gateway's webhook,
 * which then handles it like any real event. Refused unless `STRIPE_API_BASE` names a loopback address:
 * it never talks to Stripe itself, and never sends an event to a gateway that takes real payments from
 * a stand-in elsewhere.
 */
export async function simulatePayment(
  deps: SimulationDeps,
  orderId: string,
  options: { email: string },
): Promise<SimulatedPayment> {
  if (!deps.apiBase || !isLoopback(deps.apiBase.host)) {
    throw new SimulationRefusedError(
      'stripe simulate-payment works only against the local Stripe stand-in: set STRIPE_API_BASE to its ' +
        'loopback address (make demo prints it)',
    );
  }
  if (!deps.webhookSecret) throw new SimulationRefusedError('STRIPE_WEBHOOK_SECRET is not set');
  const order = await deps.state.orders.getOrder(orderId);
  if (!order) throw new SimulationRefusedError(`no order ${orderId}`);
  if (!order.stripeSessionId) {
    throw new SimulationRefusedError(
      `order ${orderId} has no Checkout Session (it was not made by checkout)`,
    );
  }
  const completed = await fetch(
    `${deps.apiBase.url.replace(/\/+$/, '')}/_stand-in/checkout/sessions/${encodeURIComponent(order.stripeSessionId)}/complete`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: options.email }).toString(),
    },
  );
  if (!completed.ok) {
    const answer = (await completed.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new SimulationRefusedError(
      `the stand-in did not complete the checkout session of ${orderId}: ${answer?.error?.message ?? `HTTP ${completed.status}`}`,
    );
  }
  const session = (await completed.json()) as Stripe.Checkout.Session;
  const created = Math.floor(deps.now().getTime() / 1000);
  const event = {
    id: `evt_test_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created,
    data: {
      object: session,
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'checkout.session.completed',
  };
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: deps.webhookSecret,
    timestamp: created,
  });
  const response = await fetch(`${deps.gatewayUrl}/tax/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return {
    eventId: event.id,
    successUrl: session.success_url ?? null,
    status: response.status,
    body: await response.text(),
  };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
