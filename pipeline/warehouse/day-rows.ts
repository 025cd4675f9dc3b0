/**
 * What one collected UTC day puts in the warehouse. Block numbers fit a JS number (2^53 blocks of 12 s is
 * far away); every RAO amount is a bigint. Burns and staking events are the chain's own types
 * (`pipeline/chain/`): the warehouse stores them as decoded.
 */
import type { BurnEvent } from '../chain/burn-event.js';
import type { StakingEvent } from '../chain/staking-event.js';

/** A burn and the registration of its netuid at the burn's block (a netuid is reused after deregistration). */
export interface BurnRow extends BurnEvent {
  registeredAt: number;
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
  /** The last block's hash, kept so the next collection can tell the node still has that chain. */
  lastBlockHash: string;
  /** Every block of the day was read. */
  complete: boolean;
  /** Today, read only up to the finalized head. */
  partial: boolean;
  burns: BurnRow[];
  stakingEvents: StakingEvent[];
  panel: PanelPriceRow[];
  subnets: SubnetDayRow[];
}
