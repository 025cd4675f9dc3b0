/**
 * A multi-row parameterised INSERT: one statement per table instead of one per row, which keeps a
 * sample's write (every subnet's row, track and event) well under the time DuckDB spends per statement.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import type { EmissionsDb } from './emissions-db.js';

export async function insertRows(
  db: EmissionsDb,
  statement: 'INSERT INTO' | 'INSERT OR REPLACE INTO',
  table: string,
  columns: readonly string[],
  rows: DuckDBValue[][],
  /** SQL casts per column, e.g. `{ tao_in_rao: 'HUGEINT' }` for decimal text that must stay exact. */
  casts: Record<string, string> = {},
): Promise<void> {
  if (rows.length === 0) return;
  const params: Record<string, DuckDBValue> = {};
  const tuples = rows.map((row, r) => {
    const cells = columns.map((column, c) => {
      const name = `p${r}_${c}`;
      params[name] = row[c] ?? null;
      const cast = casts[column];
      return cast ? `$${name}::${cast}` : `$${name}`;
    });
    return `(${cells.join(', ')})`;
  });
  await db.run(`${statement} ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params);
}
