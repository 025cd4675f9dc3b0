import type { RouterType } from 'itty-router';
import { HttpError } from '../http/http-errors.js';
import { jsonResponse } from '../http/responses.js';
import type { OrderAlert } from '../orders/order-alerts.js';
import type { OrderSeal } from '../orders/order-seal.js';
import { handleStripeWebhook, WebhookSignatureError } from '../orders/stripe-webhook.js';
import type { GatewayRequest } from '../request-context.js';
import type { GatewayState } from '../state/gateway-state.js';

export interface StripeWebhookRouteDeps {
  state: GatewayState;
  now: () => Date;
  /** Null when `STRIPE_WEBHOOK_SECRET` is unset: 503, so Stripe keeps the event and retries. */
  webhookSecret: string | null;
  alert: (alert: OrderAlert) => void;
  /** Opens sealed session metadata: an order the state lacks (a restore) is made again from it. */
  seal?: OrderSeal | null;
}

/** Stripe sends small events; a body larger than this is not one of ours to verify. */
const MAX_EVENT_BYTES = 512 * 1024;

/**
 * `POST /tax/webhooks/stripe`: Stripe's payment events (see orders/stripe-webhook.ts). Not under the
 * tax rate limit: Stripe sends from a few addresses, and a refused event would only come back later.
 * The body is read raw: the signature covers the exact bytes, so nothing may parse it first.
 */
export function stripeWebhookRoutes(router: RouterType<GatewayRequest>, deps: StripeWebhookRouteDeps): void {
  router.post('/tax/webhooks/stripe', async (request) => {
    if (!deps.webhookSecret) {
      throw new HttpError(
        503,
        'The payment webhook is not configured on this gateway (STRIPE_WEBHOOK_SECRET).',
      );
    }
    const declared = Number(request.ctx.requestHeaders.get('content-length') ?? '0');
    if (declared > MAX_EVENT_BYTES) throw new HttpError(413, 'The event is too large.');
    const body = new Uint8Array(await request.arrayBuffer());
    if (body.byteLength > MAX_EVENT_BYTES) throw new HttpError(413, 'The event is too large.');
    try {
      await handleStripeWebhook(
        {
          state: deps.state,
          now: deps.now,
          webhookSecret: deps.webhookSecret,
          alert: deps.alert,
          seal: deps.seal ?? null,
        },
        body,
        request.ctx.requestHeaders.get('stripe-signature') ?? null,
      );
    } catch (error) {
      if (error instanceof WebhookSignatureError) throw new HttpError(400, error.message);
      throw error;
    }
    return jsonResponse({ received: true }, 200, { 'cache-control': 'no-store' });
  });
}
