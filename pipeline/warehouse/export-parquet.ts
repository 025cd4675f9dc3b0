/**
 * `sbm export parquet`: every table as a Parquet file, written by DuckDB's own `COPY ... (FORMAT PARQUET)`.
 * Parquet has no 128-bit integer and DuckDB would write HUGEINT as DOUBLE, so RAO columns are exported as
 * DECIMAL(38,0): exact, and read back as integers by pandas, Polars, Spark and DuckDB. UHUGEINT (the raw
 * U64F64 share bits of `share_pools`, up to 2^128) does not fit DECIMAL(38,0) either: it is exported as
 * its exact decimal text.
 */
import { mkdir, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openWarehouse } from './open-warehouse.js';

/** How a column is written: the 128-bit integers as the widest exact type Parquet readers take. */
function exportedColumn(name: string, type: string): string {
  if (type === 'HUGEINT') return `CAST("${name}" AS DECIMAL(38, 0)) AS "${name}"`;
  if (type === 'UHUGEINT') return `CAST("${name}" AS VARCHAR) AS "${name}"`;
  return `"${name}"`;
}

export async function exportParquet(options: {
  warehousePath: string;
  outDir: string;
}): Promise<Array<{ table: string; file: string; rows: number }>> {
  const outDir = resolve(options.outDir);
  await mkdir(outDir, { recursive: true });
  const warehouse = await openWarehouse(options.warehousePath, { readOnly: true });
  try {
    const written: Array<{ table: string; file: string; rows: number }> = [];
    // Every table the schema has, so a table added later is never left out of the export.
    const tables = await warehouse.rows(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    for (const table of tables.map((row) => String(row['name']))) {
      const columns = await warehouse.rows(
        `SELECT column_name AS name, data_type AS type FROM information_schema.columns
          WHERE table_name = $table ORDER BY ordinal_position`,
        { table },
      );
      if (columns.length === 0) continue;
      const select = columns.map(({ name, type }) => exportedColumn(String(name), String(type))).join(', ');
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
