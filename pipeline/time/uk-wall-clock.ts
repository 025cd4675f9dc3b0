/**
 * The instant a London wall clock shows a given local date and time (Europe/London: GMT in winter, BST in
 * summer). For input written in UK local time without an offset, such as an accountant's `2024-06-23 14:00`.
 */
import { ukOffsetMs } from './uk-day.js';

/**
 * `localMs` is the wall-clock reading taken as if it were UTC (`Date.UTC(y, m, d, h, min, s, ms)`). In the hour
 * the clocks go back the reading happens twice, and the second (GMT) is taken; in the hour they go forward it
 * never happens, and the reading is taken at the GMT offset (an hour later on the clock). Either way the UK day
 * is the one written.
 */
export function ukWallClockMs(localMs: number): number {
  const guess = localMs - ukOffsetMs(localMs);
  return localMs - ukOffsetMs(guess);
}
