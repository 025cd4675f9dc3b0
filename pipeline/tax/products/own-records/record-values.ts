/**
 * The numbers and times of the buyer's records, read strictly: a value that could be read two ways is
 * refused with the way to write it, never guessed. `1,234.5` may be a thousand or one (European decimal
 * comma); `1e-3` is how a spreadsheet shows a number it has already rounded; a time without a zone in an
 * exchange's export is UTC (every export read here says so), not the UK local time of `sbm tax cgt`'s own
 * input.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import { parseCgtDatetime } from '../../uk-rules/cgt/parse-cgt-datetime.js';

export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

const PLAIN = /^(\d+(\.\d*)?|\.\d+)$/;
/** Digits kept: pounds to 8 places and RAO to 9 need far fewer; more is a pasted error, not a value. */
const MAX_DIGITS = 40;

/**
 * A plain decimal, `null` when the cell is empty. `positive`: greater than zero (a quantity); otherwise
 * zero is allowed (a value of £0: stake lost for nothing).
 */
export function readAmount(text: string, positive: boolean): Read<Decimal | null> {
  const value = text.trim();
  if (value === '') return { ok: true, value: null };
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(value)) {
    return fail(`"${value}" has a thousands separator: write it as ${value.replace(/,/g, '')}`);
  }
  if (/^-/.test(value) && PLAIN.test(value.slice(1))) {
    return fail(
      `is negative (${value}): ${positive ? 'a quantity is greater than zero' : 'a value is zero or more'}; the row's type says the direction`,
    );
  }
  if (/^\d+,\d+$/.test(value))
    return fail(`"${value}" has a decimal comma: write it with a point (${value.replace(',', '.')})`);
  if (/^[+-]?(\d+\.?\d*|\.\d+)e[+-]?\d+$/i.test(value)) {
    return fail(
      `"${value}" is in exponent form: write it as a plain decimal (format the column as a number with its decimals)`,
    );
  }
  if (!PLAIN.test(value))
    return fail(`"${value.slice(0, 40)}" is not a number: write a plain decimal such as 12.5`);
  if (value.replace('.', '').length > MAX_DIGITS) return fail(`has more than ${MAX_DIGITS} digits`);
  const amount = new CgtDecimal(value);
  if (positive && amount.isZero()) return fail('is zero: a quantity is greater than zero');
  return { ok: true, value: amount };
}

const ISO_WITH_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
/** A spreadsheet's own way of saving a date: `01/06/2025 12:00` (day or month first, as the sheet's locale). */
const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{4})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/**
 * How a file writes its slashed dates: `day-first` (a UK spreadsheet, the default), `month-first` (a US
 * one: some date has a second number above 12), or `unsettled` (the file has dates that only one reading
 * allows and dates that only the other does, so a date both readings allow cannot be placed).
 */
export type DateOrder = 'day-first' | 'month-first' | 'unsettled';

/** The order of the slashed dates among `texts`, settled by those that only one reading allows. */
export function slashedDateOrder(texts: Iterable<string>): DateOrder {
  let dayFirst = false;
  let monthFirst = false;
  for (const text of texts) {
    const match = SLASHED.exec(text.trim());
    if (!match) continue;
    const first = Number(match[1]);
    const second = Number(match[2]);
    if (first > 12 && second <= 12) dayFirst = true;
    if (second > 12 && first <= 12) monthFirst = true;
  }
  if (dayFirst && monthFirst) return 'unsettled';
  return monthFirst ? 'month-first' : 'day-first';
}

/** Zone names written after a time: BST is UK summer time, an hour ahead of UTC; GMT and UTC are UTC. */
const ZONE_NAMES: Record<string, string> = { UTC: 'Z', GMT: 'Z', Z: 'Z', BST: '+01:00' };

/**
 * An instant: ISO 8601 with `Z`, an offset (`+01:00`, `+0100`, space before it allowed), or a zone name
 * (` UTC`, ` GMT`, ` BST`, as Koinly and BittyTax write them); no zone at all is UTC. A spreadsheet's
 * slashed date (`01/06/2025 12:00`) is read in the file's `order`, day first unless the file shows
 * otherwise. A time is required: the records are matched with the chain's transfers to within hours, and a
 * date alone would put every row of a day at one instant.
 */
export function readRecordTime(text: string, order: DateOrder = 'day-first'): Read<Date> {
  const value = text.trim();
  const shown = `"${value.slice(0, 40)}"`;
  const slashed = SLASHED.exec(value);
  if (slashed) return slashedTime(slashed, shown, order);
  if (!ISO_WITH_TIME.test(value)) {
    return /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? fail(`${shown} has no time of day: give it as 2025-06-01 12:00:00 (UTC)`)
      : fail(
          `${shown} is not a date and time read here: write it as 2025-06-01 12:00:00 (UTC) or ISO 8601 with Z or an offset`,
        );
  }
  const named = /\s*\b(UTC|GMT|BST)$/i.exec(value);
  const zoned = (named ? value.slice(0, named.index) + ZONE_NAMES[named[1]!.toUpperCase()] : value).replace(
    /\s+([+-]\d{2}:?\d{2})$/,
    '$1',
  );
  const withZone = /(Z|[+-]\d{2}:?\d{2})$/.test(zoned) ? zoned : `${zoned}Z`;
  const at = parseCgtDatetime(withZone);
  if (at === null) {
    return fail(
      `${shown} is not a date and time read here: write it as 2025-06-01 12:00:00 (UTC) or ISO 8601 with Z or an offset`,
    );
  }
  return { ok: true, value: at };
}

function slashedTime(match: RegExpExecArray, shown: string, order: DateOrder): Read<Date> {
  const [, a, b, year, hour, minute, second] = match;
  const first = Number(a);
  const next = Number(b);
  if (order === 'unsettled' && first <= 12 && next <= 12 && first !== next) {
    return fail(
      `${shown} could be read day first or month first, and this file has dates of both kinds: write the dates as 2025-06-01 12:00:00 (UTC)`,
    );
  }
  // Unsettled, a date only one reading allows is read that way.
  const monthFirst = order === 'month-first' || (order === 'unsettled' && next > 12);
  const [day, month] = monthFirst ? [next, first] : [first, next];
  const iso = `${year}-${pad(month)}-${pad(day)} ${pad(Number(hour))}:${minute}:${second ?? '00'}Z`;
  const at = parseCgtDatetime(iso);
  if (at === null) {
    return fail(
      `${shown} is not a date and time read here: read ${monthFirst ? 'month' : 'day'} first it does not exist; write it as 2025-06-01 12:00:00 (UTC)`,
    );
  }
  return { ok: true, value: at };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function fail<T>(reason: string): Read<T> {
  return { ok: false, reason };
}
