/**
 * Everything a pack shows, computed from its published inputs and the chain: the tax year's UK days, the
 * positions, the stake reads, the income ledger, the events as capital gains transactions, and the gains.
 */
import type { ChainReader } from '../../chain/chain-reader.js';
import { addDays } from '../../time/utc-day.js';
import type { CgtReport } from '../cgt/cgt-types.js';
import { computeGains } from '../cgt/compute-gains.js';
import { type CgtMapping, cgtTransactions, type LedgerEvent, positionsOf } from '../cgt-transactions.js';
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
  positions: PositionRef[];
  /** Stake per position at each day's end, the opening included. */
  stakes: Map<number, StakesAtBlock>;
  income: IncomeRow[];
  mapping: CgtMapping;
  gains: CgtReport;
  prices: GbpPrices;
}

export async function computePackLedger(
  inputs: PackInputs,
  coldkeys: readonly string[],
  reader: ChainReader,
  concurrency = PACK_READ_CONCURRENCY,
): Promise<PackLedger> {
  const { opening, days } = yearDays(inputs);
  const order = new Set(coldkeys);
  const lastBlock = days.length > 0 ? days[days.length - 1]!.block : opening.block;
  const events: LedgerEvent[] = inputs.events.filter((e) => e.block > opening.block && e.block <= lastBlock);

  const positions = new Map<string, PositionRef>();
  const note = (position: PositionRef) => positions.set(positionId(position), position);
  for (const coldkey of coldkeys) {
    for (const position of await positionsAtBlock(reader, coldkey, opening.block)) note(position);
  }
  const eventBlocks = new Map<string, number[]>();
  for (const event of events) {
    for (const position of positionsOf(event, order)) {
      note(position);
      const id = positionId(position);
      eventBlocks.set(id, [...new Set([...(eventBlocks.get(id) ?? []), event.block])]);
    }
  }
  const ordered = [...positions.values()].sort(
    (a, b) => cmp(a.coldkey, b.coldkey) || a.netuid - b.netuid || cmp(a.hotkey, b.hotkey),
  );
  const blocks = [
    opening.block,
    ...days.map((day) => day.block),
    ...events.flatMap((event) => [event.block - 1, event.block]),
  ];
  const stakes = await readStakesAtBlocks(reader, ordered, coldkeys, blocks, concurrency);
  const prices = new GbpPrices(inputs.fiat);
  const income = incomeLedger(ordered, opening, days, stakes, eventBlocks, prices);
  const mapping = cgtTransactions({
    coldkeys: order,
    opening,
    events,
    income,
    days,
    positions: ordered,
    stakes,
    prices,
  });
  return {
    coldkeys: [...coldkeys],
    opening,
    days,
    positions: ordered,
    stakes,
    income,
    mapping,
    gains: computeGains(mapping.transactions),
    prices,
  };
}

/**
 * The opening day and the income days of the tax year from the calendar. The record opens at the end of
 * 5 April when that day is collected; otherwise at the end of the year's first collected day (the pack
 * says so). A day missing in the middle would hide a day's income: the pack refuses to be built.
 */
export function yearDays(inputs: PackInputs): { opening: LedgerDay; days: LedgerDay[] } {
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
  return { opening, days };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
