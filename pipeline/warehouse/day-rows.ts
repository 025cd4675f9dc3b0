/**
 * What one collected UTC day puts in the warehouse. Block numbers fit a JS number (2^53 blocks of 12 s is
 * far away); every RAO amount is a bigint.
 */
export type BurnKind = 'burn' | 'buyback' | 'recycle';

export interface BurnRow {
  block: number;
  eventIndex: number;
  extrinsicIndex: number | null;
  /** Milliseconds since the epoch (the block's Timestamp.Now). */
  blockTime: number;
  netuid: number;
  registeredAt: number;
  kind: BurnKind;
  coldkey: string | null;
  hotkey: string;
  alphaRao: bigint;
  taoRao: bigint | null;
}

export type StakingKind =
  | 'StakeAdded'
  | 'StakeRemoved'
  | 'StakeMoved'
  | 'StakeTransferred'
  | 'StakeSwapped'
  | 'Transfer';

export interface StakingEventRow {
  block: number;
  eventIndex: number;
  extrinsicIndex: number | null;
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

export interface PanelPriceRow {
  netuid: number;
  registeredAt: number;
  panelBlock: number;
  subnetTaoRao: bigint | null;
  subnetAlphaInRao: bigint | null;
}

export interface SubnetDayRow {
  netuid: number;
  registeredAt: number;
  name: string;
  symbol: string;
}

export interface DayRows {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  firstBlock: number;
  lastBlock: number;
  lastBlockTime: number;
  /** Every block of the day was read. */
  complete: boolean;
  /** Today, read only up to the finalized head. */
  partial: boolean;
  burns: BurnRow[];
  stakingEvents: StakingEventRow[];
  panel: PanelPriceRow[];
  subnets: SubnetDayRow[];
}
