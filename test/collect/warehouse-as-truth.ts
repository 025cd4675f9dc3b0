/**
 * Reads a collected warehouse back in the sandbox truth's own shapes, so tests compare whole tables to
 * `buildTruth` (the world's own record), never to numbers copied from the pipeline.
 */
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';

const iso = (column: string) => `strftime(${column} AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ')`;
const text = (column: string) => `CAST(${column} AS VARCHAR)`;

export async function warehouseAsTruth(path: string) {
  const warehouse = await openWarehouse(path, { readOnly: true });
  try {
    const days = await warehouse.rows(
      `SELECT strftime(day, '%Y-%m-%d') AS date, first_block, last_block FROM collected_days ORDER BY day`,
    );
    const burns = await warehouse.rows(
      `SELECT block, event_index, extrinsic_index, ${iso('block_time')} AS time, netuid, registered_at, kind,
              coldkey, hotkey, ${text('alpha_rao')} AS alpha_rao, ${text('tao_rao')} AS tao_rao
         FROM burns ORDER BY block, event_index`,
    );
    const staking = await warehouse.rows(
      `SELECT block, event_index, extrinsic_index, ${iso('block_time')} AS time, kind, coldkey, hotkey, netuid,
              ${text('tao_rao')} AS tao_rao, ${text('alpha_rao')} AS alpha_rao
         FROM staking_events ORDER BY block, event_index`,
    );
    const panel = await warehouse.rows(
      `SELECT strftime(day, '%Y-%m-%d') AS date, netuid, registered_at, panel_block,
              ${text('subnet_tao_rao')} AS subnet_tao_rao, ${text('subnet_alpha_in_rao')} AS subnet_alpha_in_rao
         FROM panel_prices ORDER BY day, netuid`,
    );
    const subnets = await warehouse.rows(
      `SELECT strftime(day, '%Y-%m-%d') AS date, netuid, registered_at, name, symbol FROM subnet_days
        ORDER BY day, netuid`,
    );
    const flags = await warehouse.rows(
      `SELECT strftime(day, '%Y-%m-%d') AS date, complete, partial FROM collected_days ORDER BY day`,
    );
    return {
      days: days.map(numbers),
      burns: burns.map(numbers),
      staking_events: staking.map(numbers),
      panel_prices: panel.map(numbers),
      subnets: subnets.map(numbers),
      flags,
    };
  } finally {
    warehouse.close();
  }
}

/** Every table except the run bookkeeping (run ids and times differ between runs by design). */
export async function dumpTables(path: string) {
  const warehouse = await openWarehouse(path, { readOnly: true });
  try {
    const out: Record<string, unknown[]> = {};
    for (const table of ['burns', 'staking_events', 'panel_prices', 'subnet_days']) {
      out[table] = await warehouse.rows(`SELECT * FROM ${table} ORDER BY ALL`);
    }
    out['collected_days'] = await warehouse.rows(
      'SELECT * EXCLUDE (run_id) FROM collected_days ORDER BY ALL',
    );
    return out;
  } finally {
    warehouse.close();
  }
}

/** BIGINT block numbers come back as bigint; the truth has JS numbers. */
function numbers(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row))
    out[key] = typeof value === 'bigint' ? Number(value) : value;
  return out;
}
