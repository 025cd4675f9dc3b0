// Shared by block-events.ts and spec-425-events.ts: here so those modules need not import each other (no cycle).

/** An event by pallet and name with field values ready for SCALE encoding in either runtime. */
export interface WorldEvent {
  pallet: string;
  name: string;
  args: unknown[];
}
