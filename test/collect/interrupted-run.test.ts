/**
 * `sbm daily` killed mid-collection, as cron or an OOM killer would: real child processes of the real
 * command line against the sandbox chain over a WebSocket. The next run finds the dead run, marks it
 * `interrupted` and completes the warehouse, which then equals the sandbox's truth; `sbm status --json`
 * reports the dead run before that and exits non-zero; a second collection while one runs is refused.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
  type Truth,
} from '../../pipeline/devnet/index.js';
import type { StatusReport } from '../../pipeline/status/status-report.js';
import { warehouseAsTruth } from './warehouse-as-truth.js';

const GENESIS = new Date('2025-02-01T00:00:00Z');
const DAY = 86_400_000;
// Four and a half days: days 0-3 complete, day 4 is today (partial).
const NOW = GENESIS.getTime() + 4.5 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'interrupted-run',
  historyDays: 4,
  genesis: GENESIS,
  // Ten-minute blocks keep a day to 144 blocks; the answer latency makes each day take a while, so the
  // kill lands between days.
  blockTimeMs: 600_000,
  latencyMs: 15,
  now: () => NOW,
  port: 0,
  pricePort: 0,
  // The history before today's runtimes: the staking events compared here, table for table, are those the
  // truth lists as staking_events (one row per call of the six old kinds). Today's runtimes are collected and
  // held against the truth's actions in test/tax/products/pack/spec-425-pack and spec-473-pack.
  runtimes: 'legacy',
};
const FIRST_DAY = '2025-02-01';

let devnet: RunningDevnet;
let dir: string;
let truth: Truth;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-interrupted-'));
  devnet = await startDevnet(OPTIONS);
  const finalizedNow = NOW - OPTIONS.finalityLag * OPTIONS.blockTimeMs;
  truth = buildTruth({ ...OPTIONS, now: () => finalizedNow }, FIRST_DAY, '2025-02-05');
}, 60_000);

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

afterAll(async () => {
  await devnet?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** `sbm ARGS` as its own node process (not through npx or the tsx binary: the pid is the command's). */
function sbm(args: string[]): ChildProcess & { pid: number } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SBM_DEBUG: '' },
  });
  children.push(child);
  return child as ChildProcess & { pid: number };
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

function run(args: string[]): Promise<Finished> {
  return finished(sbm(args));
}

/** Resolves once the child has written `collected <day>` (the day's transaction has committed). */
function firstDayCommitted(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(`collected ${FIRST_DAY}`)) resolve(log);
    });
    child.once('exit', () =>
      reject(new Error(`the command exited before its first day was collected:\n${log}`)),
    );
  });
}

async function status(
  warehouse: string,
  store: string,
): Promise<{ code: number | null; report: StatusReport }> {
  const result = await run(['status', '--json', '--warehouse', warehouse, '--store', `file:${store}`]);
  return { code: result.code, report: JSON.parse(result.stdout) as StatusReport };
}

function dailyArgs(warehouse: string, store: string): string[] {
  return [
    'daily',
    ...['--chain-url', devnet.url, '--price-url', devnet.priceUrl],
    ...['--warehouse', warehouse, '--store', `file:${store}`, '--concurrency', '2'],
  ];
}

