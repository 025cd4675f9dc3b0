/**
 * The UK days a pack reads, from the published calendar and, where it has a gap, from the chain.
 *
 * A section 104 pool carries across tax years (CRYPTO22200): a staker who bought alpha in 2025/26 and
 * sells in 2026/27 is taxed on the gain since the purchase. So the record opens at the end of the earliest
 * collected UK day, whatever the tax year sold, and runs through every day up to the year's end (and up
 * to 30 days past it, for the 30-day rule). Only at that first day do holdings enter the pools at market
 * value; every later year's pools come from the earlier ones.
 *
 * A day missing from the calendar inside the record (a collection that skipped it, a UTC day published
 * without its UK end) is found on the chain: its last block is the block before the first one whose
 * timestamp is at or after the UK day's end, by binary search between the neighbouring known days.
 * Block times drift, so it cannot be computed from block numbers.
 */
import { ukDayEndMs } from '../../../time/uk-day.js';
import type { UkTaxYear } from '../../../time/uk-tax-year.js';
import { addDays } from '../../../time/utc-day.js';
import type { LedgerDay } from '../../chain-record/ledger-days.js';
import { BED_AND_BREAKFAST_DAYS } from '../../uk-rules/cgt/compute-gains.js';
import { type PackInputs, PackInputsMissingError } from './pack-inputs.js';

export interface RecordDays {
  /** The end of the earliest collected UK day: holdings then enter the pools at market value. */
  recordOpening: LedgerDay;
  /** The days after the record's opening and before the tax year (pools and income carried forward). */
  before: LedgerDay[];
  /** The end of the day before the tax year (5 April), or the record's opening when it starts later. */
  yearOpening: LedgerDay;
  /** The UK days of the tax year in the record, each after its day before. */
  days: LedgerDay[];
  /** Up to 30 days after the year, read for the 30-day rule only. */
  following: LedgerDay[];
  /** Dates the calendar lacked, whose last block was found on the chain. */
  foundOnChain: string[];
}

/** A block's timestamp in epoch milliseconds. */
export type BlockTime = (block: number) => Promise<number>;

export async function recordDays(
  calendar: PackInputs['calendar'],
  taxYear: UkTaxYear,
  timeOf: BlockTime,
): Promise<RecordDays> {
  const known = new Map<string, LedgerDay>(
    calendar.map((day) => [
      day.date,
      { date: day.date, block: day.last_block, timeMs: Date.parse(day.last_block_time) },
    ]),
  );
  const dates = [...known.keys()].sort();
  const first = dates[0];
  const last = dates[dates.length - 1];
  if (first === undefined || last === undefined || last < taxYear.firstDay || first > taxYear.lastDay) {
    throw new PackInputsMissingError(`no UK day of tax year ${taxYear.label} is collected yet`);
  }
  const recordEnd = recordEndDate(last, taxYear);
  const foundOnChain: string[] = [];
  const all: LedgerDay[] = [known.get(first)!];
  for (let date = addDays(first, 1); date <= recordEnd; date = addDays(date, 1)) {
    let day = known.get(date);
    if (!day) {
      const next = dates.find((d) => d > date)!;
      day = await lastBlockOfUkDay(date, all[all.length - 1]!, known.get(next)!, timeOf);
      foundOnChain.push(date);
    }
    all.push(day);
  }
  const recordOpening = all[0]!;
  const after = all.slice(1);
  const before = after.filter((day) => day.date < taxYear.firstDay);
  return {
    recordOpening,
    before,
    yearOpening: before[before.length - 1] ?? recordOpening,
    days: after.filter((day) => day.date >= taxYear.firstDay && day.date <= taxYear.lastDay),
    following: after.filter((day) => day.date > taxYear.lastDay),
    foundOnChain,
  };
}

/** Past the year, the record runs on only as far as the calendar does (no search beyond its last day). */
function recordEndDate(lastCollected: string, taxYear: UkTaxYear): string {
  return minDate(lastCollected, addDays(taxYear.lastDay, BED_AND_BREAKFAST_DAYS));
}

/**
 * The last blocks of the calendar's days that the record reads as they are (every collected day up to the
 * record's end), known before the events are: their heads can be read while the events are (`recordDays` adds
 * the days it finds on the chain).
 */
export function calendarBlocksOfRecord(calendar: PackInputs['calendar'], taxYear: UkTaxYear): number[] {
  let last: string | undefined;
  for (const day of calendar) if (last === undefined || day.date > last) last = day.date;
  if (last === undefined) return [];
  const recordEnd = recordEndDate(last, taxYear);
  return calendar.filter((day) => day.date <= recordEnd).map((day) => day.last_block);
}

/** The last block before `date`'s UK end, searched between the ends of two known days around it. */
async function lastBlockOfUkDay(
  date: string,
  previous: LedgerDay,
  next: LedgerDay,
  timeOf: BlockTime,
): Promise<LedgerDay> {
  const endMs = ukDayEndMs(date);
  // Invariant: time(lo) < endMs <= time(hi); the previous day's last block is before its end, and so
  // before this one's; the next known day's last block is after this day's end.
  let lo = previous.block;
  let hi = next.block;
  if ((await timeOf(hi)) < endMs) {
    throw new PackInputsMissingError(
      `the chain has no block after the end of ${date} up to block ${hi}: the calendar is inconsistent`,
    );
  }
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if ((await timeOf(mid)) >= endMs) hi = mid;
    else lo = mid;
  }
  return { date, block: lo, timeMs: await timeOf(lo) };
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}
