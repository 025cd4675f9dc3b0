/**
 * A burn as the chain records it (`classify-events.ts` says which events make one). The warehouse row adds
 * only the subnet registration it belongs to (`BurnRow` in `warehouse/day-rows.ts`).
 */
export type BurnKind = 'burn' | 'buyback' | 'recycle';

export interface BurnEvent {
  block: number;
  eventIndex: number;
  extrinsicIndex: number | null;
  /** Milliseconds since the epoch (the block's Timestamp.Now). */
  blockTime: number;
  netuid: number;
  kind: BurnKind;
  coldkey: string | null;
  hotkey: string;
  alphaRao: bigint;
  taoRao: bigint | null;
}
