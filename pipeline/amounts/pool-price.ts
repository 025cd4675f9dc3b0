/**
 * A subnet pool's price is its reserves: `SubnetTAO` TAO against `SubnetAlphaIn` alpha. An alpha amount is
 * worth `alpha_rao × SubnetTAO ÷ SubnetAlphaIn` TAO RAO, with the integer division last, so it is
 * truncated to the RAO. A missing or empty pool has no price.
 */
import type { ExactDecimal } from './exact-json.js';
import { RAO_PER_UNIT, raoToDecimal } from './rao.js';

export interface PoolReserves {
  taoRao: bigint;
  alphaInRao: bigint;
}

/** The reserves as a price, or null when either is missing or the pool holds no alpha. */
export function poolReserves(taoRao: bigint | null, alphaInRao: bigint | null): PoolReserves | null {
  if (taoRao === null || alphaInRao === null || alphaInRao <= 0n) return null;
  return { taoRao, alphaInRao };
}

/** TAO RAO of an alpha amount at a pool price; null when there is no price (no pool or empty pool). */
export function valueInTaoRao(alphaRao: bigint, price: PoolReserves | null): bigint | null {
  if (price === null || price.alphaInRao <= 0n) return null;
  return (alphaRao * price.taoRao) / price.alphaInRao;
}

/** The pool price in TAO per alpha, truncated to 9 decimals. */
export function priceToDecimal(price: PoolReserves | null): ExactDecimal | null {
  const perUnit = valueInTaoRao(RAO_PER_UNIT, price);
  return perUnit === null ? null : raoToDecimal(perUnit);
}
