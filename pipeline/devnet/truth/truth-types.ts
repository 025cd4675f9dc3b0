/** The ground truth of a sandbox world over a date range (`sbm devnet truth`). RAO are decimal strings. */
export interface Truth {
  seed: string;
  genesis: string;
  block_time_ms: number;
  upgrade_block: number;
  history_days: number;
  from: string;
  to: string;
  days: TruthDay[];
  subnets: TruthSubnet[];
  burns: TruthBurn[];
  panel_prices: TruthPanelPrice[];
  staking_events: TruthStakingEvent[];
  /** What each staking event carries beyond the common fields (fee, destination), by (block, event_index). */
  staking_details: TruthStakingDetail[];
  /** Every hotkey share pool at each day's last block (`TotalHotkeyAlpha`, `TotalHotkeyShares`). */
  share_pools: TruthSharePool[];
  emission_changes: TruthEmissionChange[];
  coldkeys: TruthColdkey[];
  /**
   * Which runtime ran which blocks up to the head, in order (`dates`: as mainnet ran them on each block's UTC
   * date; `compressed`: 343 → 393 → 425 → 473 placed in the history).
   */
  runtime_placement: 'dates' | 'compressed';
  runtimes: TruthRuntime[];
  /** First block of spec 425, or null when the world has none. */
  current_runtime_block: number | null;
  /** First block of spec 473 (mainnet since October 2026), or null when the world has none. */
  latest_runtime_block: number | null;
  /**
   * Spec 473's AlphaV2 migration as far as the head (null without spec 473): the blocks it worked in and
   * what it converted, deferred and burned. Independent of `from`/`to`.
   */
  alpha_v2_migration: TruthAlphaV2Migration | null;
  /**
   * Every position of a tracked coldkey the migration's sweep settled within `from`..`to`, in chain order:
   * deleted (worth under 1,000 rao) or unstaked to its coldkey (a V1 row worth 1,000 to 3,000,000 rao).
   */
  alpha_v2_sweep: TruthSweptPosition[];
  /**
   * Every action of a tracked coldkey from spec 425 on, one per extrinsic (or epoch event): the
   * economic action, its amounts in RAO and the chain events it is made of, in `System.Events` order.
   */
  actions: TruthAction[];
}

/** One block-range summary of spec 473's `migrate_alpha_v2_and_unstake_dust_v1` (`migrate_alpha_v2.rs`). */
export interface TruthAlphaV2Migration {
  /** The first block it worked in (the upgrade block, unless that is a day's first block). */
  first_block: number;
  /** The block it completed in (phase 3, `HasMigrationRun`), or null while it runs. */
  completed_block: number | null;
  /** V1 `Alpha` rows converted to `AlphaV2` (settled or kept) and leftover `TotalHotkeyShares` converted. */
  rows_converted: number;
  denominators_converted: number;
  /** Payouts refused because stake would remain (retried later); 0 in every sandbox world so far. */
  deferred: number;
  /** TAO of deleted positions moved to the burn account (`burntnsr`), over all its blocks. */
  burned_rao: string;
}

/** One position settled by spec 473's sweep. */
export interface TruthSweptPosition {
  block: number;
  time: string;
  coldkey: string;
  hotkey: string;
  netuid: number;
  /** `deleted`: valued under 1,000 rao, its alpha taken back and its TAO value burned, no event names it.
   * `unstaked`: a V1 row valued 1,000 to 3,000,000 rao, paid to its coldkey (`Balances.Transfer` from the
   * subnet account, then `StakeRemoved` with fee 0, both in phase Finalization). */
  kind: 'deleted' | 'unstaked';
  /** Whether it was still a V1 (`Alpha`) row when the migration reached it. */
  legacy: boolean;
  /** The position's alpha when settled (all of it). */
  alpha_rao: string;
  /** Deleted: the TAO value burned; unstaked: the TAO paid to the coldkey. */
  tao_rao: string;
  /** The `StakeRemoved` of an unstaked position; null for a deleted one. */
  event_index: number | null;
}

