import { DAY_MS } from '../../pipeline/time/utc-day.js';
import type { BillingState } from '../state/billing-state.js';

/** How often the tally writes what it has added up (the allowance leases settle as often). */
export const KEY_USE_WRITE_MS = 1_000;

/**
 * The account page's per-key, per-day use, added up in memory and written to the shared
 * state once a second, one statement per key and UTC day. An upsert per keyed request was the keyed
 * path's largest cost (two autocommitted statements, each a WAL append on SQLite: measured with
 * `node --cpu-prof` under the bench's load, 2026-11-25). These counts are the display's only: the
 * allowance itself is metered by `allowance.ts`, exact whatever happens here.
 *
 * Exactness: a reader on this instance calls `flush` first (`usageSummary` does), so it sees every
 * use this instance has counted; another instance's uses show within a second. A gateway that dies
 * loses at most its last second of per-key counts (never the allowance's). A write that fails is
 * reported and its counts are kept for the next one.
 */
export interface KeyUseTally {
  /** Counts one successful request of a key at `atMs` (milliseconds, UTC). */
  count(keyId: string, accountId: string, atMs: number): void;
  /** Writes every use counted so far; resolves once written (or reported as failed). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

interface Tally {
  keyId: string;
  accountId: string;
  day: string;
  used: number;
  lastUsedMs: number;
}

export function createKeyUseTally(options: {
  billing: BillingState;
  onError: (error: unknown) => void;
  writeEveryMs?: number;
}): KeyUseTally {
  const { billing, onError } = options;
  let pending = new Map<string, Tally>();
  // The UTC day of the last count, kept so a request does no date formatting.
  let dayStartMs = Number.NaN;
  let day = '';
  let writes: Promise<void> = Promise.resolve();
  /** The pending tally the last count went to: a busy key's next count goes there without a lookup. */
  let last: Tally | null = null;

  const add = (entry: Tally) => {
    const name = `${entry.keyId} ${entry.day}`;
    const held = pending.get(name);
    if (!held) pending.set(name, entry);
    else {
      held.used += entry.used;
      held.lastUsedMs = Math.max(held.lastUsedMs, entry.lastUsedMs);
    }
  };

  const writePending = async () => {
    if (pending.size === 0) return;
    const entries = [...pending.values()];
    pending = new Map();
    last = null;
    for (const [i, entry] of entries.entries()) {
      try {
        await billing.recordKeyUse(
          entry.keyId,
          entry.accountId,
          entry.day,
          new Date(entry.lastUsedMs),
          entry.used,
        );
      } catch (error) {
        onError(error);
        for (const left of entries.slice(i)) add(left);
        return;
      }
    }
  };

  const flush = () => {
    writes = writes.then(writePending);
    return writes;
  };

  const timer = setInterval(() => {
    if (pending.size > 0) void flush();
  }, options.writeEveryMs ?? KEY_USE_WRITE_MS);
  timer.unref();

  return {
    count(keyId, accountId, atMs) {
      if (!(atMs >= dayStartMs && atMs < dayStartMs + DAY_MS)) {
        dayStartMs = atMs - (((atMs % DAY_MS) + DAY_MS) % DAY_MS);
        day = new Date(dayStartMs).toISOString().slice(0, 10);
        last = null;
      }
      let held = last?.keyId === keyId ? last : pending.get(`${keyId} ${day}`);
      if (!held) {
        held = { keyId, accountId, day, used: 0, lastUsedMs: atMs };
        add(held);
      }
      held.used += 1;
      if (atMs > held.lastUsedMs) held.lastUsedMs = atMs;
      last = held;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
