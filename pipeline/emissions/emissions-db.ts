/**
 * The emissions watch's DuckDB file. DuckDB lets one process write a file at a time and the watch runs
 * beside the daily job and analysts' sessions, so the file is opened for one sample and closed again;
 * an opener that finds it locked waits briefly (like `openWarehouse`) instead of failing.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
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
  const instance = await createWithRetry(path, readOnly, options.lockWaitMs ?? 30_000);
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

async function createWithRetry(path: string, readOnly: boolean, lockWaitMs: number): Promise<DuckDBInstance> {
  const deadline = Date.now() + lockWaitMs;
  let delay = 50;
  for (;;) {
    try {
      return await DuckDBInstance.create(path, readOnly ? { access_mode: 'READ_ONLY' } : {});
    } catch (error) {
      const text = message(error);
      if (!/lock/i.test(text)) throw new EmissionsError(`cannot open emissions database ${path}: ${text}`);
      if (Date.now() + delay > deadline) throw new EmissionsDbLockedError(path, text);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 1_000);
    }
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
