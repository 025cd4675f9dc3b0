/**
 * The collection ledger against real processes: a run names its process, the next run marks it
 * `interrupted` once that process is gone, and refuses to start while it is alive. Files made before the
 * process columns are upgraded in place.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  burnsCheckedAt,
  CollectionRunningError,
  finishRun,
  recentRuns,
  startRun,
} from '../../pipeline/warehouse/collection-runs.js';
import { openWarehouse, type Warehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { currentProcess, processOf } from '../../pipeline/warehouse/run-process.js';

let dir: string;
let path: string;
let children: ChildProcess[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-runs-'));
  path = join(dir, 'burns.duckdb');
  children = [];
});
afterEach(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const T0 = new Date('2025-03-02T00:00:00Z');
const T1 = new Date('2025-03-02T06:00:00Z');

/** A real process that stays alive until killed. */
async function sleeper(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return child as ChildProcess & { pid: number };
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function statuses(wh: Warehouse) {
  return wh.rows(
    `SELECT run_id, status, kind, pid, host, epoch_ms(interrupted_noticed_at) AS noticed_ms, error
       FROM collection_runs ORDER BY started_at`,
  );
}

describe('collection runs', () => {
  it('records the process of a run and finishes it', async () => {
    const wh = await openWarehouse(path);
    const { runId, interrupted } = await startRun(wh, T0, { kind: 'daily' });
    expect(interrupted).toEqual([]);
    const here = currentProcess();
    const [row] = await wh.rows(
      `SELECT status, kind, pid, host, process_start_ticks AS ticks FROM collection_runs WHERE run_id = $id`,
      { id: runId },
    );
    expect(row).toEqual({
      status: 'running',
      kind: 'daily',
      pid: process.pid,
      host: hostname(),
      ticks: here.startTicks,
    });
    await finishRun(wh, runId, { fromBlock: 1, toBlock: 9, error: null, now: T1 });
    expect(await burnsCheckedAt(wh)).toEqual(T1);
    wh.close();
  });

  it('marks a running row whose process has exited interrupted, and starts', async () => {
    const wh = await openWarehouse(path);
    const child = await sleeper();
    const { runId: dead } = await startRun(wh, T0, { process: processOf(child.pid) });
    await killed(child);
    const { runId, interrupted } = await startRun(wh, T1);
    expect(interrupted).toEqual([
      { runId: dead, startedAt: T0, why: `pid ${child.pid} on ${hostname()} has exited` },
    ]);
    expect(await statuses(wh)).toEqual([
      {
        run_id: dead,
        status: 'interrupted',
        kind: 'collect',
        pid: child.pid,
        host: hostname(),
        noticed_ms: BigInt(T1.getTime()),
        error: `pid ${child.pid} on ${hostname()} has exited`,
      },
      {
        run_id: runId,
        status: 'running',
        kind: 'collect',
        pid: process.pid,
        host: hostname(),
        noticed_ms: null,
        error: null,
      },
    ]);
    wh.close();
  });

  it('refuses to start while the recorded process is alive, naming its pid and start time', async () => {
    const wh = await openWarehouse(path);
    const child = await sleeper();
    await startRun(wh, T0, { kind: 'daily', process: processOf(child.pid) });
    const before = await statuses(wh);
    const refused = await startRun(wh, T1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CollectionRunningError);
    expect((refused as Error).message).toBe(
      `another collection is running on this warehouse (pid ${child.pid}, started 2025-03-02T00:00:00Z, ` +
        'sbm daily); wait for it to finish, or stop that process',
    );
    expect(await statuses(wh)).toEqual(before);
    // Once that process is gone, the next run goes ahead.
    await killed(child);
    expect((await startRun(wh, T1)).interrupted).toHaveLength(1);
    wh.close();
  });

  it.skipIf(currentProcess().startTicks === null)(
    `takes a live pid with another start time for a reused pid: the run is interrupted${
      currentProcess().startTicks === null
        ? ' (skipped: no process start time here: /proc/<pid>/stat cannot be read, not Linux)'
        : ''
    }`,
    async () => {
      const wh = await openWarehouse(path);
      const child = await sleeper();
      const recorded = processOf(child.pid);
      await startRun(wh, T0, { process: { ...recorded, startTicks: (recorded.startTicks ?? 0n) - 1n } });
      const { interrupted } = await startRun(wh, T1);
      expect(interrupted.map((run) => run.why)).toEqual([
        `pid ${child.pid} on ${hostname()} has exited (the pid now belongs to another process)`,
      ]);
      wh.close();
    },
  );

  it('takes a row from another host for a copied file: the run is interrupted', async () => {
    const wh = await openWarehouse(path);
    await startRun(wh, T0, { process: { pid: process.pid, host: 'elsewhere', startTicks: null } });
    const { interrupted } = await startRun(wh, T1);
    expect(interrupted.map((run) => run.why)).toEqual([
      `pid ${process.pid} on elsewhere is not on this host (${hostname()})`,
    ]);
    wh.close();
  });

  it('upgrades a file made before runs recorded their process, keeping its rows', async () => {
    await writeOldFile(path);
    // Read-only, before any writer of this version opened it: the missing columns read as null.
    const readOnly = await openWarehouse(path, { readOnly: true });
    expect((await recentRuns(readOnly, 5)).map((run) => [run.runId, run.status, run.process])).toEqual([
      ['old-running', 'running', { pid: null, host: null, startTicks: null }],
      ['old-complete', 'complete', { pid: null, host: null, startTicks: null }],
    ]);
    readOnly.close();

    const wh = await openWarehouse(path);
    const { runId, interrupted } = await startRun(wh, T1);
    expect(interrupted.map((run) => [run.runId, run.why])).toEqual([
      ['old-running', 'no process was recorded (an older sbm)'],
    ]);
    expect((await statuses(wh)).map((row) => [row['run_id'], row['status'], row['pid']])).toEqual([
      ['old-complete', 'complete', null],
      ['old-running', 'interrupted', null],
      [runId, 'running', process.pid],
    ]);
    expect(await burnsCheckedAt(wh)).toEqual(new Date('2025-03-01T00:05:00Z'));
    // Rebuilt from the whole schema: the table's comments are there again.
    const uncommented = await wh.rows(
      `SELECT column_name FROM duckdb_columns() WHERE table_name = 'collection_runs' AND coalesce(comment, '') = ''`,
    );
    expect(uncommented).toEqual([]);
    // The rebuilt table carries the new CHECK: statuses outside the list are still refused.
    await expect(
      wh.run(`UPDATE collection_runs SET status = 'bogus' WHERE run_id = 'old-complete'`),
    ).rejects.toThrow(/CHECK/i);
    wh.close();
  });
});

/** The table as the first schema made it: status limited to running / complete / failed, no process. */
async function writeOldFile(file: string): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run(`
    CREATE TABLE collection_runs (
      run_id VARCHAR PRIMARY KEY,
      started_at TIMESTAMPTZ NOT NULL,
      completed_at TIMESTAMPTZ,
      from_block BIGINT,
      to_block BIGINT,
      status VARCHAR NOT NULL CHECK (status IN ('running', 'complete', 'failed')),
      error VARCHAR
    );
    INSERT INTO collection_runs VALUES
      ('old-complete', TIMESTAMPTZ '2025-03-01 00:00:00+00', TIMESTAMPTZ '2025-03-01 00:05:00+00', 1, 9, 'complete', NULL),
      ('old-running', TIMESTAMPTZ '2025-03-01 12:00:00+00', NULL, NULL, NULL, 'running', NULL);
  `);
  connection.closeSync();
  instance.closeSync();
}
