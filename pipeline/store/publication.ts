import type { Manifest } from './manifest.js';
import type { ObjectStore } from './object-store.js';
import type { PrecompressedEncoding } from './precompress.js';
import { assertRunMeta, assertRunPath, type RunCommit, type RunObject, startRun } from './run-writer.js';
import { sha256Hex } from './sha256.js';
import { CorruptRunError } from './store-errors.js';

export { pruneRuns, runsPrefix } from './prune-runs.js';
export { DEFAULT_KEEP_RUNS, type RunObject } from './run-writer.js';
export { sha256Hex } from './sha256.js';

export interface PublishRunInput {
  /** Namespace of this publisher: `''` for burns, `'emissions/'` for the emissions watch. */
  prefix: string;
  objects: RunObject[];
  /** Extra manifest members, e.g. `{ burns_checked_at }`; may not use `version`, `created_at` or `objects`. */
  meta?: Record<string, unknown>;
  /** Runs kept after publishing (the live one included); default 7. */
  keepRuns?: number;
  /** Defaults to `newRunVersion(now)`. */
  version?: string;
  now?: Date;
  /** Object writes in flight; S3 round trips dominate, so a few in parallel pay off. */
  concurrency?: number;
}

export type PublishRunResult = RunCommit;

/**
 * All-or-nothing publication of objects already built. Every object goes under a prefix no reader knows
 * yet (`<prefix>runs/<version>/<path>`); only when all are stored is `<prefix>manifest.json` replaced, in
 * one atomic PUT, with the list of keys and their SHA-256. A crash at any point therefore leaves the
 * previous manifest in place and every object it lists untouched: runs are never rewritten, and pruning
 * only runs after the switch and never touches the live run. The whole input is checked before anything
 * is written. A publisher that builds objects as it goes writes them through `startRun` instead.
 */
export async function publishRun(store: ObjectStore, input: PublishRunInput): Promise<PublishRunResult> {
  const meta = input.meta ?? {};
  assertRunMeta(meta);
  const paths = new Set<string>();
  for (const object of input.objects) {
    assertRunPath(object.path, paths);
    paths.add(object.path);
  }
  const run = startRun(store, {
    prefix: input.prefix,
    version: input.version,
    now: input.now,
    keepRuns: input.keepRuns,
    concurrency: input.concurrency,
  });
  try {
    for (const object of input.objects) await run.add(object);
  } catch (error) {
    await run.abandon();
    throw error;
  }
  return run.commit(meta);
}

export interface PublishedObject {
  body: Uint8Array;
  contentType: string;
  /** Hex SHA-256 of the body: a strong ETag. */
  sha256: string;
  bytes: number;
}

export interface ReadPublishedOptions {
  /** `sha256` (default) hashes the bytes read; `size` only compares the length, for hot paths. */
  verify?: 'sha256' | 'size';
}

/**
 * One object of a published run, checked against what the manifest recorded. `null` when the manifest
 * lists no such path; `CorruptRunError` when it does but the stored bytes are missing or differ.
 */
export async function readPublishedObject(
  store: ObjectStore,
  manifest: Manifest,
  path: string,
  options: ReadPublishedOptions = {},
): Promise<PublishedObject | null> {
  const entry = manifest.objects.find((object) => object.path === path);
  if (!entry) return null;
  const body = await store.get(entry.key);
  if (body === null) {
    throw new CorruptRunError(
      `${store.description}: run ${manifest.version} lists "${path}" but "${entry.key}" is missing`,
    );
  }
  if (body.byteLength !== entry.bytes) {
    throw new CorruptRunError(
      `${store.description}: "${entry.key}" has ${body.byteLength} bytes, the manifest says ${entry.bytes}`,
    );
  }
  if ((options.verify ?? 'sha256') === 'sha256' && sha256Hex(body) !== entry.sha256) {
    throw new CorruptRunError(
      `${store.description}: "${entry.key}" does not match its SHA-256 in the manifest`,
    );
  }
  return { body, contentType: entry.content_type, sha256: entry.sha256, bytes: entry.bytes };
}

/**
 * The `encoding` form of a published object, checked like the object itself; null when the manifest
 * lists no such path or the run carries no such form (published before precompression, or too small).
 */
export async function readPublishedForm(
  store: ObjectStore,
  manifest: Manifest,
  path: string,
  encoding: PrecompressedEncoding,
): Promise<Uint8Array | null> {
  const form = manifest.objects.find((object) => object.path === path)?.encodings?.[encoding];
  if (!form) return null;
  const body = await store.get(form.key);
  if (body === null) {
    throw new CorruptRunError(
      `${store.description}: run ${manifest.version} lists "${form.key}" but it is missing`,
    );
  }
  if (body.byteLength !== form.bytes || sha256Hex(body) !== form.sha256) {
    throw new CorruptRunError(`${store.description}: "${form.key}" does not match the manifest`);
  }
  return body;
}
