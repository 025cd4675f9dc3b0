// No DOM here: the tests import it in Node.

/**
 * Whether the `as_of` day, the spark line's last, was still under way at `as_of`: true unless `as_of`
 * is its last second (a window that ends at the day's close).
 */
export function asOfDayPartial(asOf: string): boolean {
  const ms = Date.parse(asOf);
  if (Number.isNaN(ms)) return false;
  return 86_400_000 - (ms % 86_400_000) > 1_000;
}
