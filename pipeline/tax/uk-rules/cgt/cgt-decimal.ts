/**
 * The decimal arithmetic of the gains engine: decimal.js at 50 significant digits, so sums of sterling amounts
 * and quantities are exact and an apportioned cost (cost × part / whole) carries no error a pound figure could
 * show. Nothing is rounded to pence here: rendering does that, once.
 */
import { Decimal } from 'decimal.js';

export const CgtDecimal = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_EVEN });

/** The decimal places of the pound values the income ledger keeps and the CSVs write (rounded half to even). */
export const GBP_PLACES = 8;

/**
 * Above zero, as `value.gt(0)` says, from the sign alone: `gt(0)` makes a Decimal of its 0 each time, and the
 * engine asks it of every transaction (tens of thousands for a big coldkey). NaN is neither above nor below.
 */
export function aboveZero(value: Decimal): boolean {
  return value.isPositive() && !value.isZero();
}

/** Below zero, as `value.lt(0)` says (`-0` is not), from the sign alone. */
export function belowZero(value: Decimal): boolean {
  return value.isNegative() && !value.isZero();
}

/** Plain decimal text, never an exponent, without trailing zeros, and never `-0`. */
export function plainDecimal(value: Decimal): string {
  const text = value.toFixed();
  return /^-0(\.0*)?$/.test(text) ? '0' : text;
}

/** Rounded to pence (half away from zero, as money is written), with thousands separators: `-1,234.57`. */
export function pounds(value: Decimal): string {
  const fixed = new CgtDecimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
  const [whole = '0', pence = '00'] = fixed.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = fixed.startsWith('-') && fixed !== '-0.00' ? '-' : '';
  return `${sign}${grouped}.${pence}`;
}
