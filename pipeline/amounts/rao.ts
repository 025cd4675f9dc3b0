/**
 * Chain amounts are integers in RAO (1 alpha = 1 TAO = 10^9 RAO) and stay bigint until they are rendered,
 * once, here: exact decimal text with trailing zeros dropped.
 */
import { ExactDecimal } from './exact-json.js';

export const RAO_PER_UNIT = 1_000_000_000n;

/** An amount in RAO as an exact TAO or alpha decimal. */
export function raoToDecimal(rao: bigint): ExactDecimal {
  return new ExactDecimal(fixedToText(rao, 9));
}

/** Integer `value` with `places` implied decimals, as text without trailing zeros. */
export function fixedToText(value: bigint, places: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(places + 1, '0');
  const point = digits.length - places;
  // The trailing zeros of the fraction dropped (a loop: this runs for every amount of a pack's CSVs).
  let end = digits.length;
  while (end > point && digits.charCodeAt(end - 1) === 48) end--;
  const whole = digits.slice(0, point);
  const sign = negative ? '-' : '';
  return end === point ? `${sign}${whole}` : `${sign}${whole}.${digits.slice(point, end)}`;
}
