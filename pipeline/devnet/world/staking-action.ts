// The staking world's records, shared by stakers.ts, the migration and limit-order modules, block events
// and the truth without a cycle.
import type { Account } from './accounts.js';
import type { LimitOrderBatch } from './limit-orders.js';
import type { LifeKind, Position, StakingKind } from './position.js';
import type { WorldEvent } from './world-event.js';

/** One TAO payout of a dissolution to a tracked holder (`destroy_alpha_in_out_stakes`). */
export interface DissolutionPayout {
  staker: Staker;
  /** The holder's alpha destroyed, by pool key. */
  alpha: Map<string, bigint>;
  tao: bigint;
}

/** One staking extrinsic of a tracked coldkey (buyback stakes live in the burn schedule). */
export interface StakingAction {
  block: number;
  kind: StakingKind | LifeKind | TaoMechanismKind | EvmStakingKind;
  coldkey: Account;
  hotkey: Account | null;
  netuid: number | null;
  /** TAO moved (for moves, transfers and swaps the TAO value, as the chain's events carry). */
  tao: bigint;
  /** Alpha staked or unstaked (StakeAdded/StakeRemoved only). */
  alpha: bigint | null;
  fee: bigint;
  destColdkey: Account | null;
  destHotkey: Account | null;
  destNetuid: number | null;
  /** Spec 425 on: alpha bought on the destination subnet by a move, swap or transfer across subnets. */
  destAlpha?: bigint;
  /** Spec 425 on: the transaction fee taken in alpha from the call's position (with `feeTao`, its TAO). */
  alphaFee?: bigint;
  feeTao?: bigint;
  /** A world placed by date: the TAO fee the coldkey paid for this signed call from its free TAO (tao-fees.ts). */
  taoFee?: bigint;
  /** NetworkRemoved: the TAO each tracked holder was paid (in payout order). */
  payouts?: DissolutionPayout[];
  /** IncentiveAlphaEmittedToMiners: the subnet's incentive by UID (the coldkey's miner at `minerUid`). */
  incentives?: { emissions: bigint[]; minerUid: number };
  /** SubnetLeaseDividendsDistributed: the lease and the coldkey the alpha came from. */
  lease?: { id: number; coldkey: Account };
  /** LimitOrdersExecuted: the batch (both orders, their amounts, fees and events). */
  limitOrders?: LimitOrderBatch;
  /** AlphaV2Migration: what the migration did in this block (rows settled, burn, completion). */
  migration?: MigrationBlock;
  /** HotkeySwapped: the swapped hotkey's validator index and the new one's. */
  hotkeySwap?: { from: number; to: number };
  /** A step of the demo coldkey's 2025/26 life, on the runtime of its date (world/dated-life.ts). */
  dated?: true;
  /** LiquidityAdded, LiquidityRemoved, LiquidityRefunded: the position and its amounts (world/user-liquidity.ts). */
  liquidity?: LiquidityFill;
  /** CrowdloanContributed, CrowdloanRefunded: the crowdloan (`tao` is the amount). */
  crowdloan?: CrowdloanMove;
  /** NewMultisig, MultisigExecuted (world/held-deposits.ts): the multisig account, its call, its timepoint. */
  multisig?: { account: Uint8Array; callHash: Uint8Array; timepoint: { height: number; index: number } };
}

export interface Staker {
  index: number;
  coldkey: Account;
  demo: boolean;
  /** Every position the coldkey can hold (its drawn ones, then any spec 425's life adds). */
  positions: Position[];
  /** The positions random staking actions are drawn from (the world as before spec 425). */
  drawable: Position[];
  /** Distinct hotkeys in first-use order: `StakingHotkeys`. */
  hotkeys: Account[];
}

/** One position the migration settled: deleted (dust) or unstaked to its coldkey (a small legacy row). */
export interface SweptRow {
  staker: Staker;
  hotkey: Account;
  netuid: number;
  pool: string;
  kind: 'deleted' | 'unstaked';
  /** Whether it was a V1 (`Alpha`) row when the migration reached it. */
  legacy: boolean;
  /** The position's alpha when settled (taken off `TotalHotkeyAlpha`). */
  alpha: bigint;
  /** Deleted: the TAO value burned; unstaked: the TAO paid to the coldkey. */
  tao: bigint;
  /** The events it emitted (phase Finalization), in order. */
  events: WorldEvent[];
}

/** What one block of the migration did. */
export interface MigrationBlock {
  rows: SweptRow[];
  /** `flush_burn` at the block's end: the dust's TAO moved from root's account to the burn account. */
  burned: bigint;
  burnEvent: WorldEvent | null;
  /** V1 rows converted (settled or not) and leftover denominators converted in this block. */
  converted: number;
  denominators: number;
  /** Payouts refused because stake would remain (the row stays V1 and is retried). */
  deferred: number;
  /** The migration completed in this block. */
  completed: boolean;
}

/** The demo's TAO mechanisms beside staking (`tao-mechanisms.ts`). */
export type TaoMechanismKind =
  | 'ProxyAdded'
  | 'ProxyRemoved'
  | 'NeuronRegistered'
  | 'EvmDeposit'
  | 'EvmWithdraw'
  /** The demo's network lock and its refund (`network-lock.ts`). */
  | 'NetworkRegistered'
  | 'NetworkLockRefunded'
  /** Its identity and multisig deposits (`held-deposits.ts`). */
  | 'IdentitySet'
  | 'IdentityDissolved'
  | 'NewMultisig'
  | 'MultisigExecuted';

/** The demo's staking through the EVM staking precompile (`evm-staking.ts`). */
export type EvmStakingKind = 'EvmStakeAdded' | 'EvmStakeRemoved';

/**
 * One user liquidity position's movement (opentensor/subtensor `pallets/swap/src/pallet/mod.rs` at 835a2c902,
 * `add_liquidity`, `remove_liquidity`; `pallet/impls.rs` at 4d3a7ab34, `do_dissolve_all_liquidity_providers`).
 * `tao`/`alpha`: the principal put in (add) or taken out (remove, refund); `feeTao`/`feeAlpha`: the fees the
 * position earned, paid out with it.
 */
export interface LiquidityFill {
  positionId: number;
  liquidity: bigint;
  tao: bigint;
  alpha: bigint;
  feeTao: bigint;
  feeAlpha: bigint;
  tickLow: number;
  tickHigh: number;
}

/** A crowdloan contribution or its refund (`pallets/crowdloan/src/lib.rs` at 835a2c902). */
export interface CrowdloanMove {
  id: number;
  /** The crowdloan's funds account. */
  account: Account;
}
