/**
 * UK days: the calendar date on a clock in Europe/London (GMT in winter, BST = UTC+1 in summer). The tax
 * pack counts in UK days, because HMRC's dates are UK dates; the chain and the published data count in
 * UTC days (`utc-day.ts`). Between 23:00Z and 24:00Z in summer the two disagree.
 *
 * The zone rules come from the ICU data built into Node (`Intl`), so no table of clock changes is kept here.
 */
import { addDays, formatUtcDay, HOUR_MS, parseUtcDay } from './utc-day.js';

export const UK_TIME_ZONE = 'Europe/London';

const londonClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: UK_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** What a London wall clock shows at `ms`, read as if it were UTC (so it can be compared with `ms`). */
function londonWallClockMs(ms: number): number {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(londonClock.formatToParts(ms).find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

/** London's offset at `ms` as the zone rules give it, to the whole second. */
function zoneOffsetMs(ms: number): number {
  const wholeSeconds = Math.floor(ms / 1000) * 1000;
  return londonWallClockMs(wholeSeconds) - wholeSeconds;
}

/**
 * Per UTC hour: London's offset through it and, when that offset is whole hours, the UK day of every instant
 * in it. Asking `Intl` costs some 40 µs; a year's pack asks for the day of every booked movement (hundreds of
 * thousands for a coldkey of 200 positions), all in a few thousand hours. London changes its clocks on the
 * hour (01:00Z), so an hour with the same offset at its first and last second has it throughout; one that
 * does not (no such hour since 1847) is not kept.
 */
const hours = new Map<number, { offset: number; day: string | null }>();
function hourOf(ms: number): { offset: number; day: string | null } | null {
  const hour = Math.floor(ms / HOUR_MS);
  let known = hours.get(hour);
  if (known === undefined) {
    if (!Number.isFinite(hour)) return null;
    const start = hour * HOUR_MS;
    const offset = zoneOffsetMs(start);
    if (zoneOffsetMs(start + HOUR_MS - 1000) !== offset) return null;
    known = { offset, day: offset % HOUR_MS === 0 ? formatUtcDay(start + offset) : null };
    if (hours.size >= 100_000) hours.clear();
    hours.set(hour, known);
  }
  return known;
}

/** How far London's clock is ahead of UTC at `ms`: 0 (GMT) or 3,600,000 (BST). */
export function ukOffsetMs(ms: number): number {
  return hourOf(ms)?.offset ?? zoneOffsetMs(ms);
}

/** The UK day (`YYYY-MM-DD`, Europe/London) an instant falls in. */
export function ukDay(ms: number): string {
  return hourOf(ms)?.day ?? formatUtcDay(ms + ukOffsetMs(ms));
}

/** The instant a UK day starts: 00:00 London time (23:00Z the evening before, in summer). */
export function ukDayStartMs(day: string): number {
  const utcMidnight = parseUtcDay(day);
  // London changes its clocks at 01:00Z, never across local midnight, so the offset at 00:00Z of the same
  // date is the offset at London midnight; the second look keeps that true for any rule change.
  const guess = utcMidnight - ukOffsetMs(utcMidnight);
  return utcMidnight - ukOffsetMs(guess);
}

/** The instant a UK day ends (exclusive): the start of the next UK day, 23 to 25 hours later. */
export function ukDayEndMs(day: string): number {
  return ukDayStartMs(addDays(day, 1));
}
