import { ExactDecimal } from './exact-json.js';

/**
 * Amount rendering, done once: chain amounts are integers in RAO (1 alpha = 1 TAO = 10^9 RAO) and
 * stay bigint until here. Alpha is exact; a TAO value is `alpha_rao × SubnetTAO ÷ SubnetAlphaIn`
 * with the integer division last, so it is truncated to the RAO. Trailing zeros are dropped.
 */
export const RAO_PER_UNIT = 1_000_000_000n;

export interface PoolReserves {
  taoRao: bigint;
  alphaInRao: bigint;
}

export function raoToDecimal(rao: bigint): ExactDecimal {
  return new ExactDecimal(fixedToText(rao, 9));
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

/** 100 × (current − previous) / previous, rounded half away from zero to 2 decimals; null when previous is 0. */
export function changePercent(current: bigint, previous: bigint): ExactDecimal | null {
  if (previous === 0n) return null;
  const scaled = ((current - previous) * 100n * 100n * 2n) / previous; // hundredths of a percent, ×2
  const rounded = scaled >= 0n ? (scaled + 1n) / 2n : (scaled - 1n) / 2n;
  return new ExactDecimal(fixedToText(rounded, 2));
}

/** Integer `value` with `places` implied decimals, as text without trailing zeros. */
export function fixedToText(value: bigint, places: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
