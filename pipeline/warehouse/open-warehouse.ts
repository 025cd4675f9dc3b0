/** Opening the burn warehouse (`data/burns.duckdb`): the DuckDB file with `schema.sql` applied. */
import { readFile } from 'node:fs/promises';
import { type DuckDbFile, openDuckDbFile } from './open-duckdb.js';
import { WarehouseError, WarehouseLockedError } from './warehouse-errors.js';

export type { Params, Row } from './open-duckdb.js';

export interface OpenWarehouseOptions {
  readOnly?: boolean;
  /** How long to keep retrying while another process holds the file (default 30 s). */
  lockWaitMs?: number;
}

export type Warehouse = DuckDbFile;

const schemaUrl = new URL('./schema.sql', import.meta.url);

export async function readSchemaSql(): Promise<string> {
  return readFile(schemaUrl, 'utf8');
}

export function openWarehouse(path: string, options: OpenWarehouseOptions = {}): Promise<Warehouse> {
  return openDuckDbFile(path, {
    readOnly: options.readOnly ?? false,
    lockWaitMs: options.lockWaitMs ?? 30_000,
    schemaSql: readSchemaSql,
    failed: (detail) => new WarehouseError(`warehouse ${path}: ${detail}`),
    locked: (detail) => new WarehouseLockedError(path, detail),
  });
}
