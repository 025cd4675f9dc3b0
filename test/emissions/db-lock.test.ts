/**
 * DuckDB lets one process write a file at a time. The watch's database is held by another process
 * (here a child that holds it on purpose): an opener waits and gets in once it is released, and
 * gives up with a typed error when the wait would be longer than it allows.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmissionsDb } from '../../pipeline/emissions/emissions-db.js';
import { EmissionsDbLockedError } from '../../pipeline/emissions/emissions-errors.js';

const CHILD = new URL('./hold-db-child.ts', import.meta.url).pathname;

/** Resolves once the child holds the file, with a promise of its exit code (wrapped: a bare promise would be adopted). */
function holdInChild(path: string, holdMs: number): Promise<{ exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, String(holdMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve({ exited });
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before holding the file`)));
  });
}

describe('emissions database lock', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-emissions-lock-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('waits for another process to release the file, or fails typed when it cannot wait that long', async () => {
    const path = join(dir, 'emissions.duckdb');
    let { exited } = await holdInChild(path, 1_500);
    await expect(openEmissionsDb(path, { lockWaitMs: 100 })).rejects.toBeInstanceOf(EmissionsDbLockedError);
    expect(await exited).toBe(0);

    ({ exited } = await holdInChild(path, 1_000));
    const started = Date.now();
    const db = await openEmissionsDb(path, { lockWaitMs: 20_000 });
    expect(Date.now() - started).toBeGreaterThan(300);
    expect(await db.rows('SELECT count(*)::INTEGER AS n FROM emission_sweeps')).toEqual([{ n: 0 }]);
    db.close();
    expect(await exited).toBe(0);
  });
});
