/**
 * `sbm yields`: every collected day's share pools, read at the day's last collected block, into the
 * warehouse (`share_pools`). A day is read when it has not been read at that block yet: a new day, or
 * today again after collection went further. Each day is written in one transaction, so a run killed midway
 * keeps the days it finished and the next run reads the rest. The warehouse is opened only to plan and to
 * write each day, like the collection, so analysts can read it in between.
 */
import { ChainReader } from '../chain/chain-reader.js';
import { connectRpc, type RpcClientOptions } from '../chain/rpc-client.js';
import { readSharePools } from '../chain/share-pools.js';
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
  const plan = await withWarehouse(options.warehousePath, (wh) =>
    poolDaysToRead(wh, {
      ...(options.from ? { from: options.from } : {}),
      ...(options.to ? { to: options.to } : {}),
      refresh: options.refresh ?? false,
    }),
  );
  const summary: Omit<SharePoolsSummary, 'yields'> = {
    days: [],
    pools: 0,
    seconds: 0,
    requests: 0,
    retries: 0,
  };
  if (plan.length > 0) {
    const rpc = await connectRpc({ ...options.rpc, url: options.chainUrl, concurrency });
    try {
      const reader = new ChainReader(rpc);
      for (const day of plan) {
        const report = await readDay(reader, day, concurrency, options.warehousePath, clock);
        summary.days.push(report);
        summary.pools += report.pools;
        options.onDay?.(report);
      }
    } finally {
      summary.requests = rpc.stats.requests;
      summary.retries = rpc.stats.retries;
      await rpc.close();
    }
  }
  const yields = await withWarehouse(options.warehousePath, (wh) => yieldsOfWarehouse(wh, clock()), true);
  summary.seconds = (clock().getTime() - started) / 1000;
  return { ...summary, yields };
}

async function readDay(
  reader: ChainReader,
  day: PoolDay,
  concurrency: number,
  warehousePath: string,
  clock: () => Date,
): Promise<PoolDayReport> {
  const dayStarted = Date.now();
  const hash = await reader.blockHash(day.block);
  // The runtime that wrote the block's state: the codec of the block, as the collection reads its panel.
  const codec = await reader.codecOfBlock(day.block);
  const pools = await readSharePools(reader, codec, hash, concurrency);
  await withWarehouse(warehousePath, (wh) => replacePoolDay(wh, day, pools, clock()));
  return {
    day: day.day,
    block: day.block,
    partial: day.partial,
    specVersion: codec.specVersion,
    pools: pools.length,
    seconds: (Date.now() - dayStarted) / 1000,
  };
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
