/**
 * Numbers in the reader's locale, always with their unit; dates and times in UTC, always labelled so.
 * The API's numbers are exact decimals rendered once by the pipeline; here they are only displayed.
 */
const locale = navigator.language || 'en';

const fixed = (digits: number) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
const two = fixed(2);
const four = fixed(4);
const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
const compactFormat = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
const percentFormat = new Intl.NumberFormat(locale, {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const gbpFormat = new Intl.NumberFormat(locale, { style: 'currency', currency: 'GBP' });

export const ALPHA = 'α';
export const TAO = 'TAO';

/** A plain number: 2 decimals, 4 below 1 (small burns would otherwise all read 0.00). */
export function number(value: number): string {
  return value !== 0 && Math.abs(value) < 1 ? four.format(value) : two.format(value);
}

/** A table cell: whole numbers from 1,000 up, 2 decimals from 1, 4 below; null is "not priced". */
export function tableNumber(value: number | null): string {
  if (value === null) return 'not priced';
  return Math.abs(value) >= 1000 ? whole.format(value) : number(value);
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
