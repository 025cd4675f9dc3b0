import type { ObjectStore } from '../../pipeline/store/object-store.js';
import { type Catalogue, catalogueWithPrices } from './catalogue.js';
import type { OrderAlert } from './order-alerts.js';
import type { OrderConfig } from './order-config.js';
import { type OrderSeal, orderSeal } from './order-seal.js';
import { type OrderTokens, orderTokens } from './order-token.js';
import { type CheckoutSessions, stripeCheckoutSessions, stripeClient } from './stripe-checkout.js';

/**
 * What the order routes and the webhook need beyond the gateway's common dependencies, built once
 * from the configuration. A missing setting leaves its part null, and the part that needs it answers
 * accordingly: no order secret, no token opens an order (404) and checkout answers 503; no Stripe key,
 * checkout answers 503; no webhook secret, the webhook answers 503 (Stripe retries).
 */
export interface OrderServices {
  /** Where packs are stored: the object store the pipeline publishes to. */
  store: ObjectStore | null;
  catalogue: Catalogue;
  tokens: OrderTokens | null;
  /** Seals an order's details into its Checkout Session (from the same secret as the tokens). */
  seal: OrderSeal | null;
  checkoutSessions: CheckoutSessions | null;
  webhookSecret: string | null;
  alert: (alert: OrderAlert) => void;
}

export function orderServicesFrom(
  config: OrderConfig,
  store: ObjectStore,
  alert: (alert: OrderAlert) => void,
): OrderServices {
  return {
    store,
    catalogue: catalogueWithPrices(config.skuPrices),
    tokens: config.orderSecret ? orderTokens(config.orderSecret) : null,
    seal: config.orderSecret ? orderSeal(config.orderSecret) : null,
    checkoutSessions: config.stripeSecretKey
      ? stripeCheckoutSessions(stripeClient(config.stripeSecretKey, config.stripeApiBase))
      : null,
    webhookSecret: config.stripeWebhookSecret,
    alert,
  };
}

/** The gateway without order settings (tests of other areas): nothing opens, nothing is sold. */
export const NO_ORDER_SERVICES: OrderServices = {
  store: null,
  catalogue: catalogueWithPrices(),
  tokens: null,
  seal: null,
  checkoutSessions: null,
  webhookSecret: null,
  alert: () => undefined,
};

/** Lines for the operator at start-up: what of the tax orders is off, and which setting turns it on. */
export function orderStartupNotes(config: OrderConfig): string[] {
  const notes: string[] = [];
  if (!config.orderSecret) {
    notes.push(
      'tax orders are off: SBM_ORDER_SECRET is not set (64 hex digits, e.g. `openssl rand -hex 32`); ' +
        'order links answer 404 and checkout 503',
    );
  }
  if (!config.stripeSecretKey)
    notes.push('checkout is off: STRIPE_SECRET_KEY is not set (POST /tax/checkout answers 503)');
  if (!config.stripeWebhookSecret) {
    notes.push(
      'the Stripe webhook is off: STRIPE_WEBHOOK_SECRET is not set (it answers 503 and Stripe retries)',
    );
  }
  if (config.stripeApiBase)
    notes.push(`Stripe API calls go to ${config.stripeApiBase.url} (STRIPE_API_BASE), not to Stripe`);
  return notes;
}
