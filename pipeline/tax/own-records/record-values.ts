/**
 * The numbers and times of the buyer's records, read strictly: a value that could be read two ways is
 * refused with the way to write it, never guessed. `1,234.5` may be a thousand or one (European decimal
 * comma); `1e-3` is how a spreadsheet shows a number it has already rounded; a time without a zone in an
 * exchange's export is UTC (every export read here says so), not the UK local time of `sbm tax cgt`'s own
 * input.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../cgt/cgt-decimal.js';
import { parseCgtDatetime } from '../cgt/parse-cgt-datetime.js';

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

/**
 * An instant: ISO 8601 with `Z`, an offset (`+01:00`, `+0100`, space before it allowed), or ` UTC`/` GMT`
 * (Koinly and BittyTax); no zone at all is UTC. A time is required: the records are matched with the
 * chain's transfers to within hours, and a date alone would put every row of a day at one instant.
 */
export function readRecordTime(text: string): Read<Date> {
  const value = text.trim();
  const shown = `"${value.slice(0, 40)}"`;
  if (!ISO_WITH_TIME.test(value)) {
    return /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? fail(`${shown} has no time of day: give it as 2025-06-01 12:00:00 (UTC)`)
      : fail(
          `${shown} is not a date and time read here: write it as 2025-06-01 12:00:00 (UTC) or ISO 8601 with Z or an offset`,
        );
  }
  const zoned = value.replace(/\s*(UTC|GMT)$/i, 'Z').replace(/\s+([+-]\d{2}:?\d{2})$/, '$1');
  const withZone = /(Z|[+-]\d{2}:?\d{2})$/.test(zoned) ? zoned : `${zoned}Z`;
  const at = parseCgtDatetime(withZone);
  if (at === null) {
    return fail(
      `${shown} is not a date and time read here: write it as 2025-06-01 12:00:00 (UTC) or ISO 8601 with Z or an offset`,
    );
  }
  return { ok: true, value: at };
}

function fail<T>(reason: string): Read<T> {
  return { ok: false, reason };
}
