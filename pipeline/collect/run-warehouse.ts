/**
 * The warehouse as one run (a collection, a share pool read) uses it: opened for each use (a day's write) and
 * closed after, so analysts and other commands get the file between days, with the schema and analyst views
 * applied at the run's first open only. Applying them is most of an open's cost (about 0.55 s of a 0.65 s
 * open and 130 of its 160 CPU ms on the shared machine, against 27 ms for an open, a day's write and a
 * close without them), and a backfill opened the warehouse twice per day; within one run the file's schema
 * is the one its first open left. Uses of one path in one process take turns: two handles of one DuckDB file
 * at once would each keep their own view of it.
 */
import { openWarehouse, type Warehouse } from '../warehouse/open-warehouse.js';

/** As `openWarehouse`'s default: how long an open waits while another process holds the file. */
const LOCK_WAIT_MS = 30_000;

/** The last use of each warehouse path in this process, settled or not. */
const lastUse = new Map<string, Promise<unknown>>();

export class RunWarehouse {
  #schemaApplied = false;

  constructor(readonly path: string) {}

  /** `work` on the warehouse, opened for it and closed after, once the uses asked for before have ended. */
  use<T>(work: (warehouse: Warehouse) => Promise<T>): Promise<T> {
    const turn = (lastUse.get(this.path) ?? Promise.resolve()).then(async () => {
      const warehouse = await this.#open();
      try {
        return await work(warehouse);
      } finally {
        warehouse.close();
      }
    });
    const settled = turn.catch(() => undefined);
    lastUse.set(this.path, settled);
    settled.then(() => {
      if (lastUse.get(this.path) === settled) lastUse.delete(this.path);
    });
    return turn;
  }

  async #open(): Promise<Warehouse> {
    const warehouse = await openWarehouse(this.path, {
      lockWaitMs: LOCK_WAIT_MS,
      schema: !this.#schemaApplied,
    });
    this.#schemaApplied = true;
    return warehouse;
  }
}
