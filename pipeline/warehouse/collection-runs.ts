/**
 * The `collection_runs` ledger: one row per collection, so freshness (`burns_checked_at`) can be told,
 * and so two collections never write one warehouse at once. Collect opens the file only to write each
 * day, so DuckDB's own lock does not keep a second run out; the ledger does. Its `running` row is
 * committed before the long work, naming the process; the next run marks it `interrupted` when that
 * process is gone, and refuses to start while it is alive.
 */
import { randomUUID } from 'node:crypto';
import { type Row, readSchemaSql, type Warehouse } from './open-warehouse.js';
import { currentProcess, livenessOf, type RecordedProcess, type RunProcess } from './run-process.js';
import { WarehouseError } from './warehouse-errors.js';

/** Which command started the collection. */
export type RunKind = 'collect' | 'daily';
export type RunStatus = 'running' | 'complete' | 'failed' | 'interrupted';

export interface StartRunOptions {
  kind?: RunKind;
  /** The process to record; default: this one. */
  process?: RunProcess;
}

export interface InterruptedRun {
  runId: string;
  startedAt: Date;
  /** Why its process counts as gone, e.g. `pid 1234 on host-a has exited`. */
  why: string;
}

export interface StartedRun {
  runId: string;
  /** Earlier `running` rows whose process was gone: now marked `interrupted`. */
  interrupted: InterruptedRun[];
}

/** A collection whose process is alive already has a `running` row on this warehouse. */
export class CollectionRunningError extends WarehouseError {
  override name = 'CollectionRunningError';
  constructor(
    readonly runId: string,
    readonly pid: number,
    readonly startedAt: Date,
    readonly kind: string | null,
  ) {
    super(
      `another collection is running on this warehouse (pid ${pid}, started ${isoSeconds(startedAt)}` +
        `${kind ? `, sbm ${kind}` : ''}); wait for it to finish, or stop that process`,
    );
  }
}

export async function startRun(
  warehouse: Warehouse,
  now: Date,
  options: StartRunOptions = {},
): Promise<StartedRun> {
  await upgradeRunsTable(warehouse);
  const here = options.process ?? currentProcess();
  const runId = `${now.toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomUUID().slice(0, 8)}`;
  // One transaction, and DuckDB lets one process write the file at a time: two runs starting together
  // cannot both see no live run.
  const outcome = await warehouse.transaction(async () => {
    const interrupted: InterruptedRun[] = [];
    const alive: RunRecord[] = [];
    for (const run of await runsWhere(warehouse, `status = 'running'`)) {
      const liveness = livenessOf(run.process, here);
      if (liveness.alive) {
        alive.push(run);
        continue;
      }
      await warehouse.run(
        `UPDATE collection_runs SET status = 'interrupted', interrupted_noticed_at = make_timestamptz($t::BIGINT * 1000),
           error = coalesce(error, $why) WHERE run_id = $id`,
        { id: run.runId, t: BigInt(now.getTime()), why: liveness.why },
      );
      interrupted.push({ runId: run.runId, startedAt: run.startedAt, why: liveness.why });
    }
    if (alive.length === 0) {
      await warehouse.run(
        `INSERT INTO collection_runs (run_id, started_at, status, kind, pid, host, process_start_ticks)
         VALUES ($id, make_timestamptz($t::BIGINT * 1000), 'running', $kind, $pid, $host, $ticks)`,
        {
          id: runId,
          t: BigInt(now.getTime()),
          kind: options.kind ?? 'collect',
          pid: here.pid,
          host: here.host,
          ticks: here.startTicks,
        },
      );
    }
    return { interrupted, alive };
  });
  const [other] = outcome.alive;
  if (other !== undefined) {
    throw new CollectionRunningError(other.runId, other.process.pid ?? 0, other.startedAt, other.kind);
  }
  return { runId, interrupted: outcome.interrupted };
}

/** One line for the operator: which earlier run was found dead, and why. */
export function describeInterrupted(run: InterruptedRun): string {
  return `marked run ${run.runId} (started ${isoSeconds(run.startedAt)}) interrupted: ${run.why}`;
}

