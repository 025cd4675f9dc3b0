/**
 * A record's stakes by day and position across to the pack's thread, for `positions.csv`: the stakes as one
 * typed array (transferred, not copied), the days and positions as plain lists. The staker in 100 subnets has
 * 73,000 position-days: some milliseconds to make on the build's thread, a quarter of a second of rendering
 * off it.
 */
import type { PositionDays } from '../positions-csv.js';

export interface PositionDaysWire {
  dates: string[];
  blocks: number[];
  positions: Array<{ coldkey: string; hotkey: string; netuid: number }>;
  /** Day by day, each day's stake of every position, in RAO. */
  stakes: BigUint64Array;
  /** The run's subnet names, by netuid. */
  names: Array<[number, string]>;
}

/** A stake a 64-bit word cannot hold (none on the chain: alpha's supply is far below it). */
export class StakeCannotCross extends Error {
  override name = 'StakeCannotCross';
}

const WORD = 1n << 64n;

export function toPositionDaysWire(
  table: PositionDays,
  names: ReadonlyMap<number, string>,
): { wire: PositionDaysWire; transfer: ArrayBuffer[] } {
  const width = table.positions.length;
  const stakes = new BigUint64Array(table.days.length * width);
  for (let d = 0; d < table.days.length; d++) {
    for (let p = 0; p < width; p++) {
      const stake = table.stakeAt(d, p);
      if (stake < 0n || stake >= WORD) throw new StakeCannotCross(`a stake of ${stake} RAO`);
      stakes[d * width + p] = stake;
    }
  }
  const wire: PositionDaysWire = {
    dates: table.days.map((day) => day.date),
    blocks: table.days.map((day) => day.block),
    positions: table.positions.map(({ coldkey, hotkey, netuid }) => ({ coldkey, hotkey, netuid })),
    stakes,
    names: [...names],
  };
  return { wire, transfer: [stakes.buffer as ArrayBuffer] };
}

export function fromPositionDaysWire(wire: PositionDaysWire): {
  table: PositionDays;
  names: Map<number, string>;
} {
  const width = wire.positions.length;
  return {
    table: {
      days: wire.dates.map((date, d) => ({ date, block: wire.blocks[d]! })),
      positions: wire.positions,
      stakeAt: (day, position) => wire.stakes[day * width + position]!,
    },
    names: new Map(wire.names),
  };
}
