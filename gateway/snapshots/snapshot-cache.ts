import type { Freshness } from '../../pipeline/contract/envelope.js';
import { taxPaths } from '../../pipeline/contract/tax-published.js';
import {
  compressForm,
  type Manifest,
  MIN_PRECOMPRESS_BYTES,
  type ObjectStore,
  PRECOMPRESSED_ENCODINGS,
  type PrecompressedEncoding,
  readManifest,
  readPublishedForm,
  readPublishedObject,
} from '../../pipeline/store/index.js';
import { memoisedCacheControl, publicCacheControl, type RunChanges } from './cache-policy.js';

/** One representation of an object: its bytes as sent and its own strong validator. */
export interface Representation {
  body: Uint8Array;
  etag: string;
}

export interface ServedObject {
  body: Uint8Array;
  contentType: string;
  /** Strong validator: the manifest's content hash, plus the freshness when the gateway rewrote it. */
  etag: string;
  /**
   * The same bytes content-encoded (published beside the object, or compressed here once when the
   * gateway rewrote the freshness), each with its own ETag so a 304 never stands for another encoding.
   * Empty for runs published before precompression and for small objects: those are sent as they are.
   */
  encoded: Partial<Record<PrecompressedEncoding, Representation>>;
}

interface LoadedObject {
  body: Uint8Array;
  contentType: string;
  sha256: string;
  forms: Partial<Record<PrecompressedEncoding, Uint8Array>>;
}

/**
 * Reads what a run's freshness depends on from its manifest, once per run: its freshness at a request's
 * time (null: the objects carry none), and the moments its answers can change, from which the public
 * `Cache-Control` is derived (`cache-policy.ts`).
 */
export type FreshnessRule = (manifest: Manifest) => {
  freshnessAt: (nowMs: number) => Freshness | null;
  changes: RunChanges;
};

interface LoadedRun {
  manifest: Manifest;
  freshnessAt: (nowMs: number) => Freshness | null;
  cacheControlAt: (nowMs: number) => string;
  objects: Map<string, LoadedObject>;
  /** Served bytes by freshness, then by path: each made on first request. */
  variants: Map<Freshness | null, Map<string, ServedObject>>;
}

const LOAD_CONCURRENCY = 16;
const UNPUBLISHED_CACHE_CONTROL = publicCacheControl({ freshnessChangeMs: null, nextPublicationMs: null }, 0);
/**
 * Objects a run publishes that are not held in memory: the per-coldkey event shards (256 of them, read
 * one at a time by the tax check, see `fetch`). Everything else is served often and loaded up front.
 */
