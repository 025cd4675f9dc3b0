// Positions and holding-change kinds, shared by stakers.ts and spec-425-life.ts without a cycle.
import type { Account } from './accounts.js';

export type StakingKind =
  | 'StakeAdded'
  | 'StakeRemoved'
  | 'StakeMoved'
  | 'StakeTransferred'
  | 'StakeSwapped'
  | 'Transfer';

/**
 * What else changes a holding in spec 425, scripted for the demo coldkey once in
 * the sandbox's history (`#lifeDrafts`): each is one extrinsic, or for `AutoStakeAdded` one epoch event.
 */
export type LifeKind =
  | 'HotkeySwapped'
  | 'ColdkeySwapped'
  | 'NetworkRemoved'
  | 'AlphaRecycled'
  | 'AutoStakeAdded'
  | 'RootClaimed'
  | 'SubnetLeaseDividendsDistributed'
  | 'IncentiveAlphaEmittedToMiners'
  /** Spec 473: one block of the AlphaV2 migration's `on_idle` work (phase Finalization, no extrinsic). */
  | 'AlphaV2Migration'
  /** Spec 473: one `LimitOrders.execute_batched_orders` filling a buy and a sell order of one signer. */
  | 'LimitOrdersExecuted'
  /** The 2025/26 life's user liquidity, crowdloans and a lease dividend credited as TAO (world/user-liquidity.ts). */
  | 'LiquidityAdded'
  | 'LiquidityRemoved'
  | 'LiquidityRefunded'
  | 'CrowdloanContributed'
  | 'CrowdloanRefunded'
  | 'LeaseDividendsCredited';

/** A position: a coldkey's stake through one hotkey on one subnet. */
export interface Position {
  hotkey: Account;
  netuid: number;
  /** `hotkeyIndex:netuid`, the share pool it belongs to. */
  pool: string;
}
