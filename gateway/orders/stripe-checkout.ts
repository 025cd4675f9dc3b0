import Stripe from 'stripe';
import type { Sku } from '../../pipeline/contract/sku.js';
import { STRIPE_API_VERSION } from '../account/stripe-billing.js';
import type { OrderRecord } from '../state/order-state.js';
import type { StripeApiBase } from './order-config.js';

/** Stripe could not be reached, or answered that it is unavailable: worth retrying later (503). */
export class PaymentUnavailableError extends Error {
  override name = 'PaymentUnavailableError';
}

/** Stripe refused the request (a configuration problem on our side, e.g. a wrong key): 502. */
export class PaymentRefusedError extends Error {
  override name = 'PaymentRefusedError';
}

export interface CreatedCheckout {
  sessionId: string;
  url: string;
}

/** The one thing the gateway asks of the payment processor. */
export interface CheckoutSessions {
  /** `sealed`: the order's sealed metadata entries (order-seal.ts), stored beside `order_id` and `sku`. */
  create(
    order: OrderRecord,
    sku: Sku,
    successUrl: string,
    sealed?: Record<string, string>,
  ): Promise<CreatedCheckout>;
}

/** The official client, pointed at Stripe or at a stand-in (`STRIPE_API_BASE`: host, port, protocol). */
export function stripeClient(secretKey: string, apiBase: StripeApiBase | null): Stripe {
  return new Stripe(secretKey, {
    // The version the Checkout Session fields are read by, pinned in code (not the package's default).
    apiVersion: STRIPE_API_VERSION,
    // The client retries a lost connection or a 5xx with backoff, re-sending our Idempotency-Key, so
    // Stripe makes one session however many times the request went out.
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(apiBase ? { host: apiBase.host, port: apiBase.port, protocol: apiBase.protocol } : {}),
  });
}

/**
 * Checkout Sessions through the official client: payment mode, one line item from the SKU, the order
 * id as `client_reference_id` and `metadata.order_id` (the webhook reads it back), the order's details
 * sealed under our key (`order_seal_*`: what an order lost to a restore is made again from), and the buyer's
 * email collected by Stripe's page. The Idempotency-Key is derived from the order id: every retry of
 * this call for one order (the client's own, or a caller's) gets the same session.
 */
export function stripeCheckoutSessions(stripe: Stripe): CheckoutSessions {
  return {
    async create(order, sku, successUrl, sealed = {}) {
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: order.currency,
              unit_amount: order.amountMinor,
              product_data: {
                name: sku.name,
                description: `UK tax year ${sku.tax_year}, ${order.coldkeys.length} coldkey${order.coldkeys.length === 1 ? '' : 's'}. A computation tool, not tax advice.`,
              },
            },
          },
        ],
        client_reference_id: order.id,
        metadata: { order_id: order.id, sku: sku.sku, ...sealed },
        payment_intent_data: { metadata: { order_id: order.id } },
        success_url: successUrl,
      };
      try {
        const session = await stripe.checkout.sessions.create(params, {
          idempotencyKey: `sbm-checkout-${order.id}`,
        });
        if (!session.url) throw new PaymentRefusedError('Stripe returned a Checkout Session without a url');
        return { sessionId: session.id, url: session.url };
      } catch (error) {
        throw classify(error);
      }
    },
  };
}

function classify(error: unknown): Error {
  if (error instanceof PaymentRefusedError) return error;
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error instanceof Stripe.errors.StripeAPIError && (error.statusCode ?? 500) >= 500)
  ) {
    return new PaymentUnavailableError(`Stripe is unavailable: ${error.message}`, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new PaymentRefusedError(`Stripe refused the Checkout Session: ${error.type}: ${error.message}`, {
      cause: error,
    });
  }
  return error instanceof Error ? error : new Error(String(error));
}