/** The economic action of one extrinsic from spec 425 on. */
export type TruthActionKind =
  | 'stake'
  | 'unstake'
  | 'move-across-subnets'
  | 'move-within-subnet'
  | 'stake-transfer'
  | 'tao-transfer'
  | 'hotkey-swap'
  | 'coldkey-swap'
  | 'dissolution'
  | 'recycle'
  | 'auto-stake'
  | 'root-claim'
  | 'lease-dividends'
  | 'miner-incentive'
  /** Spec 473: a `LimitOrders` order filled by `execute_batched_orders` (one row per order of the batch). */
  | 'limit-order-buy'
  | 'limit-order-sell'
  /**
   * The 2025/26 life (world/user-liquidity.ts): a liquidity position opened (`tao_rao`, `alpha_rao` put in),
   * closed (the TAO and alpha credited, fees included) or refunded by `disable_lp` (the TAO principal credited,
   * the alpha principal and fees staked); `liquidity` has the position's own figures.
   */
  | 'liquidity-add'
  | 'liquidity-remove'
  | 'liquidity-refund'
  /** A crowdloan contribution and a refund of one (`tao_rao`). */
  | 'crowdloan-contribution'
  | 'crowdloan-refund'
  /** A lease dividend before spec 361: `tao_rao` credited to the free balance, no event naming it one. */
  | 'lease-dividends-credited'
  /** The demo's TAO mechanisms of January 2026 (world/tao-mechanisms.ts), in `tao_mechanisms`. */
  | 'proxy-added'
  | 'proxy-removed'
  | 'registration'
  | 'evm-deposit'
  | 'evm-withdraw'
  /** The demo's EVM address staking through the staking precompile (world/evm-staking.ts). */
  | 'evm-stake'
  | 'evm-unstake'
  /**
   * The demo's network (world/network-lock.ts): its registration (`tao_rao` the lock withdrawn, `netuid`) and
   * the lock's refund when root dissolves it (`tao_rao` credited).
   */
  | 'network-registration'
  | 'network-lock-refund'
  /** Its identity (a 0.1 TAO hold, no amount in any event) and multisig deposits (world/held-deposits.ts). */
  | 'identity-set'
  | 'identity-cleared'
  | 'multisig-deposit'
  | 'multisig-executed';

export interface TruthAction {
  block: number;
  time: string;
  /** ApplyExtrinsic index; null for an epoch event (phase Initialization). */
  extrinsic_index: number | null;
  action: TruthActionKind;
  /** The event that names the action (the summary of a move), as in `staking_events`. */
  event_index: number;
  /** Every event of the extrinsic but `System.ExtrinsicSuccess`, in order. */
  events: Array<{ event_index: number; pallet: string; name: string }>;
  /** The coldkey that acted (for a hotkey swap: the hotkey's owner, not a tracked coldkey). */
  coldkey: string;
  hotkey: string | null;
  netuid: number | null;
  destination_coldkey: string | null;
  /** Destination hotkey; for an auto-stake, the miner hotkey whose incentive was staked. */
  destination_hotkey: string | null;
  destination_netuid: number | null;
  /** TAO of the action: staked, paid out, the TAO value of a move, the free balance a coldkey swap moved. */
  tao_rao: string;
  /** Alpha taken from (or, for auto-stake and root claims, added to) the origin position. */
  alpha_rao: string | null;
  /** Alpha added to the destination position (moves, swaps, stake transfers). */
  destination_alpha_rao: string | null;
  fee_rao: string;
  /** A transaction fee paid in alpha from the origin position, and the TAO it was swapped for. */
  alpha_fee_rao: string | null;
  fee_tao_rao: string | null;
  /** Dissolution: each tracked holder's destroyed alpha (all its hotkeys) and the TAO paid to it. */
  payouts: Array<{ coldkey: string; alpha_rao: string; tao_rao: string }> | null;
  /** Limit orders only: the order's id (`OrderExecuted.order_id`, 0x hex). */
  order_id?: string;
  /** User liquidity only: the position, its principal in or out and the fees it earned (RAO). */
  liquidity?: {
    position_id: number;
    liquidity: string;
    tao_rao: string;
    alpha_rao: string;
    fee_tao_rao: string;
    fee_alpha_rao: string;
  };
  /** Crowdloans only: the crowdloan's id. */
  crowdloan_id?: number;
}

export interface TruthDay {
  date: string;
  first_block: number;
  /** The day's last block; for today, the current head. */
  last_block: number;
}

export interface TruthSubnet {
  netuid: number;
  registered_at: number;
  deregistered_at: number | null;
  name: string;
  symbol: string;
  owner: string;
}

