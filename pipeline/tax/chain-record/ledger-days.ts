/**
 * The chain record by UK day, before any pound value: where each day ends on chain, a position's stake change
 * of a day that no event explains, and a holding that moved between keys. The income ledger values these
 * (`uk-rules/income-ledger.ts`); the chain searches that place actions (`actions/locate-moves.ts`,
 * `actions/locate-sweep.ts`) read only these, so they stay below the UK rules.
 */
import type { PositionRef } from './stake-at-blocks.js';

export interface LedgerDay {
  date: string;
  block: number;
  timeMs: number;
}

/** A position's stake change of one UK day that no event explains: in RAO, as the chain shows it. */
export interface UnexplainedChange {
  date: string;
  position: PositionRef;
  /** The registration of the subnet whose stake this is (0 on root): the day's last block's, or an earlier one lost that day. */
  registeredAt: number;
  /** Received that day: alpha RAO (TAO RAO on root); negative for a loss. */
  alphaRao: bigint;
}

/** A fall on one key matched by a rise on another the same UK day: the stake moved, it was not earned. */
export interface HoldingMove {
  date: string;
  /** The coldkey the holding was on when the day began (the largest fall's). */
  coldkey: string;
  netuid: number;
  registeredAt: number;
  /** The positions whose stake fell and rose (each once), as `coldkey/hotkey`. */
  from: string[];
  to: string[];
  /** The part of the fall matched by the rise (alpha RAO; TAO on root). */
  alphaRao: bigint;
}
