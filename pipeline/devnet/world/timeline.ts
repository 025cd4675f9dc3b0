import { DAY_MS } from '../../time/utc-day.js';

/**
 * Block numbers, wall-clock times and UTC days of the sandbox: block n is at genesis + n × block time.
 * The sandbox keeps this clock's arithmetic of its own rather than the product's `pipeline/time/`: it is the
 * truth the product is tested against, so a mistake in the product's day arithmetic must not be copied into
 * it. Only the day's length, a constant, is the product's `DAY_MS`.
 */

/** A real calendar date written `YYYY-MM-DD` (the `--from`/`--to` of `devnet truth`). */
export function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  // Date.parse rolls 30 February over to 2 March: the round trip refuses it.
  return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(text);
}

export class Timeline {
  readonly genesisMs: number;
  readonly blockTimeMs: number;
  /** Midnight UTC of the day holding genesis: day 0. */
  readonly dayZeroMs: number;

  constructor(genesisMs: number, blockTimeMs: number) {
    this.genesisMs = genesisMs;
    this.blockTimeMs = blockTimeMs;
    this.dayZeroMs = Math.floor(genesisMs / DAY_MS) * DAY_MS;
  }

  timeOf(block: number): number {
    return this.genesisMs + block * this.blockTimeMs;
  }

  /** The newest block produced at wall-clock `ms` (-1 before genesis). */
  blockAt(ms: number): number {
    return Math.floor((ms - this.genesisMs) / this.blockTimeMs);
  }

  dayOf(block: number): number {
    return Math.floor((this.timeOf(block) - this.dayZeroMs) / DAY_MS);
  }

  /** The first block whose timestamp falls on day `day` (0 for day 0). */
  firstBlockOfDay(day: number): number {
    return Math.max(0, Math.ceil((this.dayZeroMs + day * DAY_MS - this.genesisMs) / this.blockTimeMs));
  }

  /** The nominal last block of the day (it may not be produced yet when the day is today). */
  lastBlockOfDay(day: number): number {
    return this.firstBlockOfDay(day + 1) - 1;
  }

  dateOfDay(day: number): string {
    return new Date(this.dayZeroMs + day * DAY_MS).toISOString().slice(0, 10);
  }

  /** Day index of a `YYYY-MM-DD` date (may be negative or in the future). */
  dayOfDate(date: string): number {
    return Math.round((Date.parse(`${date}T00:00:00Z`) - this.dayZeroMs) / DAY_MS);
  }

  isoTime(block: number): string {
    return new Date(this.timeOf(block)).toISOString();
  }
}
