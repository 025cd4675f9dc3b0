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
 * - `dissolution` (spec 343): `destroy_alpha_in_out_stakes` credits each holder's free balance;
 * - user liquidity on the swap pallet (world/user-liquidity.ts): a position opened (spec 320) and closed with
 *   its fees (343), a second one opened (343) and refunded by `disable_lp` (mainnet's spec 350 of 5 December
 *   2025, in the sandbox's 343 row) with no swap event naming it;
 * - a crowdloan contribution whose lease pays dividends (spec 297; the dividends with their event at 393, the
 *   runtime that announces them in the sandbox), and a second contribution refunded after its crowdloan failed.
 * The random stakes, unstakes, moves and swaps of every day go on around them, before and after 30 June 2025.
 */
export type DatedLifeKind =
  | 'recycle'
  | 'hotkey-swap'
  | 'auto-stake'
  | 'root-claim'
  | 'dissolution'
  | 'liquidity-add'
  | 'liquidity-remove'
  | 'liquidity-refund'
  | 'crowdloan-contribute'
  | 'crowdloan-refund'
  | 'lease-dividends'
  | 'lease-dividends-credited';

/** UTC date and hour of each step (a day of 2025/26 that runs the runtime the step needs). */
export const DATED_SCHEDULE: ReadonlyArray<[DatedLifeKind, string, number]> = [
  ['recycle', '2025-05-14', 9],
  ['hotkey-swap', '2025-08-12', 9],
  ['crowdloan-contribute', '2025-08-20', 9],
  ['crowdloan-contribute', '2025-09-02', 9],
  ['crowdloan-refund', '2025-09-16', 9],
  ['auto-stake', '2025-10-01', 9],
  ['liquidity-add', '2025-10-15', 9],
  ['liquidity-remove', '2025-11-20', 9],
  ['liquidity-add', '2025-11-27', 9],
  ['liquidity-refund', '2025-12-05', 15],
  ['root-claim', '2025-12-10', 9],
  ['dissolution', '2026-01-20', 9],
  ['root-claim', '2026-02-18', 9],
  ['lease-dividends', '2026-03-28', 0],
  ['lease-dividends', '2026-04-02', 0],
];

/**
 * The purpose-made variant's step (option `untoldLeaseDividend`): a lease dividend of spec 320, before spec 361
 * announced them, credited to the demo's free balance as TAO with no event naming it a dividend. Block 1 of the
 * UTC day's hour 0 is an epoch's (phase Initialization).
 */
export const UNTOLD_LEASE_DIVIDEND: [DatedLifeKind, string, number] = [
  'lease-dividends-credited',
  '2025-10-20',
  0,
];

/**
 * The 2025/26 life's positions and crowdloans: liquidity position 1 closed by `remove_liquidity`, position 2
 * refunded by `disable_lp`; crowdloan 1 finalized into lease 1 (whose dividends the demo receives), crowdloan 2
 * refunded. In schedule order, the n-th step of a kind takes the n-th id.
 */
export const DATED_LIQUIDITY_POSITIONS = [1, 2] as const;
export const DATED_CROWDLOANS = { leased: 1, refunded: 2 } as const;

/** The block of a dated step: its UTC date's hour, a few blocks in (null before genesis). */
export function datedLifeBlock(timeline: Timeline, date: string, hour: number): number | null {
  const day = timeline.dayOfDate(date);
  if (day < 1) return null;
  const block = timeline.firstBlockOfDay(day) + Math.round((hour * HOUR_MS) / timeline.blockTimeMs) + 1;
  return Math.min(block, timeline.lastBlockOfDay(day));
}
