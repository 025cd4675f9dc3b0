/**
 * `sbm export parquet`: every table as a Parquet file, written by DuckDB's own `COPY ... (FORMAT PARQUET)`.
 * Parquet has no 128-bit integer and DuckDB would write HUGEINT as DOUBLE, so RAO columns are exported as
 * DECIMAL(38,0): exact, and read back as integers by pandas, Polars, Spark and DuckDB.
 */
import { mkdir, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openWarehouse } from './open-warehouse.js';

export const EXPORTED_TABLES = [
  'burns',
  'panel_prices',
  'subnet_days',
  'staking_events',
  'collected_days',
  'collection_runs',
  'fx_daily',
  'claims',
] as const;

export async function exportParquet(options: {
  warehousePath: string;
  outDir: string;
}): Promise<Array<{ table: string; file: string; rows: number }>> {
  const outDir = resolve(options.outDir);
  await mkdir(outDir, { recursive: true });
  const warehouse = await openWarehouse(options.warehousePath, { readOnly: true });
  try {
    const written: Array<{ table: string; file: string; rows: number }> = [];
    for (const table of EXPORTED_TABLES) {
      const columns = await warehouse.rows(
        `SELECT column_name AS name, data_type AS type FROM information_schema.columns
          WHERE table_name = $table ORDER BY ordinal_position`,
        { table },
      );
      if (columns.length === 0) continue;
      const select = columns
        .map(({ name, type }) =>
          type === 'HUGEINT'
            ? `CAST("${String(name)}" AS DECIMAL(38, 0)) AS "${String(name)}"`
            : `"${String(name)}"`,
        )
        .join(', ');
      const file = join(outDir, `${table}.parquet`);
      // Write beside the target, then rename: a reader never sees half a file.
      const partial = `${file}.partial`;
      await warehouse.run(
        `COPY (SELECT ${select} FROM ${table}) TO '${partial.replace(/'/g, "''")}' (FORMAT PARQUET)`,
      );
      await rename(partial, file);
      const count = await warehouse.rows(`SELECT count(*) AS n FROM ${table}`);
      written.push({ table, file, rows: Number(count[0]?.['n'] ?? 0) });
    }
    return written;
  } finally {
    warehouse.close();
  }
}
