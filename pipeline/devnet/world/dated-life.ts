import { HOUR_MS } from '../../time/utc-day.js';
import type { Timeline } from './timeline.js';

/**
 * The demo coldkey's scripted life in tax year 2025/26, on the runtimes mainnet ran then: only in a world whose
 * runtimes are placed by date (a compressed world has none of these runtimes). Each step happens on a fixed UTC
 * date inside its behaviour's era, so the pack of 2025/26 meets it on the runtime that ran it:
 * - `recycle` (spec 257, `recycle_alpha`), before the swap pallet;
 * - `hotkey-swap` (spec 297), after the swap pallet;
 * - `auto-stake` (spec 320, auto-stake exists from 315): an epoch event;
 * - `root-claim` twice (spec 343, root claims exist from 334), around
 * - `dissolution` (spec 343): `destroy_alpha_in_out_stakes` credits each holder's free balance.
 * The random stakes, unstakes, moves and swaps of every day go on around them, before and after 30 June 2025.
 */
export type DatedLifeKind = 'recycle' | 'hotkey-swap' | 'auto-stake' | 'root-claim' | 'dissolution';

/** UTC date and hour of each step (a day of 2025/26 that runs the runtime the step needs). */
export const DATED_SCHEDULE: ReadonlyArray<[DatedLifeKind, string, number]> = [
  ['recycle', '2025-05-14', 9],
  ['hotkey-swap', '2025-08-12', 9],
  ['auto-stake', '2025-10-01', 9],
  ['root-claim', '2025-12-10', 9],
  ['dissolution', '2026-01-20', 9],
  ['root-claim', '2026-02-18', 9],
];

/** The block of a dated step: its UTC date's hour, a few blocks in (null before genesis). */
export function datedLifeBlock(timeline: Timeline, date: string, hour: number): number | null {
  const day = timeline.dayOfDate(date);
  if (day < 1) return null;
  const block = timeline.firstBlockOfDay(day) + Math.round((hour * HOUR_MS) / timeline.blockTimeMs) + 1;
  return Math.min(block, timeline.lastBlockOfDay(day));
}
