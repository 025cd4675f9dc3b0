/**
 * Everything a pack shows, computed from its published inputs and the chain: the tax year's UK days, the
 * positions, the stake reads, the income ledger, the events as capital gains transactions, and the gains.
 *
 * The record runs on past the year's end by up to 30 UK days when they are collected: HMRC's 30-day rule
 * (CRYPTO22254) matches a disposal with acquisitions of the 30 days after it, and staking income is an
 * acquisition every day, so a March disposal's cost depends on April's income. Those days feed the gains
 * engine only; the pack shows the year's income, events, disposals and its closing pools (at 5 April).
 */
import type { ChainReader } from '../../chain/chain-reader.js';
import { ukDayEndMs } from '../../time/uk-day.js';
import { addDays } from '../../time/utc-day.js';
import type { CgtDisposal, CgtPool, CgtReport } from '../cgt/cgt-types.js';
import { BED_AND_BREAKFAST_DAYS, computeGains } from '../cgt/compute-gains.js';
import {
  type CgtMapping,
  cgtTransactions,
  type LedgerEvent,
  type PackFlag,
  positionsOf,
} from '../cgt-transactions.js';
import { GbpPrices } from '../gbp-prices.js';
import { type IncomeRow, incomeLedger, type LedgerDay } from '../income-ledger.js';
import {
  type PositionRef,
  positionId,
  positionsAtBlock,
  readStakesAtBlocks,
  type StakesAtBlock,
} from '../stake-at-blocks.js';
import { type PackInputs, PackInputsMissingError } from './pack-inputs.js';

/** Blocks read at once: enough to hide a remote node's latency, few enough not to flood it. */
export const PACK_READ_CONCURRENCY = 32;

export interface PackLedger {
  coldkeys: string[];
  /** The day whose end the record opens at (the day before the tax year, or its first collected day). */
  opening: LedgerDay;
  /** The UK days of the tax year with income computed (each after its day before). */
  days: LedgerDay[];
  /** The collected UK days after the year (up to 30) read for the 30-day rule only. */
  following: LedgerDay[];
  /** The positions of the year (held at the opening or touched by the year's events). */
  positions: PositionRef[];
  /** Stake per position at each day's end, the opening and the following days included. */
  stakes: Map<number, StakesAtBlock>;
  /** The year's income rows. */
  income: IncomeRow[];
  /** The transactions of the whole record (the following days too); the events and flags of the year. */
  mapping: CgtMapping;
  /** The engine's report on the whole record. */
  gains: CgtReport;
  /** The disposals of the tax year. */
  disposals: CgtDisposal[];
  /** The section 104 pools at the end of the year's last day in the record. */
  closingPools: CgtPool[];
  prices: GbpPrices;
}

