/**
 * `sbm yields`: every collected day's share pools, read at the day's last collected block, into the
 * warehouse (`share_pools`). A day is read when it has not been read at that block yet: a new day, or
 * today again after collection went further. Each day is written in one transaction, so a run killed midway
 * keeps the days it finished and the next run reads the rest. The warehouse is opened only to plan and to
 * write, like the collection, so analysts can read it in between; days are written while the next days'
 * pools are read.
 */
import { ChainReader } from '../chain/chain-reader.js';
import { connectRpc, type RpcClientOptions } from '../chain/rpc-client.js';
import { readSharePools, type SharePool } from '../chain/share-pools.js';
import { DayBatches } from '../collect/day-batches.js';
import { RunWarehouse } from '../collect/run-warehouse.js';
import type { TaxYields } from '../contract/tax-published.js';
import { openWarehouse, type Warehouse } from '../warehouse/open-warehouse.js';
import { type PoolDay, poolDaysToRead, replacePoolDay } from '../warehouse/share-pool-days.js';
import { yieldsOfWarehouse } from './warehouse-yields.js';

/** Days whose pools are read at once. */
const DAYS_READ_AT_ONCE = 4;

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
    // Days are written (in day order, one transaction each) while the next days' pools are read, the days
    // read meanwhile in one open (day-batches.ts).
    const writing = new DayBatches<{ day: PoolDay; read: DayPools; started: number }>(
      warehouse,
      (wh, { day, read }) => replacePoolDay(wh, day, read.pools, clock()),
      ({ day, read, started }) => {
        const report: PoolDayReport = {
          day: day.day,
          block: day.block,
          partial: day.partial,
          specVersion: read.specVersion,
          pools: read.pools.length,
          seconds: (Date.now() - started) / 1000,
        };
        summary.days.push(report);
        summary.pools += report.pools;
        options.onDay?.(report);
      },
    );
    try {
      const reader = new ChainReader(rpc);
      // A day's read is a few round trips in a row (its block, runtime, keys, values, registrations): a few
      // days are read at once, and handed to the writing in day order.
      const reads: ({ read: Promise<DayPools>; started: number } | undefined)[] = [];
      const startRead = (i: number) => {
        const read = readDay(reader, plan[i]!, concurrency);
        read.catch(() => undefined);
        reads[i] = { read, started: Date.now() };
      };
      for (let i = 0; i < Math.min(DAYS_READ_AT_ONCE, plan.length); i++) startRead(i);
      for (let i = 0; i < plan.length; i++) {
        const { read, started } = reads[i]!;
        reads[i] = undefined;
        const pools = await read;
        if (i + DAYS_READ_AT_ONCE < plan.length) startRead(i + DAYS_READ_AT_ONCE);
        await writing.add({ day: plan[i]!, read: pools, started });
      }
      await writing.finish();
    } finally {
      // The days read before the reading failed are written (or fail) first.
      await writing.finish().catch(() => undefined);
      summary.requests = rpc.stats.requests;
      summary.retries = rpc.stats.retries;
      await rpc.close();
    }
  }
  const yields = await withWarehouse(options.warehousePath, (wh) => yieldsOfWarehouse(wh, clock()), true);
  summary.seconds = (clock().getTime() - started) / 1000;
  return { ...summary, yields };
}

interface DayPools {
  specVersion: number;
  pools: SharePool[];
}

/** A day's pools, read at its last collected block through the codec of that block's runtime. */
async function readDay(reader: ChainReader, day: PoolDay, concurrency: number): Promise<DayPools> {
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
