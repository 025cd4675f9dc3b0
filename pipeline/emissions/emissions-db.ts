/**
 * The emissions watch's DuckDB file. DuckDB lets one process write a file at a time and the watch runs
 * beside the daily job and analysts' sessions, so the file is opened for one sample and closed again;
 * an opener that finds it locked waits briefly (like `openWarehouse`) instead of failing.
 */
import { readFile } from 'node:fs/promises';
import { type DuckDbFile, openDuckDbFile } from '../warehouse/open-duckdb.js';
import { EmissionsDbLockedError, EmissionsError } from './emissions-errors.js';

export type EmissionsDb = DuckDbFile;

export interface OpenEmissionsDbOptions {
  readOnly?: boolean;
  /** How long to keep retrying while another process holds the file (default 30 s). */
  lockWaitMs?: number;
}

const schemaUrl = new URL('./emissions-schema.sql', import.meta.url);

export function openEmissionsDb(path: string, options: OpenEmissionsDbOptions = {}): Promise<EmissionsDb> {
  return openDuckDbFile(path, {
    readOnly: options.readOnly ?? false,
    lockWaitMs: options.lockWaitMs ?? 30_000,
    schemaSql: () => readFile(schemaUrl, 'utf8'),
    failed: (detail) => new EmissionsError(`emissions database ${path}: ${detail}`),
    locked: (detail) => new EmissionsDbLockedError(path, detail),
  });
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
