/**
 * `sbm emissions restore`: rebuilds the samples database from the samples' copies in the object store
 * (`sample-copies.ts`). Every copy newer than the database's newest sample is replayed in block order through
 * `recordSweep`, the rule the watch records with, so the samples come back as they were taken and the tracks
 * and verified events are derived again exactly. Copies at or before the newest sample are left alone: a
 * database that has them keeps its own rows. Run it with the watch stopped (it holds the file throughout).
 */
import { mapConcurrent } from '../chain/limiter.js';
import type { ObjectStore } from '../store/index.js';
import { withEmissionsDb } from './emissions-db.js';
import { EmissionsError } from './emissions-errors.js';
import { latestSweepBlock, recordSweep } from './record-sweep.js';
import { blockOfCopyKey, decodeSampleCopy, markCopied, SAMPLE_COPIES_PREFIX } from './sample-copies.js';

/** Copies fetched at a time (their samples are held in memory until recorded). */
const BATCH = 256;

export interface RestoreOptions {
  dbPath: string;
  store: ObjectStore;
  /** Copies fetched in parallel. */
  concurrency: number;
  now?: () => Date;
  lockWaitMs?: number;
}

export interface RestoreResult {
  /** Sample copies found in the store. */
  copies: number;
  /** The database's newest sample before the restore (null: it had none). */
  newest_before: number | null;
  /** Samples recorded from the copies. */
  restored: number;
  /** Copies at or before the database's newest sample, left alone. */
  already_held: number;
  first_block: number | null;
  last_block: number | null;
  duration_ms: number;
}

export async function restoreSamples(options: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const clock = options.now ?? (() => new Date());
  const keys = (await options.store.list(SAMPLE_COPIES_PREFIX))
    .map((key) => ({ key, block: blockOfCopyKey(key) }))
    .filter((copy): copy is { key: string; block: number } => copy.block !== null)
    .sort((a, b) => a.block - b.block);
  const lock = options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs };
  return withEmissionsDb(
    options.dbPath,
    async (db) => {
      const newest = await latestSweepBlock(db);
      const wanted = keys.filter((copy) => newest === null || copy.block > newest);
      for (let i = 0; i < wanted.length; i += BATCH) {
        const batch = wanted.slice(i, i + BATCH);
        const samples = await mapConcurrent(batch, options.concurrency, async ({ key }) => {
          const bytes = await options.store.get(key);
          if (!bytes)
            throw new EmissionsError(
              `sample copy ${key} was listed but is gone from ${options.store.description}`,
            );
          return decodeSampleCopy(key, bytes);
        });
        for (const sample of samples) {
          const outcome = await recordSweep(db, sample.sweep, sample.checkedAtMs);
          if (!outcome.recorded) {
            throw new EmissionsError(
              `sample copy of block ${sample.sweep.block} is not newer than the database's samples`,
            );
          }
        }
        await markCopied(
          db,
          samples.map((sample) => sample.sweep.block),
          clock().getTime(),
        );
      }
      return {
        copies: keys.length,
        newest_before: newest,
        restored: wanted.length,
        already_held: keys.length - wanted.length,
        first_block: wanted[0]?.block ?? null,
        last_block: wanted.at(-1)?.block ?? null,
        duration_ms: Math.round(performance.now() - started),
      };
    },
    lock,
  );
}
