import type { CheckoutSession } from '../../pipeline/contract/checkout.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { Catalogue } from './catalogue.js';
import { checkOrderRequest, createOrder } from './create-order.js';
import type { OrderSeal } from './order-seal.js';
import type { OrderTokens } from './order-token.js';
import { statusUrl } from './order-urls.js';
import type { CheckoutSessions } from './stripe-checkout.js';
import type { TaxYearCoverage } from './tax-year-coverage.js';

export interface CheckoutDeps {
  state: GatewayState;
  now: () => Date;
  catalogue: Catalogue;
  tokens: OrderTokens;
  /** Seals the order's details into the session's metadata (refuses an order too large for it). */
  seal: OrderSeal;
  sessions: CheckoutSessions;
  baseUrl: string;
  /** Refuses a tax year the published chain record does not reach (see tax-year-coverage.ts). */
  coverage: TaxYearCoverage;
}

/** An id of the length of every order id: the sealed value's size does not depend on which one. */
const ORDER_ID_SIZE_PROBE = `ord_${'0'.repeat(32)}`;

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
  // Checked before anything is stored: an order whose sealed details Stripe could not hold is refused.
  const createdAt = deps.now();
  const details = { sku: request.sku.sku, taxYear: request.sku.tax_year, coldkeys: request.coldkeys };
  const price = { amountMinor: request.sku.amount_minor, currency: request.sku.currency };
  deps.seal.seal(ORDER_ID_SIZE_PROBE, { ...details, ...price, createdAt });
  const order = await createOrder({ ...deps, now: () => createdAt }, request, 'checkout');
  const sealed = deps.seal.seal(order.id, { ...details, ...price, createdAt: order.createdAt });
  const token = deps.tokens.tokenFor(order.id);
  // `ot` is the spec's name for the token in the success URL; `t` makes the same link work as the
  // order status address (a success page is out of scope), so both carry it.
  const successUrl = `${statusUrl(deps.baseUrl, order.id, token)}&ot=${token}`;
  const created = await deps.sessions.create(order, request.sku, successUrl, sealed);
  await deps.state.orders.attachCheckoutSession(order.id, created.sessionId);
  return { order_id: order.id, checkout_url: created.url };
}
