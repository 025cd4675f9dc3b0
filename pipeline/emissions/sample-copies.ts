/**
 * Copies of the emissions samples in the object store. The chain keeps no history of what emitted when, so
 * the samples database cannot be made again from a node: each recorded sample is copied to the configured
 * store (folder or S3) right after it is recorded, and `sbm emissions restore` rebuilds a lost database
 * from the copies. A disk lost between a sample's record and its copy loses that one sample only.
 *
 * One object per sample, `emissions-samples/<block, 12 digits>.json.gz` (gzip of one JSON document, so a
 * listing is in block order), outside `emissions/` (whose runs the watch prunes) and outside every
 * published run. A copy holds what the sample recorded: the block, its hash and time, when it was taken,
 * the runtime, and every subnet's row. Tracks and events are not copied: replaying the samples in block
 * order through the same rule (`recordSweep`) gives them back exactly.
 *
 * Which samples are copied is kept in the database (`emission_copies`): a sample whose copy failed (the
 * store down, the process killed) is copied by the next attempt, oldest first.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ObjectStore } from '../store/index.js';
import { insertRows } from '../warehouse/insert-rows.js';
import type { EmissionStatus } from './emission-status.js';
import type { EmissionsDb } from './emissions-db.js';
import { EmissionsError } from './emissions-errors.js';
import type { EmissionSweep } from './read-emission-sweep.js';

export const SAMPLE_COPIES_PREFIX = 'emissions-samples/';
const FORMAT = 'sbm-emission-sample/1';
const BLOCK_DIGITS = 12;
/** Samples copied per attempt at most: a database older than the copies catches up over a few samples. */
export const MAX_COPIES_PER_ATTEMPT = 500;

/** One recorded sample as it was written to the database, with when it was taken. */
export interface RecordedSample {
  sweep: EmissionSweep;
  checkedAtMs: number;
}

export function sampleCopyKey(block: number): string {
  if (!Number.isSafeInteger(block) || block < 0) throw new RangeError(`not a block number: ${block}`);
  return `${SAMPLE_COPIES_PREFIX}${String(block).padStart(BLOCK_DIGITS, '0')}.json.gz`;
}

/** The block a copy's key names, or null for a key that is not a sample copy. */
export function blockOfCopyKey(key: string): number | null {
  const match = /^emissions-samples\/(\d+)\.json\.gz$/.exec(key);
  return match ? Number(match[1]) : null;
}

export function encodeSampleCopy(sample: RecordedSample): Uint8Array {
  const { sweep } = sample;
  const document = {
    format: FORMAT,
    block: sweep.block,
    block_hash: sweep.hash,
    block_time_ms: sweep.timeMs,
    checked_at_ms: sample.checkedAtMs,
    spec_version: sweep.specVersion,
    subnets: sweep.subnets.map((subnet) => ({
      netuid: subnet.netuid,
      registered_at: subnet.registeredAt,
      name: subnet.name,
      emission_enabled: subnet.enabled,
      // Decimal text: u64 amounts stay exact.
      tao_in_rao: subnet.taoInRao.toString(),
      alpha_in_rao: subnet.alphaInRao.toString(),
      alpha_out_rao: subnet.alphaOutRao.toString(),
      status: subnet.status,
    })),
  };
  return new Uint8Array(gzipSync(JSON.stringify(document)));
}

