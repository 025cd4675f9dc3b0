/**
 * DuckDB lets one process write a file or several read it, never both. What an analyst sees when a query
 * meets `sbm collect` writing (and what the collection sees when an analyst's session holds the file):
 * our openers wait, then fail with a sentence that names the holder and says what to do; a stock client
 * fails at once with DuckDB's own IO error.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { queryReadOnly } from '../../pipeline/warehouse/read-only-query.js';
import { WarehouseLockedError } from '../../pipeline/warehouse/warehouse-errors.js';

const CHILD = new URL('./hold-warehouse-child.ts', import.meta.url).pathname;

interface Holder {
  pid: number;
  exited: Promise<number | null>;
}

/** Resolves once the child holds the file. */
function holdInChild(path: string, mode: 'read' | 'write', holdMs: number): Promise<Holder> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, mode, String(holdMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve({ pid: child.pid!, exited });
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before holding the file`)));
  });
}

let dir: string;
let path: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-wh-lock-'));
  path = join(dir, 'burns.duckdb');
  (await openWarehouse(path)).close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a read-only open while the warehouse is written', () => {
  it('sbm sql says the file is being written, by whom, and to try again; a query gets in once it is released', async () => {
    const holder = await holdInChild(path, 'write', 2_500);
    const refused = await queryReadOnly(path, 'SELECT count(*) AS n FROM burns', { lockWaitMs: 300 }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(WarehouseLockedError);
    const error = refused as WarehouseLockedError;
    expect(error.conflict).toEqual({ holderPid: holder.pid, holderReadsOnly: false });
    expect(error.message).toBe(
      `warehouse ${path} is being written by another process (PID ${holder.pid}): sbm collect, daily, prices ` +
        'or claims (or a duckdb session opened without -readonly); waited 0.3 s; try again when it has finished',
    );

    // A stock client (Python duckdb.connect(path, read_only=True), duckdb -readonly) does not wait.
    await expect(DuckDBInstance.create(path, { access_mode: 'READ_ONLY' })).rejects.toThrow(
      new RegExp(`Could not set lock on file.*Conflicting lock is held in .*\\(PID ${holder.pid}\\)`),
    );

    // Given time to wait, the query runs as soon as the writer lets go (collect holds the file per day).
    const result = await queryReadOnly(path, 'SELECT count(*) AS n FROM burns', { lockWaitMs: 20_000 });
    expect(result.rows).toEqual([{ n: '0' }]);
    expect(await holder.exited).toBe(0);
  });

  it('readers share the file; a writer meets them with a message that names the reading session', async () => {
    const holder = await holdInChild(path, 'read', 2_000);
    // Two read-only processes at once are fine.
    const result = await queryReadOnly(path, 'SELECT count(*) AS n FROM subnet_burns_daily', {
      lockWaitMs: 0,
    });
    expect(result.rows).toEqual([{ n: '0' }]);

    const refused = await openWarehouse(path, { lockWaitMs: 300 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WarehouseLockedError);
    const error = refused as WarehouseLockedError;
    expect(error.conflict).toEqual({ holderPid: holder.pid, holderReadsOnly: true });
    expect(error.message).toMatch(
      new RegExp(
        `is open read-only in another process \\(PID ${holder.pid}\\).*close that session and run again`,
      ),
    );
    expect(await holder.exited).toBe(0);
  });
});
