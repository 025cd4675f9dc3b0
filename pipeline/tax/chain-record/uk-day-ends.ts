/**
 * The last block of each UK day (Europe/London), from the collected UTC days. In winter a UK day ends at a
 * UTC midnight, so its last block is the collected UTC day's last block and nothing needs reading. In
 * summer it ends at 23:00Z, inside a UTC day, and the block is found by binary search on the blocks'
 * timestamps (`Timestamp.Now`: block times drift, so it cannot be computed from the block number).
 */

import { ukDayEndMs, ukDayStartMs } from '../../time/uk-day.js';
import { addDays, DAY_MS, parseUtcDay } from '../../time/utc-day.js';

/** A collected UTC day as the warehouse records it. */
export interface CollectedUtcDay {
  day: string;
  firstBlock: number;
  lastBlock: number;
  lastBlockTimeMs: number;
  /** Read to its end (not today's partial day). */
  complete: boolean;
}

export interface UkDayEnd {
  /** The UK date. */
  date: string;
  lastBlock: number;
  lastBlockTimeMs: number;
}

/** A block's timestamp in milliseconds; null when the caller has no chain to ask (days needing it are skipped). */
export type BlockTimeOf = ((block: number) => Promise<number>) | null;

/**
 * The UK days whose whole span lies in the collected range, oldest first. `known` holds ends found
 * before (the previous run's calendar): one still inside its collected UTC day is kept without reading.
 * Without `timeOf`, summer days that are not known are left out.
 */
export async function ukDayEnds(
  collected: readonly CollectedUtcDay[],
  timeOf: BlockTimeOf,
  known: ReadonlyMap<string, UkDayEnd> = new Map(),
): Promise<UkDayEnd[]> {
  const byDay = new Map(collected.map((day) => [day.day, day]));
  const found = await Promise.all(
    collected.map(async (utc): Promise<UkDayEnd | null> => {
      // UK day D always ends within UTC day D: at 23:00Z (summer) or at its end (winter, and the
      // autumn day of 25 hours).
      const date = utc.day;
      const startUtc = parseUtcDay(date);
      const endMs = ukDayEndMs(date);
      // Its start must be collected too: in summer it began at 23:00Z the evening before.
      if (ukDayStartMs(date) < startUtc && !byDay.has(addDays(date, -1))) return null;
      if (endMs === startUtc + DAY_MS) {
        // Winter: the UK day is the UTC day, complete once the UTC day was read to its end.
        return utc.complete ? { date, lastBlock: utc.lastBlock, lastBlockTimeMs: utc.lastBlockTimeMs } : null;
      }
      // Summer: the collection must have reached 23:00Z.
      if (utc.lastBlockTimeMs < endMs) return null;
      const previous = known.get(date);
      if (previous && previous.lastBlock >= utc.firstBlock - 1 && previous.lastBlock < utc.lastBlock) {
        return previous;
      }
      if (timeOf === null) return null;
      const firstAfter = await firstBlockAtOrAfter(utc.firstBlock, utc.lastBlock, endMs, timeOf);
      if (firstAfter === null) return null;
      const lastBlock = firstAfter - 1;
      return { date, lastBlock, lastBlockTimeMs: await timeOf(lastBlock) };
    }),
  );
  return found.filter((end): end is UkDayEnd => end !== null);
}

/** The first block in [lo, hi] whose time is at or after `ms`; null when even `hi` is before it. */
async function firstBlockAtOrAfter(
  lo: number,
  hi: number,
  ms: number,
  timeOf: (block: number) => Promise<number>,
): Promise<number | null> {
  if ((await timeOf(hi)) < ms) return null;
  if ((await timeOf(lo)) >= ms) return lo;
  // Invariant: time(lo) < ms <= time(hi).
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if ((await timeOf(mid)) >= ms) hi = mid;
    else lo = mid;
  }
  return hi;
}
