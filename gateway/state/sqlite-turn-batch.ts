import type Database from 'better-sqlite3';

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface SharedJob {
  callers: Pick<Job, 'resolve' | 'reject'>[];
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for SQLite: the statements that requests issue during one turn of the event loop run
 * together in one IMMEDIATE transaction at the end of that turn, and each caller gets its own result
 * once the transaction has committed.
 *
 * Why: on a database file, every transaction takes and releases SQLite's locks (about ten `fcntl`
 * calls) and every write transaction appends its pages to the WAL, so a keyed request that ran its
 * key lookup and its allowance count as statements of their own spent most of its time there. One
 * transaction per turn pays that once for all the requests the turn read from their sockets.
 *
 * Nothing is weakened: each statement still reads the newest committed rows (a key revoked by
 * another process fails at once), the count is still checked and written under SQLite's write lock
 * (exact across processes), and no caller sees a result before it is committed. A statement that
 * fails alone (a constraint) fails only its caller; an error that ends the transaction fails them all,
 * and none of their writes stays.
 */
export class SqliteTurnBatch {
  private pending: Job[] = [];
  /** This turn's shared jobs by key (see `runShared`); emptied with `pending`. */
  private shared = new Map<string, SharedJob>();
  private readonly runAll: (jobs: Job[], outcomes: Outcome[]) => void;
  /** True while a batch's transaction runs its jobs. */
  running = false;

  /** `onBegin` runs first in every batch's transaction, under the write lock. */
  constructor(db: Database.Database, onBegin: () => void = () => undefined) {
    this.runAll = db.transaction((jobs: Job[], outcomes: Outcome[]) => {
      onBegin();
      for (const job of jobs) {
        try {
          outcomes.push({ ok: true, value: job.work() });
        } catch (error) {
          // SQLite rolls the whole transaction back on some errors (I/O, busy, full disk):
          // then nothing of this batch stands, so every caller must fail.
          if (!db.inTransaction) throw error;
          outcomes.push({ ok: false, error });
        }
      }
    }).immediate;
  }

  /** Queues `work` (synchronous statements) for this turn's transaction. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /**
   * Queues one caller of a job shared by every caller that passes the same `key` this turn: `work`
   * runs once, where the first of them queued it, and returns one result per caller, in call order.
   * For counters, one statement then does what a statement per caller would have done in a row.
   */
  runShared<T>(key: string, work: (callers: number) => T[]): Promise<T> {
    let job = this.shared.get(key);
    if (!job) {
      const created: SharedJob = { callers: [] };
      job = created;
      this.shared.set(key, created);
      this.run(() => work(created.callers.length)).then(
        (results) => {
          for (const [i, caller] of created.callers.entries()) caller.resolve(results[i]);
        },
        (error: unknown) => {
          for (const caller of created.callers) caller.reject(error);
        },
      );
    }
    const joined = job;
    return new Promise<T>((resolve, reject) => {
      joined.callers.push({ resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Runs what is queued now; also called before the database closes. */
  flush(): void {
    const jobs = this.pending;
    if (jobs.length === 0) return;
    this.pending = [];
    this.shared = new Map();
    const outcomes: Outcome[] = [];
    this.running = true;
    try {
      this.runAll(jobs, outcomes);
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    } finally {
      this.running = false;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }
}
