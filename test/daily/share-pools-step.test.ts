/**
 * `sbm daily` reads the collected days' share pools before it publishes, and a failed read fails the run
 * like a failed collection: nothing is published. The failure is real: the warehouse was collected from a
 * chain further ahead than the node daily now talks to, so a day's last block does not exist there.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../../pipeline/collect/collect.js';
import { silentProgress } from '../../pipeline/collect/progress.js';
import { DailyFailedError, runDaily } from '../../pipeline/daily/run-daily.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { FolderObjectStore, readManifest } from '../../pipeline/store/index.js';

const GENESIS = new Date('2025-06-01T00:00:00Z');
const DAY = 86_400_000;
const options = (nowMs: number): DevnetOptions => ({
  ...defaultDevnetOptions,
  seed: 'daily-share-pools',
  historyDays: 2,
  genesis: GENESIS,
  blockTimeMs: 600_000,
  now: () => nowMs,
  port: 0,
  pricePort: 0,
});

let ahead: RunningDevnet;
let behind: RunningDevnet;
let dir: string;

beforeAll(async () => {
  ahead = await startDevnet(options(GENESIS.getTime() + 2.25 * DAY));
  behind = await startDevnet(options(GENESIS.getTime() + 1.5 * DAY));
  dir = await mkdtemp(join(tmpdir(), 'sbm-daily-pools-'));
});

afterAll(async () => {
  await ahead?.stop();
  await behind?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const daily = (devnet: RunningDevnet, warehousePath: string, store: FolderObjectStore) =>
  runDaily({
    chainUrl: devnet.url,
    priceUrl: devnet.priceUrl,
    warehousePath,
    store,
    baseUrl: 'https://sbm.example',
    keepRuns: 2,
    concurrency: 8,
    progress: silentProgress,
    warn: () => undefined,
  });

describe('sbm daily and the share pools', () => {
  it('reads every collected day’s pools, then publishes the yields', async () => {
    const store = new FolderObjectStore(join(dir, 'ok-store'));
    const { summary } = await daily(ahead, join(dir, 'ok.duckdb'), store);
    expect(summary.sharePools.days).toBe(3);
    expect(summary.sharePools.pools).toBeGreaterThan(0);
    const manifest = await readManifest(store, '');
    expect(manifest?.objects.map((o) => o.path)).toContain('tax/yields.json');
  });

  it('publishes nothing when the pools cannot be read', async () => {
    const warehousePath = join(dir, 'failing.duckdb');
    const collected = await collect({ chainUrl: ahead.url, warehousePath, concurrency: 8 });
    expect(collected.status).toBe('complete');
    const store = new FolderObjectStore(join(dir, 'failing-store'));
    const failed = await daily(behind, warehousePath, store).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(DailyFailedError);
    expect((failed as Error).message).toMatch(
      /^share pools not read \(block \d+ does not exist\); nothing was published/,
    );
    expect(await readManifest(store, '')).toBeNull();
  });
});
