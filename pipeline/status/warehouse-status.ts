/**
 * The warehouse part of `sbm status`, read-only. A writer (a collection writing a day, `sbm prices`)
 * keeps readers out while it holds the file; collect holds it only between reads of the chain, so a
 * short wait usually gets in, and a longer hold is reported as `locked` rather than as a failure.
 */
import { existsSync } from 'node:fs';
import { daysWithoutRate } from '../prices/missing-rates.js';
import { readCollectedRange } from '../warehouse/collected-range.js';
import { burnsCheckedAt, type RunRecord, recentRuns } from '../warehouse/collection-runs.js';
import { openWarehouse } from '../warehouse/open-warehouse.js';
import { livenessOf } from '../warehouse/run-process.js';
import { WarehouseLockedError } from '../warehouse/warehouse-errors.js';
import type { RunEntry, WarehouseStatus } from './status-report.js';

export interface WarehouseStatusOptions {
  /** How many of the latest runs to list. */
  runs: number;
  /** How long to wait for a writer to release the file. */
  lockWaitMs: number;
}

export async function readWarehouseStatus(
  path: string,
  options: WarehouseStatusOptions,
): Promise<WarehouseStatus> {
  const unread = (state: 'missing' | 'locked' | 'unreadable', message: string): WarehouseStatus => ({
    path,
    state,
    message,
    collected: null,
    burns_checked_at: null,
    days_without_rate: null,
    runs: [],
  });
  if (path !== ':memory:' && !existsSync(path)) {
    return unread('missing', `no warehouse at ${path} (nothing collected yet?)`);
  }
  let warehouse: Awaited<ReturnType<typeof openWarehouse>>;
  try {
    warehouse = await openWarehouse(path, { readOnly: true, lockWaitMs: options.lockWaitMs });
  } catch (error) {
    if (error instanceof WarehouseLockedError) {
      // The lock error names the holder (and whether it writes) and says what to do.
      return unread('locked', error.message);
    }
    return unread('unreadable', messageOf(error));
  }
  try {
    const range = await readCollectedRange(warehouse);
    const checkedAt = await burnsCheckedAt(warehouse);
    const runs = await recentRuns(warehouse, options.runs);
    const withoutRate = await daysWithoutRate(warehouse);
    return {
      path,
      state: 'ok',
      message: null,
      collected:
        range === null
          ? null
          : {
              first_day: range.firstDay,
              last_day: range.lastDay,
              days: range.days,
              last_complete_day: range.lastCompleteDay,
              partial_day: range.partialDay,
              gaps: range.gaps,
              incomplete_days: range.incomplete,
            },
      burns_checked_at: checkedAt?.toISOString() ?? null,
      days_without_rate: withoutRate,
      runs: runs.map(runEntry),
    };
  } catch (error) {
    return unread('unreadable', messageOf(error));
  } finally {
    warehouse.close();
  }
}

/** A `running` row is judged as the next run would judge it: by whether its process is still there. */
function runEntry(run: RunRecord): RunEntry {
  const liveness = run.status === 'running' ? livenessOf(run.process) : null;
  const alive = liveness?.alive ?? null;
  return {
    run_id: run.runId,
    kind: run.kind,
    status: run.status,
    outcome: alive === false ? 'interrupted' : run.status,
    started_at: run.startedAt.toISOString(),
    completed_at: run.completedAt?.toISOString() ?? null,
    pid: run.process.pid,
    host: run.process.host,
    process_alive: alive,
    // The words the next run will record when it marks the row.
    error: run.error ?? (liveness !== null && !liveness.alive ? liveness.why : null),
    interrupted_noticed_at: run.interruptedNoticedAt?.toISOString() ?? null,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
