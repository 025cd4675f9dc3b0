/**
 * Opening a DuckDB file of ours (the burn warehouse, the emissions watch's samples). DuckDB lets one
 * process write a file at a time (and no reader while it writes), so every command opens the file, does
 * its work and closes it; an opener that finds the file locked by another process (the daily job, the
 * emissions watch, an analyst's session) retries with backoff instead of failing.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';

export type Params = Record<string, DuckDBValue>;
export type Row = Record<string, unknown>;

export interface DuckDbFile {
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

export interface OpenDuckDbOptions {
  readOnly: boolean;
  /** How long to keep retrying while another process holds the file. */
  lockWaitMs: number;
  /** The idempotent schema applied on every writable open. */
  schemaSql: () => Promise<string>;
  /** The caller's typed errors: any other failure, and a lock that outlasts the wait. */
  failed: (detail: string) => Error;
  locked: (detail: string) => Error;
}

export async function openDuckDbFile(path: string, options: OpenDuckDbOptions): Promise<DuckDbFile> {
  if (!options.readOnly && path !== ':memory:') await mkdir(dirname(path), { recursive: true });
  const instance = await createWaiting(path, options);
  const connection = await instance.connect();
  const file = wrap(path, options, instance, connection);
  try {
    if (!options.readOnly) await connection.run(await options.schemaSql());
  } catch (error) {
    file.close();
    throw options.failed(`cannot apply the schema: ${message(error)}`);
  }
  return file;
}

async function createWaiting(path: string, options: OpenDuckDbOptions): Promise<DuckDBInstance> {
  const deadline = Date.now() + options.lockWaitMs;
  let delay = 50;
  for (;;) {
    try {
      return await DuckDBInstance.create(path, options.readOnly ? { access_mode: 'READ_ONLY' } : {});
    } catch (error) {
      const text = message(error);
      if (!/lock/i.test(text)) throw options.failed(text);
      if (Date.now() + delay > deadline) throw options.locked(text);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 1_000);
    }
  }
}

function wrap(
  path: string,
  options: OpenDuckDbOptions,
  instance: DuckDBInstance,
  connection: DuckDBConnection,
): DuckDbFile {
  let closed = false;
  let inTransaction = false;
  return {
    path,
    readOnly: options.readOnly,
    connection,
    async run(sql, params) {
      await connection.run(sql, params);
    },
    async rows(sql, params) {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJS() as Row[];
    },
    async transaction(work) {
      if (inTransaction) throw options.failed('nested transactions are not supported');
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