export function decodeSampleCopy(key: string, bytes: Uint8Array): RecordedSample {
  const fail = (detail: string) => new EmissionsError(`sample copy ${key}: ${detail}`);
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(gunzipSync(bytes).toString('utf8')) as Record<string, unknown>;
  } catch (error) {
    throw fail(`not a gzip of JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (document['format'] !== FORMAT)
    throw fail(`format is ${JSON.stringify(document['format'])}, not ${FORMAT}`);
  const integer = (value: unknown, name: string) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw fail(`${name} is not an integer`);
    return value;
  };
  const amount = (value: unknown, name: string) => {
    if (typeof value !== 'string' || !/^\d+$/.test(value)) throw fail(`${name} is not a decimal amount`);
    return BigInt(value);
  };
  const block = integer(document['block'], 'block');
  if (blockOfCopyKey(key) !== block) throw fail(`holds block ${block}, not the block its key names`);
  if (typeof document['block_hash'] !== 'string') throw fail('block_hash is missing');
  if (!Array.isArray(document['subnets'])) throw fail('subnets is missing');
  const subnets = (document['subnets'] as Array<Record<string, unknown>>).map((row, i) => {
    const status = row['status'];
    if (status !== 'flowing' && status !== 'suspended') throw fail(`subnet ${i}: status ${String(status)}`);
    const enabled = row['emission_enabled'];
    if (enabled !== null && typeof enabled !== 'boolean') throw fail(`subnet ${i}: emission_enabled`);
    if (typeof row['name'] !== 'string') throw fail(`subnet ${i}: name`);
    return {
      netuid: integer(row['netuid'], `subnet ${i} netuid`),
      registeredAt: integer(row['registered_at'], `subnet ${i} registered_at`),
      name: row['name'],
      enabled,
      taoInRao: amount(row['tao_in_rao'], `subnet ${i} tao_in_rao`),
      alphaInRao: amount(row['alpha_in_rao'], `subnet ${i} alpha_in_rao`),
      alphaOutRao: amount(row['alpha_out_rao'], `subnet ${i} alpha_out_rao`),
      status: status as EmissionStatus,
    };
  });
  return {
    sweep: {
      block,
      hash: document['block_hash'],
      timeMs: integer(document['block_time_ms'], 'block_time_ms'),
      specVersion: integer(document['spec_version'], 'spec_version'),
      subnets,
    },
    checkedAtMs: integer(document['checked_at_ms'], 'checked_at_ms'),
  };
}

/** The recorded samples not yet copied, oldest first (at most `limit`), read back from the database. */
export async function uncopiedSamples(
  db: EmissionsDb,
  limit = MAX_COPIES_PER_ATTEMPT,
): Promise<RecordedSample[]> {
  const sweeps = await db.rows(
    `SELECT block, block_hash, block_time_ms, checked_at_ms, spec_version FROM emission_sweeps
     WHERE block NOT IN (SELECT block FROM emission_copies) ORDER BY block LIMIT ${Math.max(1, Math.floor(limit))}`,
  );
  if (sweeps.length === 0) return [];
  const blocks = sweeps.map((row) => Number(row['block']));
  const rows = await db.rows(
    `SELECT block, netuid, registered_at, name, emission_enabled, CAST(tao_in_rao AS VARCHAR) AS tao_in_rao,
       CAST(alpha_in_rao AS VARCHAR) AS alpha_in_rao, CAST(alpha_out_rao AS VARCHAR) AS alpha_out_rao, status
     FROM emission_samples WHERE block BETWEEN $first AND $last ORDER BY block, netuid`,
    { first: blocks[0]!, last: blocks.at(-1)! },
  );
  const subnetsOf = new Map<number, EmissionSweep['subnets']>(blocks.map((block) => [block, []]));
  for (const row of rows) {
    subnetsOf.get(Number(row['block']))?.push({
      netuid: Number(row['netuid']),
      registeredAt: Number(row['registered_at']),
      name: String(row['name']),
      enabled: row['emission_enabled'] == null ? null : Boolean(row['emission_enabled']),
      taoInRao: BigInt(String(row['tao_in_rao'])),
      alphaInRao: BigInt(String(row['alpha_in_rao'])),
      alphaOutRao: BigInt(String(row['alpha_out_rao'])),
      status: row['status'] as EmissionStatus,
    });
  }
  return sweeps.map((row) => {
    const block = Number(row['block']);
    return {
      sweep: {
        block,
        hash: String(row['block_hash']),
        timeMs: Number(row['block_time_ms']),
        specVersion: Number(row['spec_version']),
        subnets: subnetsOf.get(block) ?? [],
      },
      checkedAtMs: Number(row['checked_at_ms']),
    };
  });
}

/** Writes each sample's copy (one put per sample, oldest first); returns the blocks copied. */
export async function copySamples(store: ObjectStore, samples: readonly RecordedSample[]): Promise<number[]> {
  const copied: number[] = [];
  for (const sample of samples) {
    await store.put(sampleCopyKey(sample.sweep.block), encodeSampleCopy(sample), 'application/gzip');
    copied.push(sample.sweep.block);
  }
  return copied;
}

/** Notes in the database that these samples are in the store. */
export async function markCopied(db: EmissionsDb, blocks: readonly number[], atMs: number): Promise<void> {
  await insertRows(
    db,
    'INSERT OR REPLACE INTO',
    'emission_copies',
    ['block', 'copied_at_ms'],
    blocks.map((block) => [block, atMs]),
  );
}
