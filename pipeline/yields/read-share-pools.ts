/**
 * `sbm yields`: every collected day's share pools, read at the day's last collected block, into the
 * warehouse (`share_pools`). A day is read when it has not been read at that block yet: a new day, or
 * today again after collection went further. Each day is written in one transaction, so a run killed midway
 * keeps the days it finished and the next run reads the rest. The warehouse is opened only to plan and to
 * write each day, like the collection, so analysts can read it in between; a day is written while the next
 * day's pools are read.
 */
import { ChainReader } from '../chain/chain-reader.js';
import { connectRpc, type RpcClientOptions } from '../chain/rpc-client.js';
import { readSharePools, type SharePool } from '../chain/share-pools.js';
import { RunWarehouse } from '../collect/run-warehouse.js';
import type { TaxYields } from '../contract/tax-published.js';
import { openWarehouse, type Warehouse } from '../warehouse/open-warehouse.js';
import { type PoolDay, poolDaysToRead, replacePoolDay } from '../warehouse/share-pool-days.js';
import { yieldsOfWarehouse } from './warehouse-yields.js';

export interface ReadSharePoolsOptions {
  chainUrl: string;
  warehousePath: string;
  /** First and last collected day to consider (default: every collected day). */
  from?: string;
  to?: string;
  /** Read the days again even when they were read at their last block already. */
  refresh?: boolean;
  /** Requests in flight against the node (default 16). */
  concurrency?: number;
  clock?: () => Date;
  rpc?: Omit<RpcClientOptions, 'url' | 'concurrency'>;
  /** Called after each day is written (the command prints a line per day). */
  onDay?: (report: PoolDayReport) => void;
}

export interface PoolDayReport {
  day: string;
  block: number;
  partial: boolean;
  specVersion: number;
  pools: number;
  seconds: number;
}

export interface SharePoolsSummary {
  days: PoolDayReport[];
  pools: number;
  seconds: number;
  requests: number;
  retries: number;
  /** The yields the warehouse gives after this run (what the next publication puts in `tax/yields.json`). */
  yields: TaxYields;
}

export async function readDailySharePools(options: ReadSharePoolsOptions): Promise<SharePoolsSummary> {
  const clock = options.clock ?? (() => new Date());
  const started = clock().getTime();
  const concurrency = options.concurrency ?? 16;
  const summary: Omit<SharePoolsSummary, 'yields'> = {
    days: [],
    pools: 0,
    seconds: 0,
    requests: 0,
    retries: 0,
  };
  // The run's opens of the warehouse: the schema applied at the first only (run-warehouse.ts).
  const warehouse = new RunWarehouse(options.warehousePath);
  const plan = await warehouse.use((wh) =>
    poolDaysToRead(wh, {
      ...(options.from ? { from: options.from } : {}),
      ...(options.to ? { to: options.to } : {}),
      refresh: options.refresh ?? false,
    }),
  );
  if (plan.length > 0) {
    const rpc = await connectRpc({ ...options.rpc, url: options.chainUrl, concurrency });
    // A day is written (in day order, one at a time) while the next day's pools are read.
    let writing: Promise<void> = Promise.resolve();
    try {
      const reader = new ChainReader(rpc);
      for (const day of plan) {
        const dayStarted = Date.now();
        const read = await readDay(reader, day, concurrency);
        await writing;
        writing = warehouse
          .use((wh) => replacePoolDay(wh, day, read.pools, clock()))
          .then(() => {
            const report: PoolDayReport = {
              day: day.day,
              block: day.block,
              partial: day.partial,
              specVersion: read.specVersion,
              pools: read.pools.length,
              seconds: (Date.now() - dayStarted) / 1000,
            };
            summary.days.push(report);
            summary.pools += report.pools;
            options.onDay?.(report);
          });
        // Awaited before the next write or at the end; meanwhile a failure must not go unhandled.
        writing.catch(() => undefined);
      }
      await writing;
    } finally {
      // A day still being written when the next day's reading failed is finished (or fails) first.
      await writing.catch(() => undefined);
      summary.requests = rpc.stats.requests;
      summary.retries = rpc.stats.retries;
      await rpc.close();
    }
  }
  const yields = await withWarehouse(options.warehousePath, (wh) => yieldsOfWarehouse(wh, clock()), true);
  summary.seconds = (clock().getTime() - started) / 1000;
  return { ...summary, yields };
}

/** A day's pools, read at its last collected block through the codec of that block's runtime. */
async function readDay(
  reader: ChainReader,
  day: PoolDay,
  concurrency: number,
): Promise<{ specVersion: number; pools: SharePool[] }> {
  const [hash, codec] = await Promise.all([reader.blockHash(day.block), reader.codecOfBlock(day.block)]);
  return { specVersion: codec.specVersion, pools: await readSharePools(reader, codec, hash, concurrency) };
}

async function withWarehouse<T>(
  path: string,
  work: (warehouse: Warehouse) => Promise<T>,
  readOnly = false,
): Promise<T> {
  const warehouse = await openWarehouse(path, { readOnly });
  try {
    return await work(warehouse);
  } finally {
    warehouse.close();
  }
}
