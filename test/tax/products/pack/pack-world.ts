/**
 * A sandbox world published by the real pipeline as `sbm daily` does it (collect → fiat prices from the
 * sandbox's price API → publish with the chain, so `tax/calendar.json` places the summer UK days), with the
 * sandbox kept running: the pack reads stake from it at past blocks. Used by the pack tests, the pack bench
 * and `make pack-preview`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect } from '../../../../pipeline/collect/collect.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../../../pipeline/devnet/index.js';
import { fetchFiatPrices } from '../../../../pipeline/prices/fetch-fiat-prices.js';
import { publishSnapshots } from '../../../../pipeline/snapshots/publish-snapshots.js';
import { FolderObjectStore } from '../../../../pipeline/store/index.js';
import { readDailySharePools } from '../../../../pipeline/yields/read-share-pools.js';

const DAY_MS = 86_400_000;

export interface PackWorld {
  dir: string;
  store: FolderObjectStore;
  devnet: RunningDevnet;
  options: DevnetOptions;
  /** The instant the world stands at (its clock). */
  nowMs: number;
  close(): Promise<void>;
}

export interface PackWorldOptions {
  seed?: string;
  /** First day of the world (UTC midnight). */
  genesis: Date;
  historyDays: number;
  blockTimeMs?: number;
  /** Hours into the last day the world's clock stands at. */
  hoursIntoToday?: number;
  /** A fixed clock (tests) or the real one (the preview). */
  realClock?: boolean;
  latencyMs?: number;
  /** First block of the sandbox's spec 425 (, with the demo coldkey's life); placed by default. */
  spec425Block?: number;
  /** First block of spec 473 (the V1 share maps gone, the AlphaV2 migration's sweep); placed by default. */
  spec473Block?: number;
  /** Which runtimes the history runs where the blocks above are not named (the sandbox's default: today's). */
  runtimes?: DevnetOptions['runtimes'];
  /** Read every collected day's share pools too, as `sbm daily` does: the tax check's yields need them. */
  sharePools?: boolean;
  /** The sandbox's purpose-made lease dividend credited with no event (devnet `--untold-lease-dividend`). */
  untoldLeaseDividend?: boolean;
  /** The sandbox's big coldkeys (docs/sandbox.md "Big coldkeys"); none by default. */
  bigColdkeys?: boolean;
  /** The world's magnitudes (default: the sandbox's default for code, adversarial). */
  magnitudes?: DevnetOptions['magnitudes'];
  /** Mainnet's traffic filler (null: none; default: the world's). */
  eventsPerBlock?: number | null;
}

export async function publishPackWorld(options: PackWorldOptions): Promise<PackWorld> {
  const nowMs = options.realClock
    ? Date.now()
    : options.genesis.getTime() + options.historyDays * DAY_MS + (options.hoursIntoToday ?? 15) * 3_600_000;
  const devnetOptions: DevnetOptions = {
    ...defaultDevnetOptions,
    seed: options.seed ?? 'demo',
    historyDays: options.historyDays,
    genesis: options.genesis,
    blockTimeMs: options.blockTimeMs ?? 600_000,
    port: 0,
    pricePort: 0,
    latencyMs: options.latencyMs ?? 0,
    ...(options.spec425Block === undefined ? {} : { spec425Block: options.spec425Block }),
    ...(options.spec473Block === undefined ? {} : { spec473Block: options.spec473Block }),
    ...(options.runtimes === undefined ? {} : { runtimes: options.runtimes }),
    ...(options.untoldLeaseDividend ? { untoldLeaseDividend: true } : {}),
    ...(options.bigColdkeys ? { bigColdkeys: true } : {}),
    ...(options.magnitudes === undefined ? {} : { magnitudes: options.magnitudes }),
    ...(options.eventsPerBlock === undefined ? {} : { eventsPerBlock: options.eventsPerBlock }),
    ...(options.realClock ? {} : { now: () => nowMs }),
  };
  const dir = await mkdtemp(join(tmpdir(), 'sbm-pack-world-'));
  const devnet = await startDevnet(devnetOptions);
  const clock = () => new Date(options.realClock ? Date.now() : nowMs);
  try {
    const warehousePath = join(dir, 'burns.duckdb');
    const summary = await collect({ chainUrl: devnet.url, warehousePath, concurrency: 32, clock });
    if (summary.status !== 'complete') throw new Error(`sandbox collection failed: ${summary.error}`);
    if (options.sharePools) {
      await readDailySharePools({ chainUrl: devnet.url, warehousePath, concurrency: 32, clock });
    }
    const firstDay = options.genesis.toISOString().slice(0, 10);
    await fetchFiatPrices({
      priceUrl: devnet.priceUrl,
      warehousePath,
      from: firstDay,
      to: clock().toISOString().slice(0, 10),
      clock,
    });
    const store = new FolderObjectStore(join(dir, 'store'));
    await publishSnapshots({
      warehousePath,
      store,
      baseUrl: 'https://sbm.example',
      keepRuns: 2,
      now: clock,
      chain: { url: devnet.url, concurrency: 32 },
    });
    return {
      dir,
      store,
      devnet,
      options: devnetOptions,
      nowMs,
      async close() {
        await devnet.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await devnet.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
