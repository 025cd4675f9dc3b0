/**
 * A pack's actions treated while its stake reads arrive. The reads are most of a big pack's time and leave
 * the build's thread idle (the node, not the build, is the bound); treating each block's actions as soon as
 * the reads at the block and the block before have arrived does then what `cgtTransactions` would do after
 * the last read, and it takes those treatments as they are when the block's actions are still the same.
 *
 * Left to `cgtTransactions`: a block with a limit order or a key swap (their actions are settled from all the
 * reads: which hotkey an order's alpha went to, which positions a swap paired), one whose actions changed
 * (a move found on the chain later), and one whose treatment failed here (it fails there, where it stops the
 * pack as it always did).
 */
import type { EconomicAction } from '../chain-record/actions/economic-action.js';
import type { StakesAtBlock } from '../chain-record/stake-at-blocks.js';
import { gbpAtDayEnd, type TreatedBlock, treatBlock } from '../uk-rules/cgt/cgt-transactions.js';
import type { GbpPrices } from '../uk-rules/gbp-prices.js';

export interface BlocksTreatedAhead {
  /** Called with each stake read as it arrives. */
  onRead(read: StakesAtBlock): void;
  /** The blocks treated so far. */
  treated: ReadonlyMap<number, TreatedBlock>;
}

/** `onTreated`: told each block treated. */
export function treatBlocksAhead(
  actions: readonly EconomicAction[],
  prices: GbpPrices,
  onTreated?: (block: TreatedBlock) => void,
): BlocksTreatedAhead {
  const byBlock = new Map<number, EconomicAction[]>();
  for (const action of actions) {
    const list = byBlock.get(action.block);
    if (list) list.push(action);
    else byBlock.set(action.block, [action]);
  }
  const settledLater = (list: readonly EconomicAction[]) =>
    list.some((action) => action.kind === 'limit-order' || action.swap !== undefined);
  const reads = new Map<number, StakesAtBlock>();
  const treated = new Map<number, TreatedBlock>();
  const gbpOf = gbpAtDayEnd(prices);
  const treat = (block: number) => {
    const list = byBlock.get(block);
    const after = reads.get(block);
    const before = reads.get(block - 1);
    if (!list || !after || !before || treated.has(block) || settledLater(list)) return;
    let made: TreatedBlock;
    try {
      made = treatBlock([...list], after, before, gbpOf);
    } catch {
      // Treated again after the reads, where the same failure stops the pack.
      return;
    }
    treated.set(block, made);
    onTreated?.(made);
  };
  return {
    onRead(read) {
      reads.set(read.block, read);
      treat(read.block);
      treat(read.block + 1);
    },
    treated,
  };
}
