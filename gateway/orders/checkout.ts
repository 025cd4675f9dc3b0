import type { CheckoutSession } from '../../pipeline/contract/checkout.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { Catalogue } from './catalogue.js';
import { checkOrderRequest, createOrder } from './create-order.js';
import type { OrderTokens } from './order-token.js';
import { statusUrl } from './order-urls.js';
import type { CheckoutSessions } from './stripe-checkout.js';
import type { TaxYearCoverage } from './tax-year-coverage.js';

export interface CheckoutDeps {
  state: GatewayState;
  now: () => Date;
  catalogue: Catalogue;
  tokens: OrderTokens;
  sessions: CheckoutSessions;
  baseUrl: string;
  /** Refuses a tax year the published chain record does not reach (see tax-year-coverage.ts). */
  coverage: TaxYearCoverage;
}

/** A valid request for a pack that cannot be made from the published record: 409, no order, no session. */
export class TaxYearNotCoveredError extends Error {
  override name = 'TaxYearNotCoveredError';
}

/**
 * `POST /tax/checkout`: checks the request, stores the order (`created`), asks Stripe for a Checkout
 * Session and records its id. If Stripe cannot be reached the error propagates (503) and the order
 * stays `created`, never paid: nothing but the webhook moves it on, and an abandoned order is harmless.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  body: { sku?: unknown; coldkeys?: unknown },
): Promise<CheckoutSession> {
  const request = checkOrderRequest(deps.catalogue, body.sku, body.coldkeys);
  const uncovered = deps.coverage(request.sku.tax_year);
  if (uncovered) throw new TaxYearNotCoveredError(uncovered);
  const order = await createOrder(deps, request, 'checkout');
  const token = deps.tokens.tokenFor(order.id);
  // `ot` is the spec's name for the token in the success URL; `t` makes the same link work as the
  // order status address (a success page is out of scope), so both carry it.
  const successUrl = `${statusUrl(deps.baseUrl, order.id, token)}&ot=${token}`;
  const created = await deps.sessions.create(order, request.sku, successUrl);
  await deps.state.orders.attachCheckoutSession(order.id, created.sessionId);
  return { order_id: order.id, checkout_url: created.url };
}
