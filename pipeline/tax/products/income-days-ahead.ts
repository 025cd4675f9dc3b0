/**
 * A pack's income rows of each UK day computed while its stake reads arrive. The reads leave the build's
 * thread idle (the node is the bound), so each day is worked out as soon as every block it needs is in: the
 * previous day's last block, its own, and each of its actions' blocks and the blocks before them. What is
 * computed is exactly what the income ledger computes for that day after the last read:
 *   - the positions each action touches (`touchedPositions`, which the ledger's event blocks come from);
 *   - the day's rows (`incomeLedger` for the one day), over the positions known then: the ones asked for,
 *     those the day's reads report and those its actions touch. A position found later holds nothing at the
 *     day's reads (the chain would have reported it), so it has no row that day;
 *   - the rows netted across hotkeys (`netAcrossHotkeys` groups a subnet's rows of one day);
 *   - the netted rows as capital gains transactions (`incomeOfRows`: an acquisition per asset, and the flags).
 *
 * Left to after the reads: a day with a limit order or a key swap (settled from all the reads), one an action
 * found on the chain later falls in (`forget`), and one whose computation failed here (it fails there too,
 * where it stops the pack as it always did).
 */
import type { EconomicAction } from '../chain-record/actions/economic-action.js';
import type { HoldingMove, LedgerDay } from '../chain-record/ledger-days.js';
import {
  comparePositions,
  type PositionRef,
  positionId,
  type StakesAtBlock,
} from '../chain-record/stake-at-blocks.js';
import { touchedPositions } from '../chain-record/touched-positions.js';
import { type IncomeTransactions, incomeOfRows } from '../uk-rules/cgt/cgt-transactions.js';
import type { GbpPrices } from '../uk-rules/gbp-prices.js';
import { dayOf, type IncomeRow, incomeLedger, netAcrossHotkeys } from '../uk-rules/income-ledger.js';

/** One UK day's income as the ledger gives it, before and after netting. */
export interface IncomeDay {
  rows: IncomeRow[];
  netted: IncomeRow[];
  moves: HoldingMove[];
}

export interface IncomeDaysAhead {
  /** Called with each stake read as it arrives (in any order). */
  onRead(read: StakesAtBlock): void;
  /** The positions each action of a day worked out touches (the ledger's event blocks). */
  touched: ReadonlyMap<EconomicAction, Map<string, PositionRef>>;
  /** The days worked out, by date. */
  days: ReadonlyMap<string, IncomeDay>;
  /** The days' netted rows as transactions, by date (a day whose transactions failed here has none). */
  transactions: ReadonlyMap<string, IncomeTransactions>;
  /** Drops the days the given blocks fall in (an action found there later changes them). */
  forget(blocks: readonly number[]): void;
}

/**
 * `opening` is the end of the day before `days[0]`; `asked` the positions the reads ask for (each block's read
 * gives 0 for those the chain does not report); `onDay` is told each day's netted rows once worked out.
 */
export function incomeDaysAhead(
  opening: LedgerDay,
  days: readonly LedgerDay[],
  actions: readonly EconomicAction[],
  asked: readonly PositionRef[],
  prices: GbpPrices,
  onDay?: (date: string, netted: readonly IncomeRow[]) => void,
): IncomeDaysAhead {
  const dayActions = days.map((): EconomicAction[] => []);
  for (const action of actions) {
    const d = dayOf(action.block, opening, days);
    if (d >= 0) dayActions[d]!.push(action);
  }
  // Per day, the blocks it waits for; per block, the days waiting for it.
  const wantedBlocks = days.map((day, d) => {
    const wanted = new Set([d === 0 ? opening.block : days[d - 1]!.block, day.block]);
    for (const action of dayActions[d]!) wanted.add(action.block - 1).add(action.block);
    return [...wanted];
  });
  const missing = wantedBlocks.map((wanted) => new Set(wanted));
  const waiting = new Map<number, number[]>();
  missing.forEach((wanted, d) => {
    for (const block of wanted) waiting.set(block, [...(waiting.get(block) ?? []), d]);
  });
  const settledLater = (list: readonly EconomicAction[]) =>
    list.some((action) => action.kind === 'limit-order' || action.swap !== undefined);
  const reads = new Map<number, StakesAtBlock>();
  const touched = new Map<EconomicAction, Map<string, PositionRef>>();
  const worked = new Map<string, IncomeDay>();
  const transactions = new Map<string, IncomeTransactions>();

  const workOut = (d: number) => {
    const day = days[d]!;
    const previous = d === 0 ? opening : days[d - 1]!;
    const list = dayActions[d]!;
    if (settledLater(list)) return;
    const known = new Map(asked.map((position) => [positionId(position), position]));
    // Each of the day's reads once (a daily auto-stake is a hundred actions in one block).
    for (const block of wantedBlocks[d]!) {
      for (const position of reads.get(block)!.held) known.set(positionId(position), position);
    }
    const eventBlocks = new Map<string, number[]>();
    try {
      for (const action of list) {
        const before = reads.get(action.block - 1)!;
        const after = reads.get(action.block)!;
        const positions = touchedPositions(action, before, after);
        touched.set(action, positions);
        for (const [id, position] of positions) {
          known.set(id, position);
          const listed = eventBlocks.get(id);
          if (!listed) eventBlocks.set(id, [action.block]);
          else if (!listed.includes(action.block)) listed.push(action.block);
        }
      }
      const ordered = [...known.values()].sort(comparePositions);
      const rows = incomeLedger(ordered, previous, [day], reads, eventBlocks, prices);
      const netted = netAcrossHotkeys(rows);
      worked.set(day.date, { rows, netted: netted.rows, moves: netted.moves });
    } catch {
      // Worked out again after the reads, where the same failure stops the pack.
      return;
    }
    const { netted } = worked.get(day.date)!;
    try {
      transactions.set(day.date, incomeOfRows(netted, [day], reads));
    } catch {
      // Made again after the reads, where the same failure stops the pack.
    }
    onDay?.(day.date, netted);
  };

  return {
    onRead(read) {
      reads.set(read.block, read);
      for (const d of waiting.get(read.block) ?? []) {
        const wanted = missing[d]!;
        wanted.delete(read.block);
        if (wanted.size === 0) workOut(d);
      }
    },
    touched,
    days: worked,
    transactions,
    forget(blocks) {
      for (const block of blocks) {
        const d = dayOf(block, opening, days);
        if (d < 0) continue;
        worked.delete(days[d]!.date);
        transactions.delete(days[d]!.date);
        for (const action of dayActions[d]!) touched.delete(action);
      }
    },
  };
}
