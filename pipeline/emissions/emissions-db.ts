/**
 * The emissions watch's DuckDB file. DuckDB lets one process write a file at a time and the watch runs
 * beside the daily job and analysts' sessions, so the file is opened for one sample and closed again;
 * an opener that finds it locked waits briefly (like `openWarehouse`) instead of failing.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { openDuckDbWaiting } from '../warehouse/open-duckdb.js';
import type { Params, Row } from '../warehouse/open-warehouse.js';
import { EmissionsDbLockedError, EmissionsError } from './emissions-errors.js';

export interface EmissionsDb {
  readonly path: string;
  run(sql: string, params?: Params): Promise<void>;
  /** Rows as plain JS values: BIGINT/HUGEINT as bigint. */
  rows(sql: string, params?: Params): Promise<Row[]>;
  /** Everything `work` wrote is committed together or not at all. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  close(): void;
}

export interface OpenEmissionsDbOptions {
  readOnly?: boolean;
  /** How long to keep retrying while another process holds the file (default 30 s). */
  lockWaitMs?: number;
}

const schemaUrl = new URL('./emissions-schema.sql', import.meta.url);

export async function openEmissionsDb(
  path: string,
  options: OpenEmissionsDbOptions = {},
): Promise<EmissionsDb> {
  const readOnly = options.readOnly ?? false;
  if (!readOnly) await mkdir(dirname(path), { recursive: true });
  const instance = await openDuckDbWaiting(path, {
    readOnly,
    lockWaitMs: options.lockWaitMs ?? 30_000,
    failed: (detail) => new EmissionsError(`cannot open emissions database ${path}: ${detail}`),
    locked: (detail) => new EmissionsDbLockedError(path, detail),
  });
  const connection = await instance.connect();
  let closed = false;
  const db: EmissionsDb = {
    path,
    run: async (sql, params) => {
      await connection.run(sql, params);
    },
    rows: async (sql, params) => (await connection.runAndReadAll(sql, params)).getRowObjectsJS() as Row[],
    transaction: async (work) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        const result = await work();
        await connection.run('COMMIT');
        return result;
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      connection.closeSync();
      instance.closeSync();
    },
  };
  if (!readOnly) {
    try {
      await connection.run(await readFile(schemaUrl, 'utf8'));
    } catch (error) {
      db.close();
      throw new EmissionsError(`cannot apply the emissions schema to ${path}: ${message(error)}`);
    }
  }
  return db;
}

/** Opens, runs `work`, and always closes: the file is held only for as long as `work` takes. */
export async function withEmissionsDb<T>(
  path: string,
  work: (db: EmissionsDb) => Promise<T>,
  options: OpenEmissionsDbOptions = {},
): Promise<T> {
  const db = await openEmissionsDb(path, options);
  try {
    return await work(db);
  } finally {
    db.close();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
