/**
 * Whose events a record holds. A coldkey swap is the owner changing keys: the record follows it to the new
 * coldkey (its later events belong to the same record, whether or not the order names it), and on through any
 * later swap; a record starting from the new coldkey follows it back to the old one the same way (the holdings
 * it began the year with). A chain rule, whatever reads the events: the pack reads them from the published
 * coldkey shards.
 */
import type { ColdkeyEvent } from '../../contract/tax-published.js';

/** A coldkey swap the record followed: the holdings went from one coldkey to the other at the block. */
export interface FollowedSwap {
  from: string;
  to: string;
  block: number;
}

/** A staking event of the record's coldkeys, once (an event between two of them is in both their lists). */
export interface RecordEvent extends ColdkeyEvent {
  /** The coldkey of the record whose list it came from first (the origin when it is one of them). */
  coldkey: string;
}

export interface FollowedColdkeys {
  /** The coldkeys started from and every coldkey a coldkey swap of theirs handed the holdings to (or took them from). */
  coldkeys: string[];
  /** Each coldkey swap the record followed. */
  followed: FollowedSwap[];
  /** Every event of those coldkeys (any year), in chain order, each once. */
  events: RecordEvent[];
}

/** Gathers the events of `start` and of every coldkey a swap links them to; `eventsOf` reads one coldkey's list. */
export async function followColdkeySwaps(
  start: readonly string[],
  eventsOf: (coldkey: string) => Promise<readonly ColdkeyEvent[]>,
): Promise<FollowedColdkeys> {
  const events = new Map<string, RecordEvent>();
  const coldkeys = [...start];
  const followed: FollowedSwap[] = [];
  for (let i = 0; i < coldkeys.length; i++) {
    const coldkey = coldkeys[i]!;
    for (const event of await eventsOf(coldkey)) {
      const id = `${event.block}/${event.event_index}`;
      const seen = events.get(id);
      if (!seen || (event.role === 'origin' && seen.role !== 'origin')) events.set(id, { ...event, coldkey });
      const other = event.counterpart_coldkey;
      if (event.kind === 'ColdkeySwapped' && other && !coldkeys.includes(other)) {
        coldkeys.push(other);
        followed.push(
          event.role === 'origin'
            ? { from: coldkey, to: other, block: event.block }
            : { from: other, to: coldkey, block: event.block },
        );
      }
    }
  }
  return {
    coldkeys,
    followed,
    events: [...events.values()].sort((a, b) => a.block - b.block || a.event_index - b.event_index),
  };
}
