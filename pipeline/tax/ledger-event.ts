// Shared by cgt-transactions.ts and actions/: here so those modules need not import each other (no cycle).
import type { ColdkeyEvent } from '../contract/tax-published.js';

/** A staking event with the coldkey of the order whose record it is in. */
export interface LedgerEvent extends ColdkeyEvent {
  coldkey: string;
}
