/**
 * A staking event as the chain records it: one `SubtensorModule` Stake* event or a `Balances.Transfer`,
 * decoded by `classify-events.ts`. The one definition of it: the collector passes it to the warehouse
 * unchanged (`staking_events`), and the tax work reads the same shape.
 */
export type StakingKind =
  | 'StakeAdded'
  | 'StakeRemoved'
  | 'StakeMoved'
  | 'StakeTransferred'
  | 'StakeSwapped'
  | 'Transfer';

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
