/**
 * Numbers in the reader's locale, always with their unit; dates and times in UTC, always labelled so.
 * The API's numbers are exact decimals rendered once by the pipeline; here they are only displayed.
 */
const locale = navigator.language || 'en';

const fixed = (digits: number) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
const two = fixed(2);
/** Below 1, three significant digits: 0.00314 stays 0.00314 (four decimals would say 0.0031). */
const threeSignificant = new Intl.NumberFormat(locale, { maximumSignificantDigits: 3 });
const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
const compactFormat = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
const percentFormat = new Intl.NumberFormat(locale, {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const percentOne = new Intl.NumberFormat(locale, {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const percentWhole = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
const percentCompact = new Intl.NumberFormat(locale, {
  style: 'percent',
  notation: 'compact',
  maximumFractionDigits: 1,
});
const gbpFormat = new Intl.NumberFormat(locale, { style: 'currency', currency: 'GBP' });

export const ALPHA = 'α';
export const TAO = 'TAO';

/** A plain number: 2 decimals, three significant digits below 1 (small burns would otherwise read 0.00). */
export function number(value: number): string {
  return value !== 0 && Math.abs(value) < 1 ? threeSignificant.format(value) : two.format(value);
}

const dayFormat = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A UTC day (`2026-11-21`) as a short date in the reader's locale: `21 Nov` (en-GB), `Nov 21` (en-US). */
export function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayFormat.format(date);
}

/**
 * A change this large (the 7 days before burned under a hundredth of the last 7) is not a rate worth
 * reading: `+100.7M%` says only that the window before was next to empty. The table says `new`.
 */
export const NEW_CHANGE_PCT = 10_000;

const compactOne = new Intl.NumberFormat(locale, {
  notation: 'compact',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const oneDecimal = fixed(1);
const shortSignificant = new Intl.NumberFormat(locale, { maximumSignificantDigits: 3 });

/**
 * A table amount in a few characters, so the subnet table fits a laptop's width: `505.0M`, `941.9K`,
 * `688.1`, `0.42`, `0`. The digits and the locale's suffix (K, M, …) come apart so the page can give the
 * suffix a fixed box and keep the decimal points of a column aligned; the exact figure goes in a title.
 */
export function shortNumber(value: number): { digits: string; suffix: string } {
  if (value === 0) return { digits: '0', suffix: '' };
  const size = Math.abs(value);
  if (size < 1) return { digits: shortSignificant.format(value), suffix: '' };
  if (size < 1000) return { digits: oneDecimal.format(value), suffix: '' };
  const parts = compactOne.formatToParts(value);
  const at = parts.findIndex((part) => part.type === 'compact');
  if (at < 0) return { digits: parts.map((part) => part.value).join(''), suffix: '' };
  // A literal (a space in some locales) before the suffix belongs to the suffix.
  const start = at > 0 && parts[at - 1]!.type === 'literal' ? at - 1 : at;
  return {
    digits: parts
      .slice(0, start)
      .map((part) => part.value)
      .join(''),
    suffix: parts
      .slice(start)
      .map((part) => part.value)
      .join(''),
  };
}

/**
 * A table's change in percent, short: one decimal below 1,000 %, whole percent below 100,000 %, and
 * compact above (a week after a near-silent one can read +50,430,348 %: `+50.4M%` says as much).
 */
export function shortChangePercent(value: number | null): string {
  if (value === null) return 'n/a';
  if (value >= NEW_CHANGE_PCT) return 'new';
  const size = Math.abs(value);
  const format = size < 1000 ? percentOne : size < 100_000 ? percentWhole : percentCompact;
  const text = format.format(value / 100);
  return value > 0 ? `+${text}` : text;
}

export function amount(value: number | null, unit: string): string {
  return value === null ? 'not priced' : `${number(value)} ${unit}`;
}

export function count(value: number): string {
  return whole.format(value);
}

export function compact(value: number): string {
  return compactFormat.format(value);
}

/** A percentage given in percent (`change_7d_pct`: 12.5 means 12.5 %), signed. */
export function changePercent(value: number | null): string {
  if (value === null) return 'n/a';
  const text = percentFormat.format(value / 100);
  return value > 0 ? `+${text}` : text;
}

/** A fraction (0.0939) as a percentage. */
export function fraction(value: number): string {
  return percentFormat.format(value);
}

export function gbp(value: number): string {
  return gbpFormat.format(value);
}

/** `2026-02-05 14:00 UTC` from an ISO time. */
export function utcTime(iso: string | null): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A UTC day as the API gives it (`2026-02-05`), labelled. */
export function utcDay(day: string): string {
  return `${day} (UTC)`;
}