export async function computePackLedger(
  inputs: PackInputs,
  coldkeys: readonly string[],
  reader: ChainReader,
  concurrency = PACK_READ_CONCURRENCY,
): Promise<PackLedger> {
  const { opening, days, following } = yearDays(inputs);
  const order = new Set(coldkeys);
  const yearEnd = days.length > 0 ? days[days.length - 1]! : opening;
  const recordEnd = following.length > 0 ? following[following.length - 1]! : yearEnd;
  const events: LedgerEvent[] = inputs.events.filter(
    (e) => e.block > opening.block && e.block <= recordEnd.block,
  );

  const positions = new Map<string, PositionRef>();
  const yearPositions = new Set<string>();
  const note = (position: PositionRef, inYear: boolean) => {
    positions.set(positionId(position), position);
    if (inYear) yearPositions.add(positionId(position));
  };
  for (const coldkey of coldkeys) {
    for (const position of await positionsAtBlock(reader, coldkey, opening.block)) note(position, true);
  }
  const eventBlocks = new Map<string, number[]>();
  for (const event of events) {
    for (const position of positionsOf(event, order)) {
      note(position, event.block <= yearEnd.block);
      const id = positionId(position);
      eventBlocks.set(id, [...new Set([...(eventBlocks.get(id) ?? []), event.block])]);
    }
  }
  const ordered = [...positions.values()].sort(
    (a, b) => cmp(a.coldkey, b.coldkey) || a.netuid - b.netuid || cmp(a.hotkey, b.hotkey),
  );
  const recordDays = [...days, ...following];
  const blocks = [
    opening.block,
    ...recordDays.map((day) => day.block),
    ...events.flatMap((event) => [event.block - 1, event.block]),
  ];
  const stakes = await readStakesAtBlocks(reader, ordered, coldkeys, blocks, concurrency);
  const prices = new GbpPrices(inputs.fiat);
  const income = incomeLedger(ordered, opening, recordDays, stakes, eventBlocks, prices);
  const mapping = cgtTransactions({
    coldkeys: order,
    opening,
    events,
    income,
    days: recordDays,
    positions: ordered,
    stakes,
    prices,
  });
  const gains = computeGains(mapping.transactions);
  const label = inputs.taxYear.label;
  const disposals = gains.disposals.filter((d) => d.taxYear === label);
  const flags: PackFlag[] = mapping.flags.filter((flag) => flag.date <= yearEnd.date);
  const lastDisposal = disposals[disposals.length - 1];
  if (lastDisposal && recordEnd.date < addDays(lastDisposal.date, BED_AND_BREAKFAST_DAYS)) {
    flags.push({
      date: lastDisposal.date,
      kind: 'provisional',
      text: `The record ends on ${recordEnd.date}, less than ${BED_AND_BREAKFAST_DAYS} days after the disposals of ${addDays(recordEnd.date, -BED_AND_BREAKFAST_DAYS + 1)} to ${lastDisposal.date}: acquisitions after ${recordEnd.date} (staking income included) can still be matched with them under the 30-day rule. Those disposals' costs are provisional; a pack built after ${addDays(lastDisposal.date, BED_AND_BREAKFAST_DAYS)} gives final figures.`,
    });
  }
  return {
    coldkeys: [...coldkeys],
    opening,
    days,
    following,
    positions: ordered.filter((position) => yearPositions.has(positionId(position))),
    stakes,
    income: income.filter((row) => row.date <= yearEnd.date),
    mapping: {
      transactions: mapping.transactions,
      events: mapping.events.filter((treated) => treated.event.block <= yearEnd.block),
      flags,
    },
    gains,
    disposals,
    closingPools: closingPools(gains, label, mapping, yearEnd.date),
    prices,
  };
}

/**
 * The pools at the end of the year's last day. The engine gives them with each tax year that has disposals;
 * a year without any matched nothing, so its pools are every acquisition up to its end.
 */
function closingPools(gains: CgtReport, label: string, mapping: CgtMapping, lastDate: string): CgtPool[] {
  const year = gains.taxYears.find((y) => y.taxYear === label);
  if (year) return year.closingPools;
  const end = ukDayEndMs(lastDate);
  return computeGains(mapping.transactions.filter((tx) => tx.at.getTime() < end)).pools;
}

/**
 * The opening day and the income days of the tax year from the calendar. The record opens at the end of
 * 5 April when that day is collected; otherwise at the end of the year's first collected day (the pack
 * says so). A day missing in the middle would hide a day's income: the pack refuses to be built.
 */
export function yearDays(inputs: PackInputs): {
  opening: LedgerDay;
  days: LedgerDay[];
  following: LedgerDay[];
} {
  const { taxYear } = inputs;
  const toDay = (day: PackInputs['calendar'][number]): LedgerDay => ({
    date: day.date,
    block: day.last_block,
    timeMs: Date.parse(day.last_block_time),
  });
  const eve = inputs.calendar.find((day) => day.date === addDays(taxYear.firstDay, -1));
  const inYear = inputs.calendar
    .filter((day) => day.date >= taxYear.firstDay && day.date <= taxYear.lastDay)
    .map(toDay);
  if (inYear.length === 0) {
    throw new PackInputsMissingError(`no UK day of tax year ${taxYear.label} is collected yet`);
  }
  const opening = eve ? toDay(eve) : inYear[0]!;
  const days = eve ? inYear : inYear.slice(1);
  let previous = opening;
  for (const day of days) {
    if (day.date !== addDays(previous.date, 1)) {
      throw new PackInputsMissingError(
        `the published calendar has no day between ${previous.date} and ${day.date}: the pack waits until those days are collected`,
      );
    }
    previous = day;
  }
  // The days after the year, as far as they run on without a gap.
  const following: LedgerDay[] = [];
  const byDate = new Map(inputs.calendar.map((day) => [day.date, day]));
  for (let i = 1; previous.date === taxYear.lastDay && i <= BED_AND_BREAKFAST_DAYS; i++) {
    const day = byDate.get(addDays(taxYear.lastDay, i));
    if (!day) break;
    following.push(toDay(day));
  }
  return { opening, days, following };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
