/**
 * Which position a limit order's alpha went to or came from. `OrderExecuted` names the signer and the subnet
 * but no hotkey (`pallets/limit-orders/src/lib.rs`: the pallet moves the alpha with `transfer_staked_alpha`,
 * which emits nothing), so an order's alpha leg is first a holding of every hotkey of the coldkey there. Read
 * on the chain at the block and the one before: a buy is the position that rose most, a sell the one that fell
 * most. Pinned to one position, a batch that buys and sells on one subnet books each order's own amount.
 */

import { positionId, type StakesAtBlock } from '../stake-at-blocks.js';
import { resolveHolding } from '../touched-positions.js';
import type { EconomicAction } from './economic-action.js';

export function pinLimitOrderHotkeys(
  actions: readonly EconomicAction[],
  stakes: ReadonlyMap<number, StakesAtBlock>,
): void {
  const byBlock = new Map<number, EconomicAction[]>();
  for (const action of actions) {
    if (action.kind === 'limit-order')
      byBlock.set(action.block, [...(byBlock.get(action.block) ?? []), action]);
  }
  for (const [block, orders] of byBlock) {
    const before = stakes.get(block - 1);
    const after = stakes.get(block);
    if (!before || !after) continue;
    const change = (id: string) => (after.stake.get(id) ?? 0n) - (before.stake.get(id) ?? 0n);
    const legs = orders.flatMap((action) =>
      action.legs.flatMap((leg) =>
        leg.asset === 'alpha' && leg.holding.hotkey === null ? [{ action, leg }] : [],
      ),
    );
    // Each position to one order of the block: first the one that moved by exactly the order's amount, then
    // the largest move the right way among those left.
    const taken = new Set<string>();
    const pin = (exact: boolean) => {
      for (const { action, leg } of legs) {
        if (leg.asset !== 'alpha' || leg.holding.hotkey !== null) continue;
        const sign = leg.side === 'acquire' ? 1n : -1n;
        const candidates = resolveHolding(leg.holding, [before, after])
          .map((p) => ({ p, by: change(positionId(p)) * sign }))
          .filter(({ p, by }) => !taken.has(positionId(p)) && by > 0n)
          .filter(({ by }) => !exact || (leg.statedRao !== null && by === leg.statedRao))
          .sort((a, b) => (b.by > a.by ? 1 : b.by < a.by ? -1 : 0));
        const pick = candidates[0];
        if (!pick) continue;
        taken.add(positionId(pick.p));
        const index = action.touches.indexOf(leg.holding);
        leg.holding = { ...leg.holding, hotkey: pick.p.hotkey };
        if (index >= 0) action.touches[index] = leg.holding;
      }
    };
    pin(true);
    pin(false);
  }
}
