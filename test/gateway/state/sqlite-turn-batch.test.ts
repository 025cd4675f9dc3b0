/**
 * Group commit on a real SQLite file: what one event-loop turn queues runs as one transaction, a
 * caller learns its result only once it is committed (another connection already sees it), and a
 * statement that fails alone fails only its own caller.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteTurnBatch } from '../../../gateway/state/sqlite-turn-batch.js';

describe('SqliteTurnBatch', () => {
  let dir: string;
  let db: Database.Database;
  let reader: Database.Database;
  let batches: number;
  let batch: SqliteTurnBatch;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-turn-batch-'));
    db = new Database(join(dir, 'state.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL CHECK (n <= 3))');
    reader = new Database(join(dir, 'state.sqlite'), { readonly: true });
    batches = 0;
    batch = new SqliteTurnBatch(db, () => {
      batches += 1;
    });
  });

  afterEach(async () => {
    reader.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  const bump = (name: string) =>
    batch.run(
      () =>
        db
          .prepare(
            `INSERT INTO counters (name, n) VALUES (?, 1)
             ON CONFLICT (name) DO UPDATE SET n = n + 1 RETURNING n`,
          )
          .get(name) as { n: number },
    );
  const committed = (name: string) =>
    (reader.prepare('SELECT n FROM counters WHERE name = ?').get(name) as { n: number } | undefined)?.n;

  it('runs what one turn queues in one transaction, in order, and answers after the commit', async () => {
    const answers = Promise.all([bump('a'), bump('a'), bump('b')]);
    expect(committed('a')).toBeUndefined();
    const results = await answers;
    expect(results.map((row) => row.n)).toEqual([1, 2, 1]);
    expect(batches).toBe(1);
    expect(committed('a')).toBe(2);
    // A later turn is a transaction of its own.
    await bump('a');
    expect(batches).toBe(2);
  });

  it('fails only the statement that fails; the others in its turn commit', async () => {
    const outcomes = await Promise.allSettled([bump('c'), bump('c'), bump('c'), bump('c'), bump('d')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({
      code: 'SQLITE_CONSTRAINT_CHECK',
    });
    expect(committed('c')).toBe(3);
    expect(committed('d')).toBe(1);
  });

  it('runs what is queued when flushed before the database closes', async () => {
    const answer = bump('e');
    batch.flush();
    expect(committed('e')).toBe(1);
    await expect(answer).resolves.toEqual({ n: 1 });
  });

  it('runs a shared job once per turn and key, and gives each caller its own result in call order', async () => {
    const runs: number[] = [];
    const addMany = (name: string) =>
      batch.runShared(name, (callers) => {
        runs.push(callers);
        const row = db
          .prepare(
            `INSERT INTO counters (name, n) VALUES (?, ?)
             ON CONFLICT (name) DO UPDATE SET n = n + excluded.n RETURNING n`,
          )
          .get(name, callers) as { n: number };
        return Array.from({ length: callers }, (_, i) => row.n - callers + i + 1);
      });
    const answers = Promise.all([addMany('f'), bump('g'), addMany('f'), addMany('h'), addMany('f')]);
    expect(committed('f')).toBeUndefined();
    const [f1, , f2, h1, f3] = await answers;
    expect([f1, f2, f3, h1]).toEqual([1, 2, 3, 1]);
    expect(runs).toEqual([3, 1]);
    expect(batches).toBe(1);
    expect(committed('f')).toBe(3);
    // The next turn shares a new job.
    expect(await addMany('h')).toBe(2);
    expect(runs).toEqual([3, 1, 1]);
  });

  it('fails every caller of a shared job whose statement fails, and no other', async () => {
    const addMany = (name: string) =>
      batch.runShared(name, (callers) => {
        db.prepare('INSERT INTO counters (name, n) VALUES (?, ?)').run(name, callers);
        return Array.from({ length: callers }, () => callers);
      });
    const outcomes = await Promise.allSettled([
      addMany('i'),
      addMany('i'),
      bump('j'),
      addMany('i'),
      addMany('i'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'rejected',
      'rejected',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    expect(committed('i')).toBeUndefined();
    expect(committed('j')).toBe(1);
  });
});
