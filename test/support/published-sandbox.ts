/**
 * One sandbox world collected and published by the real pipeline the way `sbm daily` does it (collect,
 * share pools, fiat prices from the sandbox's price API, publish), shared by the test files that need
 * published snapshots and tax objects (snapshot semantics, gateway routes). The first file to ask builds it under the OS
 * temp folder (keyed by the vitest run, `build-once.ts`); the others wait and reuse it.
 *
 * The world's clock is fixed (genesis and "now" are constants), so every run sees the same chain, the
 * same truth, and a partial current day.
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importClaims } from '../../pipeline/claims/import-claims.js';
import { collect } from '../../pipeline/collect/collect.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  startDevnet,
  type Truth,
} from '../../pipeline/devnet/index.js';
import { fetchFiatPrices } from '../../pipeline/prices/fetch-fiat-prices.js';
import { publishSnapshots } from '../../pipeline/snapshots/publish-snapshots.js';
import { FolderObjectStore } from '../../pipeline/store/index.js';
import { readDailySharePools } from '../../pipeline/yields/read-share-pools.js';
import { buildOnce } from './build-once.js';

const DAY_MS = 86_400_000;
export const HISTORY_DAYS = 35;
export const GENESIS = new Date('2026-01-01T00:00:00Z');
/** 35 days after genesis plus 15 hours: day 35 is "today", partial. */
export const NOW_MS = GENESIS.getTime() + HISTORY_DAYS * DAY_MS + 15 * 3_600_000;
/** Ten-minute blocks: 144 a day keeps a 35-day collection to seconds; the world is the same shape. */
export const SANDBOX_OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'published-world',
  historyDays: HISTORY_DAYS,
  genesis: GENESIS,
  blockTimeMs: 600_000,
  now: () => NOW_MS,
  port: 0,
  pricePort: 0,
};
export const BASE_URL = 'https://sbm.example';

export interface PublishedSandbox {
  dir: string;
  storeDir: string;
  warehousePath: string;
  /** The world's ground truth from genesis day to today, as the finalized head saw it. */
  truth: Truth;
  firstDay: string;
  today: string;
}

export async function publishedSandbox(): Promise<PublishedSandbox> {
  const dir = join(tmpdir(), `sbm-published-sandbox-${process.ppid}`);
  const world: PublishedSandbox = {
    dir,
    storeDir: join(dir, 'store'),
    warehousePath: join(dir, 'burns.duckdb'),
    truth: truthOfWorld(),
    firstDay: GENESIS.toISOString().slice(0, 10),
    today: new Date(NOW_MS).toISOString().slice(0, 10),
  };
  await buildOnce(dir, () => build(world));
  return world;
}

function truthOfWorld(): Truth {
  const finalizedNow = NOW_MS - SANDBOX_OPTIONS.finalityLag * SANDBOX_OPTIONS.blockTimeMs;
  const from = GENESIS.toISOString().slice(0, 10);
  const to = new Date(NOW_MS).toISOString().slice(0, 10);
  return buildTruth({ ...SANDBOX_OPTIONS, now: () => finalizedNow }, from, to);
}

async function build(world: PublishedSandbox): Promise<void> {
  const devnet = await startDevnet(SANDBOX_OPTIONS);
  try {
    const summary = await collect({
      chainUrl: devnet.url,
      warehousePath: world.warehousePath,
      concurrency: 32,
      clock: () => new Date(NOW_MS),
    });
    if (summary.status !== 'complete') throw new Error(`sandbox collection failed: ${summary.error}`);
    // What `sbm daily` does next: every collected day's share pools, then the fiat prices.
    await readDailySharePools({
      chainUrl: devnet.url,
      warehousePath: world.warehousePath,
      concurrency: 32,
      clock: () => new Date(NOW_MS),
    });
    await fetchFiatPrices({
      priceUrl: devnet.priceUrl,
      warehousePath: world.warehousePath,
      from: world.firstDay,
      to: world.today,
      clock: () => new Date(NOW_MS),
    });
  } finally {
    await devnet.stop();
  }
  const claims = join(world.dir, 'claims.csv');
  await writeFile(claims, claimsCsv(world));
  await importClaims({ file: claims, warehousePath: world.warehousePath });
  await publishSnapshots({
    warehousePath: world.warehousePath,
    store: new FolderObjectStore(world.storeDir),
    baseUrl: BASE_URL,
    keepRuns: 3,
    // Published an hour after the collection: burns_checked_at is "now", the data is current.
    now: () => new Date(NOW_MS + 3_600_000),
  });
}

/** The reused netuid: registered twice in the world's history. */
export function reusedNetuid(truth: Truth): number {
  const netuids = truth.subnets.map((subnet) => subnet.netuid);
  const reused = netuids.find((netuid, i) => netuids.indexOf(netuid) !== i);
  if (reused === undefined) throw new Error('the sandbox world has no reused netuid');
  return reused;
}

/**
 * Claims the tests check: two for netuid 1 (the later one is shown), and one for the reused netuid
 * published while its number belonged to the earlier subnet (not shown for the later one).
 */
export const CLAIMS = {
  olderText: 'Example only: we burn 5% of emissions.',
  newerText: 'Example only: we now burn 10% of emissions.',
  reusedText: 'Example only: the previous owner of this number burned weekly.',
};

function claimsCsv(world: PublishedSandbox): string {
  const day = (n: number) => new Date(GENESIS.getTime() + n * DAY_MS).toISOString().slice(0, 10);
  return [
    'netuid,text,name_at_source,source,published,reviewed',
    `1,"${CLAIMS.olderText}",Old Name,https://example.com/1/old,${day(10)},`,
    `1,"${CLAIMS.newerText}",,https://example.com/1/new,${day(20)},${day(21)}`,
    `${reusedNetuid(world.truth)},"${CLAIMS.reusedText}",Former,https://example.com/reused,${day(0)},`,
    '',
  ].join('\n');
}
