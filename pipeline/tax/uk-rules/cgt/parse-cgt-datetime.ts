/**
 * The `datetime` column of `sbm tax cgt`'s input: ISO 8601, read so that the UK day is never in doubt.
 * - With `Z` or an offset (`2024-04-05T22:30:00Z`, `2024-04-05T23:30+01:00`): that instant.
 * - Without an offset (`2024-06-23T14:00`, `2024-06-23 14:00:00`): UK local time (Europe/London), as an
 *   accountant in the UK writes it.
 * - A date alone (`2024-06-23`): 12:00 UK time that day. Only the UK day matters to the matching rules, and
 *   midday is on it whatever the clocks do.
 * Seconds may carry a fraction (up to milliseconds are kept). Anything else is refused, never guessed.
 */
import { ukWallClockMs } from '../../../time/uk-wall-clock.js';

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant, or null when the text is not such a date and time. */
export function parseCgtDatetime(text: string): Date | null {
  const match = ISO.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hasTime = h !== undefined;
  const hour = hasTime ? Number(h) : 12;
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  const ms = Number((fraction ?? '').padEnd(3, '0').slice(0, 3));
  if (hour > 23 || minute > 59 || second > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 31 February over into March: a date that does not come back unchanged does not exist.
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  if (zone === undefined) return new Date(ukWallClockMs(local));
  if (zone === 'Z') return new Date(local);
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!offset) return null;
  const minutes = Number(offset[2]) * 60 + Number(offset[3]);
  if (Number(offset[2]) > 23 || Number(offset[3]) > 59) return null;
  return new Date(local - (offset[1] === '-' ? -1 : 1) * minutes * 60_000);
}
