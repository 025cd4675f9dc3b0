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
  emission_changes: TruthEmissionChange[];
  coldkeys: TruthColdkey[];
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
  days: Array<{
    date: string;
    free_rao: string;
    positions: Array<{ hotkey: string; netuid: number; alpha_rao: string }>;
  }>;
}
