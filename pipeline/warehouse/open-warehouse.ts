/**
 * Opening the DuckDB warehouse. DuckDB lets one process write a file at a time (and no reader while it
 * writes), so every command opens the file, does its work and closes it; a caller that finds the file
 * locked by another process (the emissions watch, an analyst's session) waits briefly instead of failing.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { openDuckDbWaiting } from './open-duckdb.js';
import { WarehouseError, WarehouseLockedError } from './warehouse-errors.js';

export interface OpenWarehouseOptions {
  readOnly?: boolean;
  /** How long to keep retrying while another process holds the file (default 30 s). */
  lockWaitMs?: number;
}

export type Params = Record<string, DuckDBValue>;
export type Row = Record<string, unknown>;

export interface Warehouse {
  readonly path: string;
  readonly readOnly: boolean;
  readonly connection: DuckDBConnection;
  run(sql: string, params?: Params): Promise<void>;
  /** Rows as plain JS values: BIGINT/HUGEINT as bigint, DATE/TIMESTAMP as their JS forms. */
  rows(sql: string, params?: Params): Promise<Row[]>;
  /** Runs `work` in one transaction: everything it wrote is committed together or not at all. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Releases the file so other processes can open it. */
  close(): void;
}

const schemaUrl = new URL('./schema.sql', import.meta.url);

export async function readSchemaSql(): Promise<string> {
  return readFile(schemaUrl, 'utf8');
}

export async function openWarehouse(path: string, options: OpenWarehouseOptions = {}): Promise<Warehouse> {
  const readOnly = options.readOnly ?? false;
  if (!readOnly && path !== ':memory:') await mkdir(dirname(path), { recursive: true });
  const instance = await openDuckDbWaiting(path, {
    readOnly,
    lockWaitMs: options.lockWaitMs ?? 30_000,
    failed: (detail) => new WarehouseError(`cannot open warehouse ${path}: ${detail}`),
    locked: (detail) => new WarehouseLockedError(path, detail),
  });
  const connection = await instance.connect();
  const warehouse = wrap(path, readOnly, instance, connection);
  try {
    if (!readOnly) await connection.run(await readSchemaSql());
  } catch (error) {
    warehouse.close();
    throw new WarehouseError(`cannot apply the warehouse schema to ${path}: ${message(error)}`);
  }
  return warehouse;
}

function wrap(
  path: string,
  readOnly: boolean,
  instance: DuckDBInstance,
  connection: DuckDBConnection,
): Warehouse {
  let closed = false;
  let inTransaction = false;
  return {
    path,
    readOnly,
    connection,
    async run(sql, params) {
      await connection.run(sql, params);
    },
    async rows(sql, params) {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJS() as Row[];
    },
    async transaction(work) {
      if (inTransaction) throw new WarehouseError('nested warehouse transactions are not supported');
      inTransaction = true;
      await connection.run('BEGIN TRANSACTION');
      try {
        const result = await work();
        await connection.run('COMMIT');
        return result;
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        inTransaction = false;
      }
    },
    close() {
      if (closed) return;
      closed = true;
      connection.closeSync();
      instance.closeSync();
    },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
