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
  /** First block of the current runtime (spec 425), or null when the world has none. */
  current_runtime_block: number | null;
  /**
   * Every action of a tracked coldkey in the current runtime, one per extrinsic (or epoch event): the
   * economic action, its amounts in RAO and the chain events it is made of, in `System.Events` order.
   */
  actions: TruthAction[];
}

/** The economic action of one extrinsic in the current runtime. */
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
  | 'miner-incentive';

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
  days: Array<{
    date: string;
    free_rao: string;
    positions: Array<{ hotkey: string; netuid: number; alpha_rao: string }>;
    /**
     * Staking income of the day per position (non-zero only; none on day 0): the stake growth from the
     * previous day's last block to this day's that the coldkey's own staking actions do not explain (each
     * block with an action touching the position counts as after − before). Alpha RAO; TAO on root.
     */
    income: Array<{ hotkey: string; netuid: number; alpha_rao: string }>;
  }>;
}
