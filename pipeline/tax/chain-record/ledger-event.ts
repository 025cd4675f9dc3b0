// Shared by cgt-transactions.ts and actions/: here so those modules need not import each other (no cycle).
import type { ColdkeyEvent } from '../../contract/tax-published.js';

/**
 * The pack's own record of a holding the chain's AlphaV2 migration deleted (spec 473): the chain emits no event
 * naming its holder, so the pack names it, found on the chain (`actions/locate-sweep.ts`).
 */
export const ALPHA_V2_SWEEP = 'AlphaV2Migration' as const;

/** A staking event with the coldkey of the order whose record it is in. */
export interface LedgerEvent extends Omit<ColdkeyEvent, 'kind'> {
  coldkey: string;
  kind: ColdkeyEvent['kind'] | typeof ALPHA_V2_SWEEP;
  /**
   * LiquidityRefunded: the coldkey's positions on the subnet that the record shows open when the chain closed
   * them (their `LiquidityAdded` less any `LiquidityRemoved`/`LiquidityModified`), found by `groupEvents`.
   */
  refunded_positions?: Array<{ position_id: string; liquidity: string }>;
  /**
   * A dissolved subnet's credit that is its owner's lock refund: the registration it refunds
   * (`subnet-lock:<netuid>:<block>`), found by `groupEvents` (`actions/network-lock-actions.ts`).
   */
  lock_refund?: string;
}

/** How a row names an event: `kind block/index`, or `kind block` for the pack's own rows (no chain event). */
export function eventLabel(event: Pick<LedgerEvent, 'kind' | 'block' | 'event_index'>): string {
  return event.event_index < 0
    ? `${event.kind} ${event.block}`
    : `${event.kind} ${event.block}/${event.event_index}`;
}
