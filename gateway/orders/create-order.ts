import type { Sku } from '../../pipeline/contract/sku.js';
import { parseColdkey } from '../../pipeline/tax/products/parse-coldkey.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { OrderOrigin, OrderRecord } from '../state/order-state.js';
import type { Catalogue } from './catalogue.js';
import { newOrderId } from './order-id.js';

/** A fulfilled pack stays downloadable for 30 days, then answers 410 (docs/api.md, Tax orders). */
export const PACK_RETENTION_DAYS = 30;

/** A request for an order that cannot be made as asked; the message says what to change (400). */
export class OrderRequestError extends Error {
  override name = 'OrderRequestError';
}

export interface OrderRequest {
  sku: Sku;
  /** Canonical addresses, in the order given, no repeats. */
  coldkeys: string[];
}

/**
 * Checks what a buyer (checkout) or an operator (`orders create`) asked for: a known SKU and 1 to the
 * SKU's maximum of different coldkeys, each valid as the tax check takes it (`parseColdkey`: its
 * messages, including the warning when a secret was pasted; a secret is never echoed).
 */
export function checkOrderRequest(catalogue: Catalogue, skuId: unknown, coldkeys: unknown): OrderRequest {
  const known = catalogue.skus.map((s) => s.sku).join(', ');
  if (typeof skuId !== 'string' || skuId === '')
    throw new OrderRequestError(`sku is required: one of ${known}.`);
  const sku = catalogue.find(skuId);
  // The SKU text is ours to quote only if it is short and plain; otherwise it is not echoed.
  if (!sku) {
    const shown = /^[a-z0-9-]{1,20}$/.test(skuId) ? `"${skuId}" ` : '';
    throw new OrderRequestError(`sku ${shown}is not on sale; choose one of ${known}.`);
  }
  if (!Array.isArray(coldkeys) || coldkeys.length === 0) {
    throw new OrderRequestError(
      `coldkeys is required: a list of 1 to ${sku.max_coldkeys} coldkey addresses (48 characters starting with 5).`,
    );
  }
  if (coldkeys.length > sku.max_coldkeys) {
    throw new OrderRequestError(
      `coldkeys has ${coldkeys.length} addresses; one ${sku.sku} pack covers at most ${sku.max_coldkeys}.`,
    );
  }
  const addresses: string[] = [];
  for (const [i, raw] of coldkeys.entries()) {
    if (typeof raw !== 'string') throw new OrderRequestError(`coldkeys[${i}] must be a string address.`);
    const parsed = parseColdkey(raw);
    if (!parsed.ok) throw new OrderRequestError(`coldkeys[${i}]: ${parsed.message}`);
    const earlier = addresses.indexOf(parsed.address);
    if (earlier >= 0)
      throw new OrderRequestError(`coldkeys[${i}] repeats coldkeys[${earlier}]; list each once.`);
    addresses.push(parsed.address);
  }
  return { sku, coldkeys: addresses };
}

/** Stores a new `created` order for the request at the SKU's current price. */
export async function createOrder(
  deps: { state: GatewayState; now: () => Date },
  request: OrderRequest,
  origin: OrderOrigin,
): Promise<OrderRecord> {
  return deps.state.orders.insertOrder({
    id: newOrderId(),
    sku: request.sku.sku,
    packName: request.sku.name,
    packKind: request.sku.kind,
    taxYear: request.sku.tax_year,
    coldkeys: request.coldkeys,
    amountMinor: request.sku.amount_minor,
    currency: request.sku.currency,
    retentionDays: PACK_RETENTION_DAYS,
    origin,
    createdAt: deps.now(),
  });
}
