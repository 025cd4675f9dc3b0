import { collect } from '../collect/collect.js';
import type { ProgressReporter } from '../collect/progress.js';
import { fetchFiatPrices } from '../prices/fetch-fiat-prices.js';
import { type PublishSummary, publishSnapshots } from '../snapshots/publish-snapshots.js';
import type { ObjectStore } from '../store/index.js';
import { type PoolDayReport, readDailySharePools } from '../yields/read-share-pools.js';

export interface DailyOptions {
  chainUrl: string;
  /** Nodes of the same chain the collection shares its requests among (`--rpc`); absent: `chainUrl`. */
  chainUrls?: string[];
  priceUrl: string;
  warehousePath: string;
  store: ObjectStore;
  baseUrl: string;
  keepRuns: number;
  concurrency: number;
  progress: ProgressReporter;
  /** Lines for the operator that are not warnings (an earlier run found dead and marked interrupted). */
  notice?: (line: string) => void;
  /** Called after each day's share pools are written. */
  onPoolDay?: (report: PoolDayReport) => void;
  /** Where warnings go (a price feed outage does not stop the burn snapshots). */
  warn: (message: string) => void;
}

export interface DailySummary {
  collected: {
    from: string | null;
    to: string | null;
    blocks: number;
    burns: number;
    seconds: number;
    /** Finalized head minus the last collected block, when the collection ended. */
    blocksBehindHead: number | null;
  };
  sharePools: { days: number; pools: number; seconds: number };
  /** The days asked for: from the first collected day without a rate (or the last stored day) to today. */
  prices: { rows: number; from: string; to: string } | { error: string };
  published: PublishSummary;
}

export class DailyFailedError extends Error {
  override name = 'DailyFailedError';
}

/**
 * `sbm daily`, the cron job: collect through the finalized head, read the collected days' share pools
 * (`sbm yields`), fetch fiat prices (from the first collected day without a rate: a backfilled or first
 * collection gets a rate for every day), publish. A failed collection or share pool read stops before
 * publishing, so the previous run (snapshots and tax objects) stays served; a failed price fetch is a
 * warning (the run publishes the prices it has) and the command still exits non-zero at the end.
 */
export async function runDaily(
  options: DailyOptions,
): Promise<{ summary: DailySummary; warnings: string[] }> {
  const warnings: string[] = [];
  const collected = await collect({
    chainUrl: options.chainUrl,
    ...(options.chainUrls ? { chainUrls: options.chainUrls } : {}),
    warehousePath: options.warehousePath,
    concurrency: options.concurrency,
    progress: options.progress,
    kind: 'daily',
    ...(options.notice ? { notice: options.notice } : {}),
  });
  if (collected.status !== 'complete') {
    throw new DailyFailedError(
      `collection failed (${collected.error ?? 'unknown error'}); nothing was published, the previous snapshots are still served`,
    );
  }
  let sharePools: DailySummary['sharePools'];
  try {
    const read = await readDailySharePools({
      chainUrl: options.chainUrl,
      warehousePath: options.warehousePath,
      concurrency: options.concurrency,
      ...(options.onPoolDay ? { onDay: options.onPoolDay } : {}),
    });
    sharePools = { days: read.days.length, pools: read.pools, seconds: read.seconds };
  } catch (error) {
    throw new DailyFailedError(
      `share pools not read (${error instanceof Error ? error.message : String(error)}); nothing was published, the previous snapshots are still served`,
    );
  }
  let prices: DailySummary['prices'];
  try {
    const fetched = await fetchFiatPrices({
      priceUrl: options.priceUrl,
      warehousePath: options.warehousePath,
    });
    prices = { rows: fetched.rows, from: fetched.from, to: fetched.to };
  } catch (error) {
    const message = `fiat prices not updated: ${error instanceof Error ? error.message : String(error)}`;
    warnings.push(message);
    options.warn(message);
    prices = { error: message };
  }
  const published = await publishSnapshots({
    warehousePath: options.warehousePath,
    store: options.store,
    baseUrl: options.baseUrl,
    keepRuns: options.keepRuns,
    chain: { url: options.chainUrl, concurrency: options.concurrency },
    warn: (message) => {
      warnings.push(message);
      options.warn(message);
    },
  });
  return {
    summary: {
      collected: {
        from: collected.from,
        to: collected.to,
        blocks: collected.blocks,
        burns: collected.burns,
        seconds: collected.seconds,
        blocksBehindHead: collected.toBlock === null ? null : collected.finalizedHead - collected.toBlock,
      },
      sharePools,
      prices,
      published,
    },
    warnings,
  };
}
