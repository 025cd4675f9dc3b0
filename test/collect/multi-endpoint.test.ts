/**
 * A backfill shared among several nodes (`--rpc` given more than once), as public archive nodes cap each
 * client: two sandbox nodes of one chain, the warehouse compared table for table with a one-node run. Then the
 * real command line over both nodes, killed with SIGKILL mid-backfill and started again: its progress lines give
 * blocks per second and the time left, the resumed run reads only the days the killed one had not committed,
 * and the warehouse again equals the one-node run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../../pipeline/collect/collect.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { dumpTables, warehouseAsTruth } from './warehouse-as-truth.js';

const GENESIS = new Date('2025-06-01T00:00:00Z');
const DAY = 86_400_000;
const NOW = GENESIS.getTime() + 5.5 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'multi-endpoint',
  historyDays: 5,
  genesis: GENESIS,
  // Five-minute blocks with mainnet's traffic: 288 full blocks a day; the latency makes a day take a while,
  // so the kill lands mid-backfill.
  blockTimeMs: 300_000,
  magnitudes: 'mainnet',
  latencyMs: 10,
  runtimes: 'legacy',
  now: () => NOW,
  port: 0,
  pricePort: 0,
};
const DAYS = ['2025-06-01', '2025-06-02', '2025-06-03', '2025-06-04', '2025-06-05'];

let nodeA: RunningDevnet;
let nodeB: RunningDevnet;
let dir: string;
let reference: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-multi-'));
  nodeA = await startDevnet(OPTIONS);
  nodeB = await startDevnet(OPTIONS);
  reference = join(dir, 'one-node.duckdb');
  await collect({
    chainUrl: nodeA.url,
    warehousePath: reference,
    from: DAYS[0]!,
    to: DAYS.at(-1)!,
    concurrency: 16,
  });
}, 300_000);

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

afterAll(async () => {
  await nodeA?.stop();
  await nodeB?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** `sbm ARGS` as its own node process (the pid is the command's, so SIGKILL kills the collector itself). */
function sbm(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SBM_DEBUG: '' },
  });
  children.push(child);
  return child;
}

function collectArgs(warehouse: string): string[] {
  return [
    'collect',
    '--rpc',
    nodeA.url,
    '--rpc',
    nodeB.url,
    '--from',
    DAYS[0]!,
    '--to',
    DAYS.at(-1)!,
    '--concurrency',
    '4',
    '--warehouse',
    warehouse,
  ];
}

describe('a backfill over several nodes', () => {
  it('shares its requests between the nodes and gives the warehouse of a one-node run', async () => {
    const path = join(dir, 'two-nodes.duckdb');
    const a = nodeA.requests();
    const b = nodeB.requests();
    const summary = await collect({
      chainUrl: nodeA.url,
      chainUrls: [nodeA.url, nodeB.url],
      warehousePath: path,
      from: DAYS[0]!,
      to: DAYS.at(-1)!,
      concurrency: 8,
    });
    expect(summary.blocks).toBeGreaterThan(1000);
    // Both nodes answered a fair share of the block reads.
    const fromA = nodeA.requests() - a;
    const fromB = nodeB.requests() - b;
    expect(Math.min(fromA, fromB)).toBeGreaterThan(summary.blocks * 0.5);
    expect(await dumpTables(path)).toEqual(await dumpTables(reference));
  }, 300_000);

  it('refuses nodes of two different chains before reading anything', async () => {
    const other = await startDevnet({ ...OPTIONS, seed: 'another-chain' });
    try {
      await expect(
        collect({
          chainUrl: nodeA.url,
          chainUrls: [nodeA.url, other.url],
          warehousePath: join(dir, 'mixed.duckdb'),
          from: DAYS[0]!,
          to: DAYS[0]!,
        }),
      ).rejects.toThrow(/serves another chain .* every --rpc must be a node of the same chain/);
    } finally {
      await other.stop();
    }
  }, 120_000);

  it('killed with SIGKILL and started again over both nodes, collects nothing twice and equals the one-node run', async () => {
    const path = join(dir, 'killed.duckdb');
    const first = sbm(collectArgs(path));
    let log = '';
    const exited = new Promise((resolve) => first.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      first.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes(`collected ${DAYS[1]}`)) resolve();
      });
      first.once('exit', () => reject(new Error(`the backfill ended before it was killed:\n${log}`)));
    });
    first.kill('SIGKILL');
    await exited;
    // Each day's line gives the run's blocks per second and the time left.
    const line = log.split('\n').find((l) => l.startsWith(`collected ${DAYS[0]}`))!;
    expect(line).toMatch(/; \d+\/\d+ blocks, \d+ blocks\/s, (\d+[dhms])+\d*[hms]? left$/);
    const killed = await warehouseAsTruth(path);
    const committed = killed.days.map((d) => d.date as string);
    expect(committed.length).toBeGreaterThanOrEqual(2);
    expect(committed.length).toBeLessThan(DAYS.length);

    const second = sbm(collectArgs(path).filter((a, i, all) => !(a === '--from' || all[i - 1] === '--from')));
    let out = '';
    second.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise((resolve) => second.once('exit', resolve));
    expect(code, out).toBe(0);
    expect(out).toMatch(/marked run \S+ .*interrupted/);
    // The resumed run read only the days the killed one had not committed.
    const resumedDays = [...out.matchAll(/^collected (\d{4}-\d{2}-\d{2})/gm)].map((m) => m[1]);
    expect(resumedDays).toEqual(DAYS.filter((d) => !committed.includes(d)));
    expect(await dumpTables(path)).toEqual(await dumpTables(reference));
    const warehouse = await openWarehouse(path, { readOnly: true });
    const runs = await warehouse.rows('SELECT status FROM collection_runs ORDER BY started_at');
    warehouse.close();
    expect(runs.map((r) => r['status'])).toEqual(['interrupted', 'complete']);
  }, 300_000);
});
