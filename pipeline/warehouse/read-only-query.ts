/**
 * `sbm sql`: one query against the warehouse opened read-only (DuckDB refuses writes on such a
 * connection), printed as an aligned table, CSV or JSON. Amounts stay exact: HUGEINT and BIGINT values
 * are printed as integers (as JSON strings, because JSON numbers cannot hold them).
 */
import { access } from 'node:fs/promises';
import { csvField } from '../csv/csv-field.js';
import { openWarehouse } from './open-warehouse.js';
import { WarehouseError } from './warehouse-errors.js';

export type QueryFormat = 'table' | 'csv' | 'json';

export interface QueryResult {
  columns: string[];
  /** JSON-safe values: big integers and decimals as strings, dates and times as ISO text. */
  rows: Array<Record<string, unknown>>;
}

export interface QueryOptions {
  /**
   * How long to wait while another process writes the file (default 30 s). `sbm collect` holds it only
   * while it writes a day, so a query usually gets in between two days; past the wait it fails with a
   * WarehouseLockedError that says so.
   */
  lockWaitMs?: number;
}

export async function queryReadOnly(
  warehousePath: string,
  sql: string,
  options: QueryOptions = {},
): Promise<QueryResult> {
  await access(warehousePath).catch(() => {
    throw new WarehouseError(`warehouse ${warehousePath} does not exist yet: run \`sbm collect\` first`);
  });
  const warehouse = await openWarehouse(warehousePath, { readOnly: true, ...options });
  try {
    const reader = await warehouse.connection.runAndReadAll(sql);
    return {
      columns: reader.columnNames(),
      rows: reader.getRowObjectsJson() as Array<Record<string, unknown>>,
    };
  } finally {
    warehouse.close();
  }
}

export function formatResult(result: QueryResult, format: QueryFormat): string {
  if (format === 'json') return `${JSON.stringify(result.rows, null, 2)}\n`;
  const cells = result.rows.map((row) => result.columns.map((c) => cellText(row[c])));
  if (format === 'csv') {
    return [result.columns, ...cells]
      .map((line) => line.map(csvField).join(','))
      .join('\n')
      .concat('\n');
  }
  const widths = result.columns.map((c, i) =>
    Math.max(c.length, ...cells.map((row) => (row[i] ?? '').length)),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  const count = `(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`;
  return [line(result.columns), rule, ...cells.map(line), count].join('\n').concat('\n');
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
