/**
 * One sample: read every subnet's emission storage at the finalized head, record it with the events it
 * verifies, copy it to the object store (with any earlier sample whose copy failed: `sample-copies.ts`), then
 * publish the emissions run from the database. The database file is held only while recording and reading,
 * and again briefly to note the copies; the chain is read before it is opened and the store written after
 * it is closed.
 */
import { ChainReader } from '../chain/chain-reader.js';
import { connectRpc, type RpcClientOptions } from '../chain/rpc-client.js';
import { EMISSION_WINDOWS } from '../contract/windows.js';
import type { ObjectStore } from '../store/index.js';
import { type EmissionFacts, readEmissionFacts } from './emission-facts.js';
import { withEmissionsDb } from './emissions-db.js';
import { publishEmissions } from './publish-emissions.js';
import { readEmissionSweep } from './read-emission-sweep.js';
import { recordSweep } from './record-sweep.js';
import { copySamples, markCopied, uncopiedSamples } from './sample-copies.js';

export const DEFAULT_INTERVAL_MS = 300_000;

export interface SampleOptions {
  /** The emissions DuckDB file. */
  dbPath: string;
  store: ObjectStore;
  baseUrl: string;
  keepRuns: number;
  /** The sampling interval; the gap rule (1.5 × interval) depends on it. */
  intervalMs: number;
  /** Requests in flight against the node. */
  concurrency: number;
  now?: () => Date;
  /** How long to wait for the database while another process holds it (default 30 s). */
  lockWaitMs?: number;
  /**
   * Blocks copied to the store but not yet noted as copied in the database. The watch keeps one across its
   * samples, so each sample notes the previous one's copies in its own transaction instead of opening the
   * file a second time; without one, the copies are noted at once. A note lost with the process only means
   * the next attempt writes the same copy again.
   */
  copiedUnnoted?: number[];
}

export interface SampleResult {
  /** `unchanged`: the finalized head was already sampled; nothing was recorded or published. */
  status: 'sampled' | 'unchanged';
  block: number;
  block_time: string;
  checked_at: string;
  subnets: number;
  suspended: number;
  /** Transitions this sample verified. */
  verified_events: number;
  /** Samples copied to the object store by this attempt (this one, and any earlier one whose copy failed). */
  copied: number;
  /** Published emissions run, or null when nothing was published. */
  version: string | null;
  objects: number;
  duration_ms: number;
}

/** Takes one sample through an open connection (the watch keeps one across samples). */
export async function takeSample(reader: ChainReader, options: SampleOptions): Promise<SampleResult> {
  const clock = options.now ?? (() => new Date());
  const checkedAt = clock();
  const started = performance.now();
  const head = await reader.finalizedHead();
  const sweep = await readEmissionSweep(reader, head, options.concurrency);
  const lock = options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs };
  const { recorded, facts, uncopied } = await withEmissionsDb(
    options.dbPath,
    async (db) => {
      const carried = options.copiedUnnoted?.splice(0) ?? [];
      if (carried.length > 0) await markCopied(db, carried, checkedAt.getTime());
      const outcome = await recordSweep(db, sweep, checkedAt.getTime());
      const uncopied = await uncopiedSamples(db);
      if (!outcome.recorded) return { recorded: outcome, facts: null, uncopied };
      const facts = await readEmissionFacts(db, {
        intervalMs: options.intervalMs,
        shortWindowDays: Math.min(...EMISSION_WINDOWS),
        longWindowDays: Math.max(...EMISSION_WINDOWS),
      });
      return { recorded: outcome, facts, uncopied };
    },
    lock,
  );
  // The copy first: the samples are what cannot be made again; a published run can.
  const copied = await copySamples(options.store, uncopied);
  if (options.copiedUnnoted) options.copiedUnnoted.push(...copied);
  else if (copied.length > 0) await noteCopied(options, copied, clock().getTime());
  const published = facts ? await publish(facts, options, checkedAt) : null;
  return {
    status: recorded.recorded ? 'sampled' : 'unchanged',
    block: sweep.block,
    block_time: new Date(sweep.timeMs).toISOString(),
    checked_at: checkedAt.toISOString(),
    subnets: sweep.subnets.length,
    suspended: sweep.subnets.filter((subnet) => subnet.status === 'suspended').length,
    verified_events: recorded.events.length,
    copied: copied.length,
    version: published?.manifest.version ?? null,
    objects: published?.objects ?? 0,
    duration_ms: Math.round(performance.now() - started),
  };
}

/** Notes in the database that these samples' copies are in the store (a short second hold of the file). */
export async function noteCopied(
  options: SampleOptions,
  blocks: readonly number[],
  atMs: number,
): Promise<void> {
  const lock = options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs };
  await withEmissionsDb(options.dbPath, (db) => markCopied(db, blocks, atMs), lock);
}

function publish(facts: EmissionFacts, options: SampleOptions, now: Date) {
  return publishEmissions(facts, {
    store: options.store,
    baseUrl: options.baseUrl,
    keepRuns: options.keepRuns,
    now,
  });
}

/** `sbm emissions sample`: connect, take one sample, disconnect. */
export async function sampleOnce(
  options: SampleOptions & { chainUrl: string; rpc?: Partial<RpcClientOptions> },
): Promise<SampleResult> {
  const rpc = await connectRpc({ ...options.rpc, url: options.chainUrl, concurrency: options.concurrency });
  try {
    return await takeSample(new ChainReader(rpc), options);
  } finally {
    await rpc.close();
  }
}
