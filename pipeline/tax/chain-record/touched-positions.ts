/**
 * Which positions an action touches at its block. An event names a holding; a holding of every hotkey (a fee
 * in alpha, a dissolution, a limit order, whose events name no hotkey) is each position of that coldkey on the
 * subnet (or on every subnet) the chain shows at the reads given. Chain facts only: the CGT mapping, the pack's
 * stake reads and the limit-order pinning all resolve holdings this one way.
 */
import { ALL_SUBNETS, type AlphaHolding, type EconomicAction } from './actions/economic-action.js';
import { type PositionRef, positionId, type StakesAtBlock } from './stake-at-blocks.js';

/**
 * The positions an action touches at its block, by id: each holding's own position, and for a holding of
 * every hotkey (a fee in alpha, a dissolution, a limit order) each position of that coldkey on the subnet the
 * chain shows before or after the block.
 */
export function touchedPositions(
  action: EconomicAction,
  before: StakesAtBlock,
  after: StakesAtBlock,
): Map<string, PositionRef> {
  const found = new Map<string, PositionRef>();
  for (const holding of action.touches) {
    for (const position of resolveHolding(holding, [before, after]))
      found.set(positionId(position), position);
  }
  return found;
}

/** The positions one holding names at the reads given. */
export function resolveHolding(holding: AlphaHolding, reads: readonly StakesAtBlock[]): PositionRef[] {
  if (holding.netuid < 0 && holding.netuid !== ALL_SUBNETS) return [];
  if (holding.hotkey !== null)
    return [{ coldkey: holding.coldkey, hotkey: holding.hotkey, netuid: holding.netuid }];
  const found = new Map<string, PositionRef>();
  for (const read of reads) {
    for (const position of read.held) {
      if (
        position.coldkey === holding.coldkey &&
        (position.netuid === holding.netuid || holding.netuid === ALL_SUBNETS)
      ) {
        found.set(positionId(position), position);
      }
    }
  }
  return [...found.values()];
}
