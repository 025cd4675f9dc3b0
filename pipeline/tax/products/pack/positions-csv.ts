/**
 * `positions.csv`: each position's stake at the end of the year's opening and of each of its days, one row a
 * position held that day. Made from a table of stakes by day and position, so that a big pack's second thread
 * can render it from typed arrays (`thread/position-days-wire.ts`) while the build's thread goes on; it loads
 * no chain code.
 */
import { fixedToText } from '../../../amounts/rao.js';
import { csv, type Field } from './csv-text.js';

/** A chain record's positions, its days (the year's opening first) and each one's stake on each day. */
export interface PositionDays {
  days: ReadonlyArray<{ date: string; block: number }>;
  positions: ReadonlyArray<{ coldkey: string; hotkey: string; netuid: number }>;
  /** The stake of `positions[position]` at the end of `days[day]` (RAO). */
  stakeAt(day: number, position: number): bigint;
}

export const POSITION_COLUMNS = ['date', 'block', 'coldkey', 'hotkey', 'netuid', 'subnet', 'alpha'] as const;

/** A subnet's name as the pack's CSVs give it (root for netuid 0, empty when the run names none). */
export function subnetName(names: ReadonlyMap<number, string>, netuid: number): string {
  return netuid === 0 ? 'root' : (names.get(netuid) ?? '');
}

export function positionsCsvOf(table: PositionDays, names: ReadonlyMap<number, string>): string {
  function* rows(): Iterable<Field[]> {
    for (const [d, day] of table.days.entries()) {
      for (const [p, position] of table.positions.entries()) {
        const stake = table.stakeAt(d, p);
        if (stake === 0n) continue;
        yield [
          day.date,
          day.block,
          position.coldkey,
          position.hotkey,
          position.netuid,
          subnetName(names, position.netuid),
          fixedToText(stake, 9),
        ];
      }
    }
  }
  return csv(POSITION_COLUMNS, rows());
}

/** The file's bytes (UTF-8, in a buffer of its own: a thread can hand it over). */
export function positionsFile(table: PositionDays, names: ReadonlyMap<number, string>): Uint8Array {
  return new TextEncoder().encode(positionsCsvOf(table, names));
}
