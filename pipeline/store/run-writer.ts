/**
 * A run written object by object: each object (and its precompressed forms) is stored under the run's
 * prefix as it is added, and only its manifest entry is kept, so a publisher can hand over objects as it
 * builds them and let their bytes go. `commit` writes the manifest last: the switch. Before it readers see
 * the previous run; a failure before it (or `abandon`) leaves the previous run served, and what was
 * written of this run is listed by no manifest and is pruned by a later successful run (`prune-runs.ts`).
 */
import { type Manifest, type ManifestEntry, manifestKey, RESERVED_MANIFEST_FIELDS } from './manifest.js';
import { assertValidKey } from './object-key.js';
import type { ObjectStore } from './object-store.js';
import {
  type CompressionEffort,
  compressForm,
  ENCODING_SUFFIX,
  MIN_PRECOMPRESS_BYTES,
  PRECOMPRESSED_ENCODINGS,
} from './precompress.js';
import { pruneRuns, runsPrefix } from './prune-runs.js';
import { newRunVersion, RUN_VERSION_PATTERN } from './run-version.js';
import { sha256Hex } from './sha256.js';
import { ObjectStoreError } from './store-errors.js';

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

export interface RunWriterOptions {
  /** Namespace of this publisher: `''` for burns, `'emissions/'` for the emissions watch. */
  prefix: string;
  /** Runs kept after publishing (the live one included); default 7. */
  keepRuns?: number;
  /** Defaults to `newRunVersion(now)`. */
  version?: string;
  now?: Date;
  /**
   * Objects being written at once (each with its forms). S3 round trips dominate, so a few in parallel
   * pay off; it also bounds the bodies held: `add` waits while this many are in flight.
   */
  concurrency?: number;
}

export interface RunCommit {
  manifest: Manifest;
  /** Versions deleted by pruning. */
  pruned: string[];
}

export interface RunWriter {
  readonly version: string;
  /**
   * Starts writing the object; resolves once fewer than `concurrency` objects are in flight, so the
   * caller may build the next one. Rejects on a bad or repeated path, or when an earlier write failed.
   */
  add(object: RunObject): Promise<void>;
  /** Waits for every write, then replaces the manifest (the switch) and prunes old runs. */
  commit(meta?: Record<string, unknown>): Promise<RunCommit>;
  /** Gives the run up: waits for the writes in flight to settle; the manifest is not touched. */
  abandon(): Promise<void>;
}

/** Checks the run's options (nothing is written yet) and returns its writer. */
export function startRun(store: ObjectStore, options: RunWriterOptions): RunWriter {
  const { prefix } = options;
  assertNamespace(prefix);
  const now = options.now ?? new Date();
  const version = options.version ?? newRunVersion(now);
  if (!RUN_VERSION_PATTERN.test(version)) throw new ObjectStoreError(`invalid run version "${version}"`);
  const keepRuns = options.keepRuns ?? DEFAULT_KEEP_RUNS;
  if (!Number.isInteger(keepRuns) || keepRuns < 1)
    throw new ObjectStoreError(`keepRuns must be >= 1, got ${keepRuns}`);
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const runPrefix = `${runsPrefix(prefix)}${version}/`;

  const entries: ManifestEntry[] = [];
  const paths = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const compressSlots = limiter(COMPRESS_CONCURRENCY);
  let failure: { error: unknown } | null = null;
  let closed = false;

  const write = async (object: RunObject, entry: ManifestEntry): Promise<void> => {
    const writes: { key: string; body: Uint8Array }[] = [{ key: entry.key, body: object.body }];
    if (object.precompress && object.body.byteLength >= MIN_PRECOMPRESS_BYTES) {
      const effort = object.precompress === 'fast' ? 'fast' : 'max';
      const forms = await compressSlots(() =>
        Promise.all(PRECOMPRESSED_ENCODINGS.map((e) => compressForm(e, object.body, effort))),
      );
      const encodings: NonNullable<ManifestEntry['encodings']> = {};
      for (const [i, encoding] of PRECOMPRESSED_ENCODINGS.entries()) {
        const body = forms[i]!;
        if (body.byteLength >= object.body.byteLength) continue;
        const key = entry.key + ENCODING_SUFFIX[encoding];
        encodings[encoding] = { key, sha256: sha256Hex(body), bytes: body.byteLength };
        writes.push({ key, body });
      }
      if (Object.keys(encodings).length > 0) entry.encodings = encodings;
    }
    await Promise.all(writes.map((w) => store.put(w.key, w.body, object.contentType)));
  };
  const throwIfFailed = () => {
    if (failure) throw failure.error;
  };
  const settle = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };

  return {
    version,
    async add(object) {
      if (closed) throw new ObjectStoreError(`run ${version} is already committed or abandoned`);
      throwIfFailed();
      assertRunPath(object.path, paths);
      paths.add(object.path);
      const entry: ManifestEntry = {
        path: object.path,
        key: runPrefix + object.path,
        sha256: sha256Hex(object.body),
        bytes: object.body.byteLength,
        content_type: object.contentType,
      };
      entries.push(entry);
      const task: Promise<void> = write(object, entry).then(
        () => {
          inFlight.delete(task);
        },
        (error: unknown) => {
          inFlight.delete(task);
          failure ??= { error };
        },
      );
      inFlight.add(task);
      while (inFlight.size >= concurrency && !failure) await Promise.race(inFlight);
      throwIfFailed();
    },
    async commit(meta = {}) {
      if (closed) throw new ObjectStoreError(`run ${version} is already committed or abandoned`);
      closed = true;
      assertRunMeta(meta);
      await settle();
      throwIfFailed();
      const manifest: Manifest = { version, created_at: now.toISOString(), objects: entries, ...meta };
      // The switch: before this line readers see the previous run, after it the new one.
      await store.put(manifestKey(prefix), encodeJson(manifest), 'application/json');
      const pruned = await pruneRuns(store, prefix, keepRuns, version);
      return { manifest, pruned };
    },
    async abandon() {
      closed = true;
      await settle();
    },
  };
}

/** A path a run may hold: a valid key, not already in the run (`taken`). */
export function assertRunPath(path: string, taken: ReadonlySet<string>): void {
  assertValidKey(path);
  if (taken.has(path)) throw new ObjectStoreError(`run has two objects at "${path}"`);
}

/** Manifest members a publisher may add: not `version`, `created_at` or `objects`. */
export function assertRunMeta(meta: Record<string, unknown>): void {
  for (const field of RESERVED_MANIFEST_FIELDS) {
    if (field in meta) throw new ObjectStoreError(`manifest meta may not set "${field}"`);
  }
}

function assertNamespace(prefix: string): void {
  if (prefix === '') return;
  if (!prefix.endsWith('/'))
    throw new ObjectStoreError(`publication prefix must be empty or end in "/": "${prefix}"`);
  assertValidKey(prefix.slice(0, -1));
}

function encodeJson(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

/** Runs tasks with at most `limit` at once, in the order they asked. */
function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