export async function finishRun(
  warehouse: Warehouse,
  runId: string,
  outcome: { fromBlock: number | null; toBlock: number | null; error: string | null; now: Date },
): Promise<void> {
  await warehouse.run(
    `UPDATE collection_runs SET completed_at = make_timestamptz($t::BIGINT * 1000), status = $status, error = $error,
       from_block = $from, to_block = $to WHERE run_id = $id`,
    {
      id: runId,
      t: BigInt(outcome.now.getTime()),
      status: outcome.error === null ? 'complete' : 'failed',
      error: outcome.error,
      from: outcome.fromBlock === null ? null : BigInt(outcome.fromBlock),
      to: outcome.toBlock === null ? null : BigInt(outcome.toBlock),
    },
  );
}

/** `burns_checked_at`: when the last complete collection finished, or null when none has. */
export async function burnsCheckedAt(warehouse: Warehouse): Promise<Date | null> {
  const rows = await warehouse.rows(
    `SELECT epoch_ms(max(completed_at)) AS t FROM collection_runs WHERE status = 'complete'`,
  );
  const t = rows[0]?.['t'];
  return t === null || t === undefined ? null : new Date(Number(t));
}

/** One row of the ledger. Fields added later are null in rows (and files) made before them. */
export interface RunRecord {
  runId: string;
  kind: RunKind | null;
  status: RunStatus;
  startedAt: Date;
  completedAt: Date | null;
  fromBlock: number | null;
  toBlock: number | null;
  error: string | null;
  process: RecordedProcess;
  interruptedNoticedAt: Date | null;
}

/** The latest `limit` runs, newest first. Works on a read-only file this version has not upgraded. */
export async function recentRuns(warehouse: Warehouse, limit: number): Promise<RunRecord[]> {
  return runsWhere(warehouse, 'true', `ORDER BY started_at DESC LIMIT ${Math.max(0, Math.trunc(limit))}`);
}

async function runsWhere(
  warehouse: Warehouse,
  where: string,
  tail = 'ORDER BY started_at',
): Promise<RunRecord[]> {
  // SELECT *: a file opened read-only may predate the process columns; missing ones read as null.
  const rows = await warehouse.rows(`SELECT * FROM collection_runs WHERE ${where} ${tail}`);
  return rows.map(toRecord);
}

function toRecord(row: Row): RunRecord {
  return {
    runId: String(row['run_id']),
    kind: (row['kind'] ?? null) as RunKind | null,
    status: row['status'] as RunStatus,
    startedAt: row['started_at'] as Date,
    completedAt: (row['completed_at'] ?? null) as Date | null,
    fromBlock: numberOrNull(row['from_block']),
    toBlock: numberOrNull(row['to_block']),
    error: (row['error'] ?? null) as string | null,
    process: {
      pid: numberOrNull(row['pid']),
      host: (row['host'] ?? null) as string | null,
      startTicks: (row['process_start_ticks'] ?? null) as bigint | null,
    },
    interruptedNoticedAt: (row['interrupted_noticed_at'] ?? null) as Date | null,
  };
}

/**
 * Files made before `interrupted` existed carry a status CHECK without it, and DuckDB cannot alter a
 * CHECK: rebuild the table once from schema.sql's definition, rows kept, in one transaction.
 */
async function upgradeRunsTable(warehouse: Warehouse): Promise<void> {
  const old = await warehouse.rows(
    `SELECT 1 FROM duckdb_constraints() WHERE database_name = current_database() AND schema_name = 'main'
       AND table_name = 'collection_runs' AND constraint_type = 'CHECK'
       AND constraint_text LIKE '%''running''%' AND constraint_text NOT LIKE '%''interrupted''%'`,
  );
  if (old.length === 0) return;
  const schema = await readSchemaSql();
  await warehouse.transaction(async () => {
    await warehouse.run('ALTER TABLE collection_runs RENAME TO collection_runs_before_upgrade');
    await warehouse.run(schema);
    await warehouse.run('INSERT INTO collection_runs BY NAME SELECT * FROM collection_runs_before_upgrade');
    await warehouse.run('DROP TABLE collection_runs_before_upgrade');
  });
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
