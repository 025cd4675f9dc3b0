/**
 * UTC days → block ranges, by search on `Timestamp.Now` (block times drift, so the block number of midnight
 * cannot be computed). Never looks past the finalized head: a day that the head is still in is partial, and
 * ends at the head.
 *
 * The search interpolates: blocks come at a nearly even pace, so the block of a moment is guessed from the
 * times of the narrowest pair of blocks already read around it, and the guess and the block before it are
 * read together: on a regular chain that settles a day's end in one round trip, where bisection over a
 * mainnet-length chain takes 22 in a row. A guess that does not halve the interval is followed by a plain
 * halving, so a chain of uneven blocks costs at most twice the rounds of bisection.
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
  /** Times already read, by block: the brackets new searches start from. */
  readonly #known = new Map<number, number>();

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
      time.then(
        (ms) => this.#known.set(block, ms),
        () => this.#times.delete(block),
      );
      this.#times.set(block, time);
    }
    return time;
  }

  /** The first finalized block at or after `ms`, or null when the head is still before it. */
  async firstBlockAtOrAfter(ms: number): Promise<number | null> {
    const [headTime, genesisTime] = await Promise.all([this.timeOf(this.head.number), this.timeOf(0)]);
    if (headTime < ms) return null;
    if (genesisTime >= ms) return 0;
    // Invariant: time(lo) < ms <= time(hi). Start from the narrowest pair of blocks already read.
    let lo = 0;
    let tLo = genesisTime;
    let hi = this.head.number;
    let tHi = headTime;
    for (const [block, time] of this.#known) {
      if (block > this.head.number) continue;
      if (time < ms && block > lo) [lo, tLo] = [block, time];
      else if (time >= ms && block < hi) [hi, tHi] = [block, time];
    }
    let interpolate = true;
    while (hi - lo > 1) {
      const width = hi - lo;
      let probes: number[];
      if (interpolate && tHi > tLo) {
        const guess = lo + Math.ceil(((ms - tLo) / (tHi - tLo)) * width);
        const at = Math.min(hi - 1, Math.max(lo + 1, guess));
        probes = at - 1 > lo ? [at - 1, at] : [at];
      } else probes = [lo + Math.floor(width / 2)];
      const times = await Promise.all(probes.map((block) => this.timeOf(block)));
      probes.forEach((block, i) => {
        const time = times[i]!;
        if (time >= ms) {
          if (block < hi) [hi, tHi] = [block, time];
        } else if (block > lo) [lo, tLo] = [block, time];
      });
      interpolate = hi - lo <= width / 2;
    }
    return hi;
  }

  /** The blocks of a UTC day, or null when the day has no finalized block (yet, or before genesis). */
  async bounds(day: string): Promise<DayBounds | null> {
    const start = parseUtcDay(day);
    const [first, next] = await Promise.all([
      this.firstBlockAtOrAfter(start),
      this.firstBlockAtOrAfter(start + DAY_MS),
    ]);
    if (first === null || (await this.timeOf(first)) >= start + DAY_MS) return null;
    if (next === null) return { day, firstBlock: first, lastBlock: this.head.number, partial: true };
    return { day, firstBlock: first, lastBlock: next - 1, partial: false };
  }

  /** The UTC day of a block. */
  async dayOf(block: number): Promise<string> {
    return formatUtcDay(await this.timeOf(block));
  }
}
