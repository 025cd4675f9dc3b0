/**
 * Collection against the sandbox chain over a real WebSocket, compared with the sandbox's ground truth:
 * three full days spanning the runtime upgrade (spec 343 → 393) and a netuid reuse, plus today (partial).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../../pipeline/collect/collect.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
  type Truth,
} from '../../pipeline/devnet/index.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { dumpTables, warehouseAsTruth } from './warehouse-as-truth.js';

const GENESIS = new Date('2025-01-01T00:00:00Z');
const DAY = 86_400_000;
// Three and a half days after genesis: days 0-2 are complete, day 3 is today.
const NOW = GENESIS.getTime() + 3.5 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'collect-2',
  historyDays: 4,
  genesis: GENESIS,
  now: () => NOW,
  port: 0,
  pricePort: 0,
  // The history before today's runtimes: the staking events compared here, table for table, are those the
  // truth lists as staking_events (one row per call of the six old kinds). Today's runtimes are collected and
  // held against the truth's actions in test/tax/products/pack/spec-425-pack and spec-473-pack.
  runtimes: 'legacy',
};
const FULL_DAYS = ['2025-01-01', '2025-01-02', '2025-01-03'];
const TODAY = '2025-01-04';

let devnet: RunningDevnet;
let dir: string;
let cleanPath: string;
let truth: Truth;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-collect-'));
  devnet = await startDevnet(OPTIONS);
  // The collector stops at the finalized head; the truth of that moment ends there too.
  const finalizedNow = NOW - OPTIONS.finalityLag * OPTIONS.blockTimeMs;
  truth = buildTruth({ ...OPTIONS, now: () => finalizedNow }, FULL_DAYS[0]!, TODAY);
  cleanPath = join(dir, 'clean.duckdb');
  // No --from/--to: an empty warehouse starts at the chain's first day and ends today.
  await collect({ chainUrl: devnet.url, warehousePath: cleanPath, concurrency: 32 });
}, 180_000);

afterAll(async () => {
  await devnet?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('collect against the sandbox', () => {
  it('covers what the test claims: the upgrade and a netuid reuse inside the full days', () => {
    const lastFull = truth.days[2]!;
    expect(truth.upgrade_block).toBeGreaterThan(truth.days[0]!.first_block);
    expect(truth.upgrade_block).toBeLessThanOrEqual(lastFull.last_block);
    const netuids = truth.subnets.map((s) => s.netuid);
    const reused = netuids.filter((n, i) => netuids.indexOf(n) !== i);
    expect(reused).toHaveLength(1);
    const reRegistered = truth.subnets.find((s) => s.netuid === reused[0] && s.registered_at > 0)!;
    expect(reRegistered.registered_at).toBeLessThanOrEqual(lastFull.last_block);
    // Burns of both registrations of the reused netuid, and buybacks (spec 393 only), are in the truth.
    const ofReused = new Set(truth.burns.filter((b) => b.netuid === reused[0]).map((b) => b.registered_at));
    expect(ofReused.size).toBe(2);
    expect(truth.burns.some((b) => b.kind === 'buyback')).toBe(true);
    expect(truth.burns.some((b) => b.kind === 'recycle')).toBe(true);
  });

  it('equals the truth: days, every burn, every staking event, every panel price', async () => {
    const got = await warehouseAsTruth(cleanPath);
    expect(got.days).toEqual(truth.days);
    expect(got.flags).toEqual([
      ...FULL_DAYS.map((date) => ({ date, complete: true, partial: false })),
      { date: TODAY, complete: false, partial: true },
    ]);
    expect(got.burns.length).toBe(truth.burns.length);
    expect(got.burns).toEqual(truth.burns);
    expect(got.staking_events).toEqual(truth.staking_events);
    expect(got.panel_prices).toEqual(truth.panel_prices);
  });

  it('records the subnets registered at each panel block with their names and symbols', async () => {
    const got = await warehouseAsTruth(cleanPath);
    const expected = truth.days.flatMap((day) =>
      truth.subnets
        .filter((s) => s.registered_at <= day.last_block && (s.deregistered_at ?? Infinity) > day.last_block)
        .map((s) => ({
          date: day.date,
          netuid: s.netuid,
          registered_at: s.registered_at,
          name: s.name,
          symbol: s.symbol,
        }))
        .sort((a, b) => a.netuid - b.netuid),
    );
    expect(got.subnets).toEqual(expected);
  });

  it('collects again from the last complete day: only today is read, and nothing else changes', async () => {
    const before = await dumpTables(cleanPath);
    const summary = await collect({ chainUrl: devnet.url, warehousePath: cleanPath, concurrency: 32 });
    expect(summary.days.map((d) => d.day)).toEqual([TODAY]);
    // Explicitly re-running a complete day changes nothing either.
    await collect({ chainUrl: devnet.url, warehousePath: cleanPath, from: FULL_DAYS[1]!, to: FULL_DAYS[1]! });
    expect(await dumpTables(cleanPath)).toEqual(before);
    const wh = await openWarehouse(cleanPath, { readOnly: true });
    const runs = await wh.rows(`SELECT status, count(*) AS n FROM collection_runs GROUP BY status`);
    wh.close();
    expect(runs).toEqual([{ status: 'complete', n: 3n }]);
  });

  it('gives identical tables under injected RPC errors and dropped sockets', async () => {
    const path = join(dir, 'faults.duckdb');
    devnet.setFaults({ failRate: 0.05, dropEvery: 500 });
    try {
      const summary = await collect({
        chainUrl: devnet.url,
        warehousePath: path,
        concurrency: 32,
        rpc: { baseDelayMs: 20, maxDelayMs: 500, maxAttempts: 20 },
      });
      expect(summary.retries).toBeGreaterThan(0);
    } finally {
      devnet.setFaults({ failRate: 0, dropEvery: 0 });
    }
    expect(await dumpTables(path)).toEqual(await dumpTables(cleanPath));
  }, 180_000);

  it('a run killed mid-day and started again gives identical tables', async () => {
    const path = join(dir, 'killed.duckdb');
    const script = join(dir, 'collect-child.mts');
    await writeFile(
      script,
      `import { collect } from ${JSON.stringify(join(process.cwd(), 'pipeline/collect/collect.ts'))};
       import { progressFor } from ${JSON.stringify(join(process.cwd(), 'pipeline/collect/progress.ts'))};
       await collect({ chainUrl: ${JSON.stringify(devnet.url)}, warehousePath: ${JSON.stringify(path)},
         concurrency: 4, progress: progressFor(process.stderr) });`,
    );
    // node itself, not the tsx binary: tsx runs the script in a child process that a SIGKILL of the
    // wrapper would leave running (and still collecting).
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: process.cwd(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Kill it as soon as the first day is committed: the days of a batch are read before they are written
    // (day-batches.ts), so the first day's line comes when nearly every block is read, and an idle machine
    // wrote the rest within a few hundred milliseconds. A little latency on the sandbox's answers keeps the
    // blocks still to read, and the other days' writes, from finishing before the kill lands.
    devnet.setFaults({ latencyMs: 2 });
    try {
      await new Promise<void>((resolve, reject) => {
        let log = '';
        child.stderr.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          if (log.includes(`collected ${FULL_DAYS[0]}`)) resolve();
        });
        child.once('exit', () => reject(new Error(`collector exited before it was killed:\n${log}`)));
      });
      child.kill('SIGKILL');
      await exited;
    } finally {
      devnet.setFaults({ latencyMs: 0 });
    }
    const partial = await warehouseAsTruth(path);
    // Whole days up to some day (a quick run may have committed every full day by then).
    const kept = partial.days.map((d) => String(d.date)).filter((day) => FULL_DAYS.includes(day));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept).toEqual(FULL_DAYS.slice(0, kept.length));
    await collect({ chainUrl: devnet.url, warehousePath: path, concurrency: 32 });
    expect(await dumpTables(path)).toEqual(await dumpTables(cleanPath));
  }, 180_000);
});
