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
  const digits = value.d;
  // NaN and the infinities (no digits) as decimal.js writes them.
  if (!digits) return value.toFixed();
  const text = pointedDigits(digits, value.e);
  return value.s < 0 && text !== '0' ? `-${text}` : text;
}

/**
 * `value.toFixed(places, ROUND_HALF_EVEN)`, the same text, made without a rounded copy when the value has no
 * more than `places` decimal places (the ledger's pounds are already rounded to `GBP_PLACES`): a big pack
 * writes hundreds of thousands of them, and decimal.js's own copy and rounding are most of their cost.
 */
export function fixedDecimal(value: Decimal, places: number): string {
  const digits = value.d;
  if (!digits || value.decimalPlaces() > places) return value.toFixed(places, Decimal.ROUND_HALF_EVEN);
  let text = pointedDigits(digits, value.e);
  const point = text.indexOf('.');
  const written = point < 0 ? 0 : text.length - point - 1;
  if (places > written) text += `${point < 0 ? '.' : ''}${'0'.repeat(places - written)}`;
  // decimal.js writes a zero without its sign.
  return value.s < 0 && !value.isZero() ? `-${text}` : text;
}

/**
 * The text of a decimal.js value's digits (its `d`, base 10⁷ words, the first unpadded, no trailing zero
 * word) with the point where its exponent `e` puts it, as decimal.js's `toFixed()` writes it: no exponent,
 * no trailing zeros, no sign.
 */
function pointedDigits(words: readonly number[], exponent: number): string {
  const last = words.length - 1;
  let word = words[0]!;
  if (last === 0 && word === 0) return '0';
  let digits = '';
  if (last > 0) {
    digits += word;
    for (let i = 1; i < last; i++) digits += padWord(words[i]!);
    word = words[last]!;
    const text = `${word}`;
    // The last word's leading zeros; its trailing ones are dropped below.
    digits += WORD_ZEROS.slice(text.length);
  }
  while (word % 10 === 0) word /= 10;
  digits += word;
  const length = digits.length;
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${digits}`;
  if (exponent >= length) return digits + '0'.repeat(exponent + 1 - length);
  if (exponent + 1 < length) return `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  return digits;
}

/** decimal.js keeps its digits in words of seven. */
const WORD_ZEROS = '0000000';

function padWord(word: number): string {
  const text = `${word}`;
  return WORD_ZEROS.slice(text.length) + text;
}

/** Rounded to pence (half away from zero, as money is written), with thousands separators: `-1,234.57`. */
export function pounds(value: Decimal): string {
  const fixed = new CgtDecimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
  const [whole = '0', pence = '00'] = fixed.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = fixed.startsWith('-') && fixed !== '-0.00' ? '-' : '';
  return `${sign}${grouped}.${pence}`;
}
