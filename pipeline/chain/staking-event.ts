/**
 * A staking event as the chain records it: one `SubtensorModule` event that changes a coldkey's holdings
 * (Stake*, the swaps, recycles and burns, auto-stake, root claims, lease dividends, a fee paid in alpha), a
 * limit order executed for it, a user liquidity position's `Swap` event or its refund by `disable_lp`
 * (`LiquidityRefunded`, the collector's name for that credit), a crowdloan contribution or withdrawal, or a `Balances.Transfer` (the TAO legs of staking to and from a subnet's
 * account among them), decoded by `classify-events.ts`. The one definition of it: the collector passes it to the warehouse
 * unchanged (`staking_events`), and the tax work reads the same shape.
 */
export type StakingKind =
  | 'StakeAdded'
  | 'StakeRemoved'
  | 'StakeMoved'
  | 'StakeTransferred'
  | 'StakeSwapped'
  | 'Transfer'
  | 'HotkeySwapped'
  | 'HotkeySwappedOnSubnet'
  | 'ColdkeySwapped'
  | 'AlphaRecycled'
  | 'AlphaBurned'
  | 'AutoStakeAdded'
  | 'RootClaimed'
  | 'SubnetLeaseDividendsDistributed'
  | 'TransactionFeePaidWithAlpha'
  | 'LimitOrderExecuted'
  | 'LiquidityAdded'
  | 'LiquidityRemoved'
  | 'LiquidityModified'
  | 'LiquidityRefunded'
  | 'CrowdloanContributed'
  | 'CrowdloanWithdrew'
  /** `TransactionPayment.TransactionFeePaid`: a signed call's fee, paid from the signer's free TAO. */
  | 'TransactionFeePaid'
  /** `Balances.Reserved`/`Unreserved`: TAO set aside as a deposit (a proxy's, an identity's) and returned. */
  | 'Reserved'
  | 'Unreserved'
  /** `SubtensorModule.NeuronRegistered` of `burned_register`: the signer and the TAO its registration burned. */
  | 'NeuronRegistered'
  /** `SubtensorModule.NetworkAdded` of `register_network`: the signer (the subnet's owner) and the TAO it locked. */
  | 'NetworkRegistered';

/** Every kind, in the order the contract lists them. */
export const STAKING_KINDS = [
  'StakeAdded',
  'StakeRemoved',
  'StakeMoved',
  'StakeTransferred',
  'StakeSwapped',
  'Transfer',
  'HotkeySwapped',
  'HotkeySwappedOnSubnet',
  'ColdkeySwapped',
  'AlphaRecycled',
  'AlphaBurned',
  'AutoStakeAdded',
  'RootClaimed',
  'SubnetLeaseDividendsDistributed',
  'TransactionFeePaidWithAlpha',
  'LimitOrderExecuted',
  'LiquidityAdded',
  'LiquidityRemoved',
  'LiquidityModified',
  'LiquidityRefunded',
  'CrowdloanContributed',
  'CrowdloanWithdrew',
  'TransactionFeePaid',
  'Reserved',
  'Unreserved',
  'NeuronRegistered',
  'NetworkRegistered',
] as const satisfies readonly StakingKind[];

export interface StakingEvent {
  block: number;
  eventIndex: number;
  extrinsicIndex: number | null;
  /** Milliseconds since the epoch (the block's Timestamp.Now). */
  blockTime: number;
  kind: StakingKind;
  coldkey: string;
  hotkey: string | null;
  netuid: number | null;
  taoRao: bigint | null;
  alphaRao: bigint | null;
  /** Fields that do not fit the common columns (destinations, fees), JSON-safe (amounts as strings). */
  detail: Record<string, string | number> | null;
}