const LOADED_ON_DEMAND = [taxPaths.coldkeyPrefix];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The published run, held in memory. `refresh` reads the manifest and, when it names a new run, loads
 * every object (checked against the manifest's hashes) before swapping the whole run in at once, so a
 * request never sees a mix of two runs. A run that fails to load leaves the previous one served.
 */
export class SnapshotCache {
  private run: LoadedRun | null = null;
  private timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<boolean> | null = null;

  constructor(
    private readonly store: ObjectStore,
    private readonly prefix: string,
    private readonly freshness: FreshnessRule,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  get manifest(): Manifest | null {
    return this.run?.manifest ?? null;
  }

  /** The live run's freshness at `nowMs`; null when nothing is published or the run carries none. */
  freshnessAt(nowMs: number): Freshness | null {
    return this.run?.freshnessAt(nowMs) ?? null;
  }

  /**
   * The `Cache-Control` of a public answer from the live run at `nowMs` (`cache-policy.ts`): the same
   * string object for every request within a second. Before anything is published, the shortest.
   */
  publicCacheControl(nowMs: number): string {
    return this.run?.cacheControlAt(nowMs) ?? UNPUBLISHED_CACHE_CONTROL;
  }

  /** Loads the live run if it changed; true when a new run was swapped in. */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.load().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Polls the manifest; the timer does not keep the process alive. */
  start(pollMs: number): void {
    this.stop();
    this.timer = setInterval(() => {
      this.refresh().catch(this.onError);
    }, pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The object at `path` of the live run, with `freshness` set for `nowMs`; null when absent. */
  get(path: string, nowMs: number): ServedObject | null {
    const run = this.run;
    const object = run?.objects.get(path);
    if (!run || !object) return null;
    const freshness = run.freshnessAt(nowMs);
    let variants = run.variants.get(freshness);
    if (!variants) {
      variants = new Map();
      run.variants.set(freshness, variants);
    }
    let served = variants.get(path);
    if (!served) {
      served = withFreshness(object, freshness);
      variants.set(path, served);
      if (served.body !== object.body) this.encodeRewritten(served, object);
    }
    return served;
  }

  /**
   * One object of the live run read from the store now, checked against the manifest's SHA-256: for
   * the objects left out of memory (`LOADED_ON_DEMAND`). Null when nothing is published or the run
   * lists no such path; `CorruptRunError` when it lists it but the bytes are missing or differ.
   */
  async fetch(path: string): Promise<Uint8Array | null> {
    const run = this.run;
    if (!run) return null;
    const object = await readPublishedObject(this.store, run.manifest, path);
    return object?.body ?? null;
  }

  /**
   * A variant whose freshness the gateway rewrote cannot use the published forms; it is compressed
   * here, once per run and freshness, off the event loop (zlib's thread pool). Until that is done it
   * is sent as it is, which `Vary: Accept-Encoding` allows. Only encodings the run published are made.
   */
  private encodeRewritten(served: ServedObject, object: LoadedObject): void {
    if (served.body.byteLength < MIN_PRECOMPRESS_BYTES) return;
    for (const encoding of PRECOMPRESSED_ENCODINGS) {
      if (!object.forms[encoding]) continue;
      compressForm(encoding, served.body).then(
        (body) => {
          served.encoded[encoding] = { body, etag: encodedEtag(served.etag, encoding) };
        },
        (error: unknown) => this.onError(error),
      );
    }
  }

  private async load(): Promise<boolean> {
    const manifest = await readManifest(this.store, this.prefix);
    if (!manifest || manifest.version === this.run?.manifest.version) return false;
    const objects: LoadedRun['objects'] = new Map();
    const queue = manifest.objects.filter(
      (entry) => !LOADED_ON_DEMAND.some((prefix) => entry.path.startsWith(prefix)),
    );
    const worker = async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) {
        const object = await readPublishedObject(this.store, manifest, entry.path);
        if (!object) continue;
        const forms: LoadedObject['forms'] = {};
        for (const encoding of PRECOMPRESSED_ENCODINGS) {
          if (!entry.encodings?.[encoding]) continue;
          const form = await readPublishedForm(this.store, manifest, entry.path, encoding);
          if (form) forms[encoding] = form;
        }
        objects.set(entry.path, { ...object, forms });
      }
    };
    await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
    const { freshnessAt, changes } = this.freshness(manifest);
    this.run = {
      manifest,
      freshnessAt,
      cacheControlAt: memoisedCacheControl(changes),
      objects,
      variants: new Map(),
    };
    return true;
  }
}

const FRESHNESS_FIELD = /"freshness":"(current|stale|unknown)"/;

/**
 * Freshness depends on the time of the request, not of publication, so the one top-level field is
 * rewritten in the stored bytes (each variant is made once per run).
 */
function withFreshness(object: LoadedObject, freshness: Freshness | null): ServedObject {
  if (freshness !== null && object.contentType.startsWith('application/json')) {
    const text = decoder.decode(object.body);
    const match = FRESHNESS_FIELD.exec(text);
    if (match && match[1] !== freshness) {
      return {
        body: encoder.encode(text.replace(FRESHNESS_FIELD, `"freshness":"${freshness}"`)),
        contentType: object.contentType,
        etag: `"${object.sha256}-${freshness}"`,
        encoded: {},
      };
    }
  }
  const etag = `"${object.sha256}"`;
  const encoded: ServedObject['encoded'] = {};
  for (const encoding of PRECOMPRESSED_ENCODINGS) {
    const body = object.forms[encoding];
    if (body) encoded[encoding] = { body, etag: encodedEtag(etag, encoding) };
  }
  return { body: object.body, contentType: object.contentType, etag, encoded };
}

/** `"<hash>"` → `"<hash>-br"`: each representation its own strong validator (RFC 9110 8.8.3). */
function encodedEtag(etag: string, encoding: PrecompressedEncoding): string {
  return `${etag.slice(0, -1)}-${encoding}"`;
}
