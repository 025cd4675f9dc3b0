/**
 * Days written to the warehouse in batches while the next days are read: each day in its own transaction,
 * in day order, but the days read while a batch gathers or is written share one open of the file. Closing
 * the warehouse checkpoints it, and that close blocks the process (0.1–0.2 s a time on the shared machine,
 * reads stalled meanwhile): a backfill of the sandbox's quick days, which opened the file for every day,
 * spent more time there than on the day's reads. A slow day (mainnet's, read in tens of seconds) is a batch
 * of its own, as before. The file is still opened only to write and closed after each batch, so analysts
 * and other commands get it in between; a run killed midway leaves whole days, up to some day.
 */
import type { Warehouse } from '../warehouse/open-warehouse.js';
import type { RunWarehouse } from './run-warehouse.js';

export interface DayBatchOptions {
  /** How long the first day of a batch waits for more before the batch is written (default 1.5 s). */
  gatherMs?: number;
  /**
   * Days read but not yet written before the reading waits for the writing (default 64). At 16, a backfill of
   * quick days (the sandbox's: a 374-day world with big coldkeys) stopped reading while each batch was
   * written and checkpointed, and took 48 s to collect; at 64 the reading goes on meanwhile, 38 s. Mainnet's
   * days take longer to read than to write, so their queue stays short; a killed run re-reads at most these
   * days on its next run.
   */
  maxPending?: number;
  /** Nothing is written before this has settled; its failure is the writing's. */
  ready?: Promise<void>;
}

export class DayBatches<D> {
  readonly #gatherMs: number;
  readonly #maxPending: number;
  readonly #ready: Promise<void>;
  readonly #pending: { day: D; at: number }[] = [];
  #cycle: Promise<void> | null = null;
  #failure: { error: unknown } | null = null;
  #finishing = false;
  #wake: (() => void) | null = null;

  constructor(
    readonly warehouse: RunWarehouse,
    readonly write: (warehouse: Warehouse, day: D) => Promise<void>,
    readonly written: (day: D) => void,
    options: DayBatchOptions = {},
  ) {
    this.#gatherMs = options.gatherMs ?? 1_500;
    this.#maxPending = options.maxPending ?? 64;
    this.#ready = options.ready ?? Promise.resolve();
  }

  /** Queues a day; waits while `maxPending` days are unwritten. A failed write is thrown here or at `finish`. */
  async add(day: D): Promise<void> {
    this.#throwIfFailed();
    this.#pending.push({ day, at: Date.now() });
    if (this.#pending.length >= this.#maxPending) this.#wake?.();
    this.#cycle ??= this.#run();
    while (this.#pending.length >= this.#maxPending && this.#cycle !== null) await this.#cycle;
    this.#throwIfFailed();
  }

  /** Writes every queued day; throws the writing's failure. */
  async finish(): Promise<void> {
    this.#finishing = true;
    this.#wake?.();
    while (this.#cycle !== null) await this.#cycle;
    this.#throwIfFailed();
  }

  async #run(): Promise<void> {
    try {
      await this.#ready;
      while (this.#pending.length > 0) {
        await this.#gather();
        const batch = this.#pending.splice(0);
        await this.warehouse.use(async (warehouse) => {
          for (const { day } of batch) {
            await this.write(warehouse, day);
            this.written(day);
          }
        });
      }
    } catch (error) {
      this.#failure = { error };
      this.#pending.length = 0;
    } finally {
      this.#cycle = null;
    }
  }

  /** Until the oldest queued day has waited `gatherMs`, enough days are queued, or the run is finishing. */
  async #gather(): Promise<void> {
    const oldest = this.#pending[0]?.at ?? Date.now();
    const wait = oldest + this.#gatherMs - Date.now();
    if (wait <= 0 || this.#finishing || this.#pending.length >= this.#maxPending) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
    this.#wake = null;
  }

  #throwIfFailed(): void {
    if (this.#failure !== null) throw this.#failure.error;
  }
}
