/** The `collection_runs` ledger: one row per collect run, so freshness (`burns_checked_at`) can be told. */
import { randomUUID } from 'node:crypto';
import type { Warehouse } from './open-warehouse.js';

export async function startRun(warehouse: Warehouse, now: Date): Promise<string> {
  const runId = `${now.toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomUUID().slice(0, 8)}`;
  await warehouse.run(
    `INSERT INTO collection_runs (run_id, started_at, status) VALUES ($id, make_timestamptz($t::BIGINT * 1000), 'running')`,
    { id: runId, t: BigInt(now.getTime()) },
  );
  return runId;
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
