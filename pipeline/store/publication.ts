import { createHash } from 'node:crypto';
import { type Manifest, type ManifestEntry, manifestKey, RESERVED_MANIFEST_FIELDS } from './manifest.js';
import { assertValidKey } from './object-key.js';
import type { ObjectStore } from './object-store.js';
import {
  type CompressionEffort,
  compressForm,
  ENCODING_SUFFIX,
  MIN_PRECOMPRESS_BYTES,
  PRECOMPRESSED_ENCODINGS,
  type PrecompressedEncoding,
} from './precompress.js';
import { newRunVersion, RUN_VERSION_PATTERN } from './run-version.js';
import { CorruptRunError, ObjectStoreError } from './store-errors.js';

export const DEFAULT_KEEP_RUNS = 7;
const DEFAULT_CONCURRENCY = 8;
/** Objects compressed at once: libuv's thread pool has four threads by default. */
const COMPRESS_CONCURRENCY = 4;

export interface RunObject {
  /** Path inside the run, e.g. `subnets.json` or `subnets/12/history-90.csv`. */
  path: string;
  body: Uint8Array;
  contentType: string;
  /**
   * Store its brotli and gzip forms beside it (when it is at least `MIN_PRECOMPRESS_BYTES` and a form
   * is smaller), for a server to send as they are. For objects served to clients, not read internally.
   * `true` is `'max'`; `'fast'` for large objects served rarely (see `CompressionEffort`).
   */
  precompress?: boolean | CompressionEffort;
}

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

export interface PublishRunResult {
  manifest: Manifest;
  /** Versions deleted by pruning. */
  pruned: string[];
}

/** `runs/` under the publisher's namespace: `runs/` or `emissions/runs/`. */
export function runsPrefix(prefix: string): string {
  return `${prefix}runs/`;
}

/**
 * All-or-nothing publication. Every object goes under a prefix no reader knows yet
 * (`<prefix>runs/<version>/<path>`); only when all are stored is `<prefix>manifest.json` replaced, in one
 * atomic PUT, with the list of keys and their SHA-256. A crash at any point therefore leaves the previous
 * manifest in place and every object it lists untouched: runs are never rewritten, and pruning only
 * runs after the switch and never touches the live run.
 */
export async function publishRun(store: ObjectStore, input: PublishRunInput): Promise<PublishRunResult> {
  const { prefix, objects } = input;
  assertNamespace(prefix);
  const now = input.now ?? new Date();
  const version = input.version ?? newRunVersion(now);
  if (!RUN_VERSION_PATTERN.test(version)) throw new ObjectStoreError(`invalid run version "${version}"`);
  const keepRuns = input.keepRuns ?? DEFAULT_KEEP_RUNS;
  if (!Number.isInteger(keepRuns) || keepRuns < 1)
    throw new ObjectStoreError(`keepRuns must be >= 1, got ${keepRuns}`);
  const meta = input.meta ?? {};
  for (const field of RESERVED_MANIFEST_FIELDS) {
    if (field in meta) throw new ObjectStoreError(`manifest meta may not set "${field}"`);
  }

  const runPrefix = `${runsPrefix(prefix)}${version}/`;
  const seen = new Set<string>();
  const entries: ManifestEntry[] = objects.map((object) => {
    assertValidKey(object.path);
    if (seen.has(object.path)) throw new ObjectStoreError(`run has two objects at "${object.path}"`);
    seen.add(object.path);
    return {
      path: object.path,
      key: runPrefix + object.path,
      sha256: sha256Hex(object.body),
      bytes: object.body.byteLength,
      content_type: object.contentType,
    };
  });

  // The encoded forms are part of the run like any object: written before the manifest switch.
  const writes: { key: string; body: Uint8Array; contentType: string }[] = objects.map((object, index) => ({
    key: entries[index]!.key,
    body: object.body,
    contentType: object.contentType,
  }));
  const toCompress = objects
    .map((object, index) => ({ object, index }))
    .filter(({ object }) => object.precompress && object.body.byteLength >= MIN_PRECOMPRESS_BYTES);
  await forEachLimited(toCompress, COMPRESS_CONCURRENCY, async ({ object, index }) => {
    const entry = entries[index]!;
    const effort = object.precompress === 'fast' ? 'fast' : 'max';
    const forms = await Promise.all(PRECOMPRESSED_ENCODINGS.map((e) => compressForm(e, object.body, effort)));
    const encodings: NonNullable<ManifestEntry['encodings']> = {};
    for (const [i, encoding] of PRECOMPRESSED_ENCODINGS.entries()) {
      const body = forms[i]!;
      if (body.byteLength >= object.body.byteLength) continue;
      const key = entry.key + ENCODING_SUFFIX[encoding];
      encodings[encoding] = { key, sha256: sha256Hex(body), bytes: body.byteLength };
      writes.push({ key, body, contentType: object.contentType });
    }
    if (Object.keys(encodings).length > 0) entry.encodings = encodings;
  });

  await forEachLimited(writes, input.concurrency ?? DEFAULT_CONCURRENCY, (write) =>
    store.put(write.key, write.body, write.contentType),
  );

  const manifest: Manifest = { version, created_at: now.toISOString(), objects: entries, ...meta };
  // The switch: before this line readers see the previous run, after it the new one.
  await store.put(manifestKey(prefix), encodeJson(manifest), 'application/json');

  const pruned = await pruneRuns(store, prefix, keepRuns, version);
  return { manifest, pruned };
}

/**
 * Deletes every run but the newest `keepRuns` and the `live` one. Newer runs than the live one are kept
 * as part of the newest: they may be another publisher's run in progress. Runs left by a crashed
 * publisher are older than the next successful one and go once they fall out of the newest.
 */
export async function pruneRuns(
  store: ObjectStore,
  prefix: string,
  keepRuns: number,
  live: string,
): Promise<string[]> {
  const base = runsPrefix(prefix);
  const keys = await store.list(base);
  const byVersion = new Map<string, string[]>();
  for (const key of keys) {
    const version = key.slice(base.length).split('/')[0];
    if (version === undefined || version === '') continue;
    const list = byVersion.get(version) ?? [];
    list.push(key);
    byVersion.set(version, list);
  }
  const newestFirst = [...byVersion.keys()].sort().reverse();
  const doomed = newestFirst.slice(keepRuns).filter((version) => version !== live);
  // Delete the oldest first, so a crash part-way leaves the newer (more useful) runs.
  for (const version of doomed.reverse()) {
    await store.delete(byVersion.get(version) ?? []);
  }
  return doomed;
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

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function encodeJson(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

function assertNamespace(prefix: string): void {
  if (prefix === '') return;
  if (!prefix.endsWith('/'))
    throw new ObjectStoreError(`publication prefix must be empty or end in "/": "${prefix}"`);
  assertValidKey(prefix.slice(0, -1));
}

/** Runs `task` over `items` with at most `limit` in flight; the first failure rejects. */
async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        await task(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
