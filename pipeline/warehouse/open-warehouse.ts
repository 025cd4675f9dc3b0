/**
 * Opening the burn warehouse (`data/burns.duckdb`): the DuckDB file with `schema.sql` (tables) and then
 * `analyst-views.sql` (views, and comments on everything) applied on a writable open unless told not to.
 */
import { readFile } from 'node:fs/promises';
import { type DuckDbFile, openDuckDbFile } from './open-duckdb.js';
import { WarehouseError, WarehouseLockedError } from './warehouse-errors.js';

export type { Params, Row } from './open-duckdb.js';

export interface OpenWarehouseOptions {
  readOnly?: boolean;
  /** How long to keep retrying while another process holds the file (default 30 s). */
  lockWaitMs?: number;
  /**
   * Apply the schema and analyst views (default true). A run that already applied them at its first open
   * skips them on its later opens: they are most of an open's cost.
   */
  schema?: boolean;
}

export type Warehouse = DuckDbFile;

// In this order: the views and comments refer to the tables.
const schemaUrls = [
  new URL('./schema.sql', import.meta.url),
  new URL('./analyst-views.sql', import.meta.url),
];

export async function readSchemaSql(): Promise<string> {
  const parts = await Promise.all(schemaUrls.map((url) => readFile(url, 'utf8')));
  return parts.join('\n');
}

export function openWarehouse(path: string, options: OpenWarehouseOptions = {}): Promise<Warehouse> {
  const lockWaitMs = options.lockWaitMs ?? 30_000;
  return openDuckDbFile(path, {
    readOnly: options.readOnly ?? false,
    lockWaitMs,
    schemaSql: options.schema === false ? async () => '' : readSchemaSql,
    failed: (detail) => new WarehouseError(`warehouse ${path}: ${detail}`),
    locked: (detail) => new WarehouseLockedError(path, detail, lockWaitMs),
  });
}