describe('a killed daily', () => {
  it('is reported by status, marked interrupted by the next run, and leaves the warehouse intact', async () => {
    const warehouse = join(dir, 'killed.duckdb');
    const store = join(dir, 'killed-store');
    const daily = sbm(dailyArgs(warehouse, store));
    const exited = new Promise((resolve) => daily.once('exit', resolve));
    await firstDayCommitted(daily);
    daily.kill('SIGKILL');
    await exited;
    // The slow answers were only there to catch the run mid-way.
    devnet.setFaults({ latencyMs: 0 });

    // Before any other run: the row still says running, and status sees that its process is gone.
    const before = await status(warehouse, store);
    expect(before.code).toBe(2);
    const dead = before.report.warehouse.runs[0]!;
    expect(dead).toMatchObject({
      kind: 'daily',
      status: 'running',
      outcome: 'interrupted',
      pid: daily.pid,
      host: hostname(),
      process_alive: false,
      completed_at: null,
      error: `pid ${daily.pid} on ${hostname()} has exited`,
    });
    expect(before.report.attention).toContain(
      `last collection ${dead.run_id} was interrupted: ${dead.error}`,
    );
    expect(before.report.published.state).toBe('none');

    // What the killed run committed is whole: every collected day equals the truth, burn for burn.
    const partial = await warehouseAsTruth(warehouse);
    const days = partial.days.length;
    expect(days).toBeGreaterThanOrEqual(1);
    expect(days).toBeLessThan(truth.days.length);
    expect(partial.days).toEqual(truth.days.slice(0, days));
    const lastBlock = truth.days[days - 1]!.last_block;
    expect(partial.burns).toEqual(truth.burns.filter((burn) => burn.block <= lastBlock));
    expect(partial.staking_events).toEqual(truth.staking_events.filter((event) => event.block <= lastBlock));

    // The next collect marks it, says so, and completes the warehouse.
    const resumed = await run([
      'collect',
      '--chain-url',
      devnet.url,
      '--warehouse',
      warehouse,
      '--concurrency',
      '8',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(
      new RegExp(
        `marked run ${dead.run_id} \\(started \\S+Z\\) interrupted: pid ${daily.pid} on \\S+ has exited`,
      ),
    );
    const got = await warehouseAsTruth(warehouse);
    expect(got.days).toEqual(truth.days);
    expect(got.burns).toEqual(truth.burns);
    expect(got.staking_events).toEqual(truth.staking_events);
    expect(got.panel_prices).toEqual(truth.panel_prices);

    const after = await status(warehouse, store);
    const [last, marked] = after.report.warehouse.runs;
    expect(last).toMatchObject({
      kind: 'collect',
      status: 'complete',
      outcome: 'complete',
      process_alive: null,
    });
    expect(marked).toMatchObject({ run_id: dead.run_id, status: 'interrupted', outcome: 'interrupted' });
    expect(Date.parse(marked!.interrupted_noticed_at!)).toBeGreaterThanOrEqual(Date.parse(dead.started_at));
    expect(after.report.warehouse.collected).toMatchObject({
      first_day: FIRST_DAY,
      last_day: '2025-02-05',
      partial_day: '2025-02-05',
      gaps: [],
    });
    // Nothing is published yet: still attention.
    expect(after.code).toBe(2);
    // (This run fetched no fiat prices, so its collected days are also reported as having no rate.)
    expect(after.report.attention).toContain(
      `published: nothing published in ${after.report.published.store}`,
    );
    for (const line of after.report.attention.filter((l) => !l.startsWith('published:'))) {
      expect(line).toMatch(/^warehouse: \d+ collected day\(s\) have no TAO\/(GBP|USD) rate/);
    }

    // The collected days' fiat prices, as `sbm daily` fetches them after collecting: then nothing is missing.
    const prices = await run(['prices', 'fetch', '--price-url', devnet.priceUrl, '--warehouse', warehouse]);
    expect(prices.code, prices.stderr).toBe(0);
    const published = await run(['publish', '--warehouse', warehouse, '--store', `file:${store}`]);
    expect(published.code, published.stderr).toBe(0);
    const healthy = await status(warehouse, store);
    expect(healthy.report.attention).toEqual([]);
    expect(healthy.code).toBe(0);
    expect(healthy.report.published).toMatchObject({ state: 'ok', freshness: 'current' });
    expect(healthy.report.published.burns_checked_at).toBe(healthy.report.warehouse.burns_checked_at);
  }, 240_000);

  it('refuses a second collection while one runs, naming its pid and start time', async () => {
    const warehouse = join(dir, 'busy.duckdb');
    const store = join(dir, 'busy-store');
    // Slower answers than the killed run's: the daily must still be collecting while the second collection
    // and the status commands start (a few seconds each on a busy machine) and ask.
    devnet.setFaults({ latencyMs: 4 * OPTIONS.latencyMs });
    const daily = sbm(dailyArgs(warehouse, store));
    await firstDayCommitted(daily);

    const second = await run(['collect', '--chain-url', devnet.url, '--warehouse', warehouse]);
    // The daily holds the file for a moment at each day's write; status then says `locked`: ask again.
    let running = await status(warehouse, store);
    for (let tries = 0; running.report.warehouse.state === 'locked' && tries < 5; tries++) {
      running = await status(warehouse, store);
    }
    daily.kill('SIGKILL');

    const first = running.report.warehouse.runs[0]!;
    expect(first).toMatchObject({
      kind: 'daily',
      status: 'running',
      outcome: 'running',
      process_alive: true,
    });
    expect(first.pid).toBe(daily.pid);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `error: another collection is running on this warehouse (pid ${daily.pid}, started ` +
        `${first.started_at.replace(/\.\d{3}Z$/, 'Z')}, sbm daily); wait for it to finish, or stop that process\n`,
    );
    // The refused run left no row.
    expect(running.report.warehouse.runs).toHaveLength(1);
  }, 240_000);
});