export interface TruthBurn {
  block: number;
  event_index: number;
  extrinsic_index: number;
  time: string;
  netuid: number;
  registered_at: number;
  kind: 'burn' | 'buyback' | 'recycle';
  coldkey: string | null;
  hotkey: string;
  alpha_rao: string;
  tao_rao: string | null;
}

export interface TruthPanelPrice {
  date: string;
  netuid: number;
  registered_at: number;
  panel_block: number;
  subnet_tao_rao: string | null;
  subnet_alpha_in_rao: string | null;
}

export interface TruthStakingEvent {
  block: number;
  event_index: number;
  extrinsic_index: number;
  time: string;
  kind: 'StakeAdded' | 'StakeRemoved' | 'StakeMoved' | 'StakeTransferred' | 'StakeSwapped' | 'Transfer';
  coldkey: string;
  hotkey: string | null;
  netuid: number | null;
  tao_rao: string | null;
  alpha_rao: string | null;
}

/**
 * The rest of a staking event, as the world made it: the fee (StakeAdded, StakeRemoved) and where the
 * stake or TAO went (the destination position of a move, swap or stake transfer; the recipient of a
 * Transfer). A swap and a stake transfer keep the hotkey, a move and a swap keep the coldkey: those are
 * the world's own destinations, null where the world's action names none.
 */
export interface TruthStakingDetail {
  block: number;
  event_index: number;
  fee_rao: string | null;
  destination_coldkey: string | null;
  destination_hotkey: string | null;
  destination_netuid: number | null;
}

/** One hotkey's share pool on one subnet at a day's last block; shares are U64F64 bits (2^64 = one share). */
export interface TruthSharePool {
  date: string;
  block: number;
  netuid: number;
  registered_at: number;
  hotkey: string;
  total_alpha_rao: string;
  total_shares_bits: string;
  /** `TotalHotkeySharesV2` (SafeFloat, value = mantissa × 10^exponent) where the denominator moved to V2; else null. */
  total_shares_v2: { mantissa: string; exponent: string } | null;
}

export interface TruthEmissionChange {
  block: number;
  time: string;
  netuid: number;
  registered_at: number;
  status: 'suspended' | 'flowing';
}

export interface TruthColdkey {
  coldkey: string;
  demo: boolean;
  /** The coldkey this one took over by a coldkey swap (the demo coldkey's successor), else null. */
  successor_of?: string | null;
  /** The account of this coldkey's own EVM address (`blake2_256("evm:" ++ address)`), staking through the EVM. */
  evm_of?: string;
  days: Array<{
    date: string;
    free_rao: string;
    /** Reserved TAO (`System.Account`'s `data.reserved`: a proxy deposit), only when there is some. */
    reserved_rao?: string;
    /**
     * TAO on the coldkey's own EVM address (the account `blake2_256("evm:" ++ first 20 bytes of the coldkey)`),
     * only when there is some.
     */
    evm_rao?: string;
    positions: Array<{ hotkey: string; netuid: number; alpha_rao: string }>;
    /**
     * Staking income of the day per position (non-zero only; none on day 0): the stake growth from the
     * previous day's last block to this day's that the coldkey's own staking actions do not explain (each
     * block with an action touching the position counts as after − before). Alpha RAO; TAO on root.
     */
    income: Array<{ hotkey: string; netuid: number; alpha_rao: string }>;
    /**
     * Spec 473 only, and only when there are some: positions `get_stake_for_coldkey` lists with stake 0 at
     * the day's last block (their `AlphaV2` key remains with a share worth under one rao). Not in `positions`.
     */
    zero_stake_positions?: Array<{ hotkey: string; netuid: number }>;
  }>;
}

/** One runtime of the history: the spec served, the mainnet specs it stands for, and where it begins. */
export interface TruthRuntime {
  spec: number;
  specs: string;
  /** Its first block (its `set_code` is in the block before); 0 for the history's first runtime. */
  first_block: number;
  /** That block's time, UTC. */
  first_time: string;
  /** The date mainnet's first spec of the group reached opentensor/subtensor's main (UTC). */
  mainnet_from: string;
  metadata: string;
  /** What the readers meet from it on, by name (`RuntimeFeatures`' flags that are set). */
  features: string[];
}
