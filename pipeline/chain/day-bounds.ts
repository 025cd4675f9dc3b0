/**
 * UTC days → block ranges, by binary search on `Timestamp.Now` (block times drift, so the block number of
 * midnight cannot be computed). Never looks past the finalized head: a day that the head is still in is
 * partial, and ends at the head.
 */
import { DAY_MS, formatUtcDay, parseUtcDay } from '../time/utc-day.js';
import { ChainDataError } from './chain-errors.js';
import type { BlockRef, ChainReader } from './chain-reader.js';

export interface DayBounds {
  /** `YYYY-MM-DD` */
  day: string;
  firstBlock: number;
  lastBlock: number;
  /** The finalized head is inside this day: collected up to the head only. */
  partial: boolean;
}

export class DayLocator {
  readonly #times = new Map<number, Promise<number>>();

  constructor(
    readonly reader: ChainReader,
    readonly head: BlockRef,
  ) {}

  timeOf(block: number): Promise<number> {
    let time = this.#times.get(block);
    if (!time) {
      // A genesis block has no Timestamp.Now on a real chain: it counts as the beginning of time.
      time = this.reader.timestampOf(block).catch((error: unknown) => {
        if (block === 0 && error instanceof ChainDataError) return 0;
        throw error;
      });
      time.catch(() => this.#times.delete(block));
      this.#times.set(block, time);
    }
    return time;
  }

  /** The first finalized block at or after `ms`, or null when the head is still before it. */
  async firstBlockAtOrAfter(ms: number): Promise<number | null> {
    if ((await this.timeOf(this.head.number)) < ms) return null;
    let lo = 0;
    let hi = this.head.number;
    if ((await this.timeOf(lo)) >= ms) return lo;
    // Invariant: time(lo) < ms <= time(hi).
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if ((await this.timeOf(mid)) >= ms) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /** The blocks of a UTC day, or null when the day has no finalized block (yet, or before genesis). */
  async bounds(day: string): Promise<DayBounds | null> {
    const start = parseUtcDay(day);
    const first = await this.firstBlockAtOrAfter(start);
    if (first === null || (await this.timeOf(first)) >= start + DAY_MS) return null;
    const next = await this.firstBlockAtOrAfter(start + DAY_MS);
    if (next === null) return { day, firstBlock: first, lastBlock: this.head.number, partial: true };
    return { day, firstBlock: first, lastBlock: next - 1, partial: false };
  }

  /** The UTC day of a block. */
  async dayOf(block: number): Promise<string> {
    return formatUtcDay(await this.timeOf(block));
  }
}
