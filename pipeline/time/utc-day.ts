/**
 * UTC days, the unit the chain is collected and published in: a day is `YYYY-MM-DD` text and runs from
 * 00:00:00.000Z for 24 hours (UTC has no daylight saving, so every day is exactly `DAY_MS` long).
 * Day arithmetic goes through the day's start instant, never through local time.
 */
export const DAY_MS = 86_400_000;
/** An hour in milliseconds; like the UTC day, always the same length. */
export const HOUR_MS = 3_600_000;

const DAY_TEXT = /^\d{4}-\d{2}-\d{2}$/;

export class InvalidUtcDayError extends Error {
  override name = 'InvalidUtcDayError';
  constructor(readonly text: string) {
    super(`expected a UTC day as YYYY-MM-DD, got "${text}"`);
  }
}

/** A real calendar date written `YYYY-MM-DD` (so `2025-02-30` and `2025-2-1` are not). */
export function isUtcDay(text: string): boolean {
  if (!DAY_TEXT.test(text)) return false;
  // Date.parse rolls some impossible dates over (Feb 30 → Mar 2): the round trip catches them.
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && formatUtcDay(ms) === text;
}

/** The instant a UTC day starts (00:00Z), in epoch milliseconds. */
export function parseUtcDay(text: string): number {
  if (!isUtcDay(text)) throw new InvalidUtcDayError(text);
  return Date.parse(`${text}T00:00:00Z`);
}

/** The UTC day an instant falls in. */
export function formatUtcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day `count` days after `day` (before it when negative). */
export function addDays(day: string, count: number): string {
  return formatUtcDay(parseUtcDay(day) + count * DAY_MS);
}

/** Days since 1970-01-01: DuckDB's DATE value of the day. */
export function epochDay(day: string): number {
  return parseUtcDay(day) / DAY_MS;
}

/** Every day from `from` to `to`, both included, oldest first (empty when `to` is before `from`). */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  const last = parseUtcDay(to);
  for (let ms = parseUtcDay(from); ms <= last; ms += DAY_MS) days.push(formatUtcDay(ms));
  return days;
}

/** The `count` days ending with `lastDay`, oldest first. */
export function daysEnding(lastDay: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(lastDay, i + 1 - count));
}
