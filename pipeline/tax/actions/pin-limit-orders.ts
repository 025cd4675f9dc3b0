/**
 * Which position a limit order's alpha went to or came from. `OrderExecuted` names the signer and the subnet
 * but no hotkey (`pallets/limit-orders/src/lib.rs`: the pallet moves the alpha with `transfer_staked_alpha`,
 * which emits nothing), so an order's alpha leg is first a holding of every hotkey of the coldkey there. Read
 * on the chain at the block and the one before: a buy is the position that rose most, a sell the one that fell
 * most. Pinned to one position, a batch that buys and sells on one subnet books each order's own amount.
 */

import { resolveHolding } from '../cgt-transactions.js';
import { positionId, type StakesAtBlock } from '../stake-at-blocks.js';
import type { EconomicAction } from './economic-action.js';

export function pinLimitOrderHotkeys(
  actions: readonly EconomicAction[],
  stakes: ReadonlyMap<number, StakesAtBlock>,
): void {
  for (const action of actions) {
    if (action.kind !== 'limit-order') continue;
    const before = stakes.get(action.block - 1);
    const after = stakes.get(action.block);
    if (!before || !after) continue;
    for (const leg of action.legs) {
      if (leg.asset !== 'alpha' || leg.holding.hotkey !== null) continue;
      const change = (id: string) => (after.stake.get(id) ?? 0n) - (before.stake.get(id) ?? 0n);
      const candidates = resolveHolding(leg.holding, [before, after]).map((p) => ({
        p,
        by: change(positionId(p)),
      }));
      const pick = candidates.sort((a, b) =>
        leg.side === 'acquire'
          ? b.by > a.by
            ? 1
            : b.by < a.by
              ? -1
              : 0
          : a.by < b.by
            ? -1
            : a.by > b.by
              ? 1
              : 0,
      )[0];
      if (!pick) continue;
      const index = action.touches.indexOf(leg.holding);
      leg.holding = { ...leg.holding, hotkey: pick.p.hotkey };
      if (index >= 0) action.touches[index] = leg.holding;
    }
  }
}
