// No DOM here: the tests import it in Node.
import { DAY_MS } from '../../../pipeline/time/utc-day.js';

/**
 * Whether the `as_of` day, the spark line's last, was still under way at `as_of`: true unless `as_of`
 * is its last second (a window that ends at the day's close).
 */
export function asOfDayPartial(asOf: string): boolean {
  const ms = Date.parse(asOf);
  if (Number.isNaN(ms)) return false;
  return DAY_MS - (ms % DAY_MS) > 1_000;
}
