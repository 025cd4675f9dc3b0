/**
 * Block-level reads on top of the RPC client: hashes, timestamps, runtime versions, raw storage, and the
 * codec of the runtime that produced a block. Runtime metadata is fetched once per spec version (and its codec
 * built once per process, shared-codecs.ts).
 */
import { ChainDataError } from './chain-errors.js';
import type { RpcClient } from './rpc-client.js';
import type { RuntimeCodec } from './runtime-codec.js';
import { sharedCodec } from './shared-codecs.js';

/** twox128("System") ++ twox128("Events") and twox128("Timestamp") ++ twox128("Now"): fixed across runtimes. */
export const SYSTEM_EVENTS_KEY = '0x26aa394eea5630e07c48ae0c9558cef780d41e5e16056765bc8461851072c9d7';
export const TIMESTAMP_NOW_KEY = '0xf0c365c3cf59d671eb72da0e7a4113c49f1f0515f462cdcf84e0f1d6045dfcbb';

/** Keys per `state_queryStorageAt` of `storageMany` (a node answers each in one response). */
const STORAGE_BATCH = 256;

export interface BlockRef {
  number: number;
  hash: string;
}

interface StorageChangeSet {
  block: string;
  changes: Array<[string, string | null]>;
}

export class ChainReader {
  readonly #hashes = new Map<number, string>();
  readonly #hashing = new Map<number, Promise<string>>();
  readonly #specAtHash = new Map<string, Promise<number>>();
  readonly #codecs = new Map<number, Promise<RuntimeCodec>>();

  constructor(readonly rpc: RpcClient) {}

  async finalizedHead(): Promise<BlockRef> {
    const hash = await this.rpc.send<string>('chain_getFinalizedHead', []);
    const header = await this.rpc.send<{ number: string | number }>('chain_getHeader', [hash]);
    const number = Number(header.number);
    remember(this.#hashes, number, hash);
    return { number, hash };
  }

  async blockHash(number: number): Promise<string> {
    const cached = this.#hashes.get(number);
    if (cached) return cached;
    // A hash already asked for is waited for, not asked again (a pack's reads ahead ask before its heads).
    let asking = this.#hashing.get(number);
    if (!asking) {
      asking = this.#askHash(number);
      this.#hashing.set(number, asking);
    }
    return asking;
  }

  async #askHash(number: number): Promise<string> {
    try {
      const hash = await this.rpc.send<string | null>('chain_getBlockHash', [number]);
      if (!hash) throw new ChainDataError(`block ${number} does not exist`);
      remember(this.#hashes, number, hash);
      return hash;
    } finally {
      this.#hashing.delete(number);
    }
  }

  /** Milliseconds of `Timestamp.Now` at a block. */
  async timestampAt(hash: string): Promise<number> {
    const raw = await this.rpc.send<string | null>('state_getStorage', [TIMESTAMP_NOW_KEY, hash]);
    return decodeMoment(raw, hash);
  }

  async timestampOf(number: number): Promise<number> {
    return this.timestampAt(await this.blockHash(number));
  }

  /** System.Events and Timestamp.Now of a block in one request. */
  async eventsAndTime(hash: string): Promise<{ events: string | null; timeMs: number }> {
    const sets = await this.rpc.send<StorageChangeSet[]>('state_queryStorageAt', [
      [SYSTEM_EVENTS_KEY, TIMESTAMP_NOW_KEY],
      hash,
    ]);
    let events: string | null = null;
    let now: string | null = null;
    for (const set of sets) {
      for (const [key, value] of set.changes) {
        if (key === SYSTEM_EVENTS_KEY) events = value;
        else if (key === TIMESTAMP_NOW_KEY) now = value;
      }
    }
    return { events, timeMs: decodeMoment(now, hash) };
  }

  async storage(key: string, hash: string): Promise<string | null> {
    return this.rpc.send<string | null>('state_getStorage', [key, hash]);
  }

  /**
   * Several storage values at one block, in the order of `keys`, with one `state_queryStorageAt` per
   * `STORAGE_BATCH` keys instead of one request each: a day's fixed reads (the panel's five items of every
   * subnet) then cost a few round trips and leave the requests in flight to the blocks.
   */
  async storageMany(keys: readonly string[], hash: string): Promise<Array<string | null>> {
    const values = new Map<string, string | null>();
    const chunks: string[][] = [];
    for (let i = 0; i < keys.length; i += STORAGE_BATCH) chunks.push(keys.slice(i, i + STORAGE_BATCH));
    await Promise.all(
      chunks.map(async (chunk) => {
        const sets = await this.rpc.send<StorageChangeSet[]>('state_queryStorageAt', [chunk, hash]);
        for (const set of sets) for (const [key, value] of set.changes) values.set(key, value);
      }),
    );
    return keys.map((key) => {
      const value = values.get(key);
      if (value === undefined) throw new ChainDataError(`state_queryStorageAt at ${hash} left out ${key}`);
      return value;
    });
  }

  /** All keys under a prefix at a block (`state_getKeysPaged`, 1,000 at a time). */
  async keys(prefix: string, hash: string): Promise<string[]> {
    const all: string[] = [];
    let start: string | null = null;
    for (;;) {
      const page: string[] = await this.rpc.send<string[]>('state_getKeysPaged', [prefix, 1000, start, hash]);
      all.push(...page);
      if (page.length < 1000) return all;
      start = page[page.length - 1] ?? null;
    }
  }

  /** The spec version of the runtime whose code is in the state after `hash`. */
  async specVersionAt(hash: string): Promise<number> {
    // The promise is kept, so that readers asking at once share one request.
    let version = this.#specAtHash.get(hash);
    if (!version) {
      version = this.rpc
        .send<{ specVersion: number }>('state_getRuntimeVersion', [hash])
        .then((v) => v.specVersion);
      version.catch(() => this.#specAtHash.delete(hash));
      remember(this.#specAtHash, hash, version);
    }
    return version;
  }

  /**
   * The spec version that executed block `number`: the code in its parent's state, as a node applies it
   * (a runtime upgrade set in block n takes effect from block n + 1).
   */
  async specVersionOfBlock(number: number): Promise<number> {
    return this.specVersionAt(await this.blockHash(Math.max(0, number - 1)));
  }

  /** The codec of a spec version, its metadata read at a block where that version is in the state. */
  async codec(specVersion: number, stateHash: string): Promise<RuntimeCodec> {
    let codec = this.#codecs.get(specVersion);
    if (!codec) {
      codec = this.rpc
        .send<string>('state_getMetadata', [stateHash])
        .then((hex) => sharedCodec(specVersion, hex));
      codec.catch(() => this.#codecs.delete(specVersion));
      this.#codecs.set(specVersion, codec);
    }
    return codec;
  }

  /** The codec that decodes block `number`'s events and storage. */
  async codecOfBlock(number: number): Promise<RuntimeCodec> {
    const parent = await this.blockHash(Math.max(0, number - 1));
    return this.codec(await this.specVersionAt(parent), parent);
  }
}

/**
 * The most a reader remembers of block hashes and spec versions: a reader shared by a worker's packs reads
 * thousands of blocks each, and the newest are the ones asked for again (a pack's reads ahead, then its heads).
 */
const REMEMBERED = 10_000;

/** Keeps `value` in `cache`, forgetting the oldest entry when it is full. */
function remember<K, V>(cache: Map<K, V>, key: K, value: V): void {
  if (cache.size >= REMEMBERED && !cache.has(key)) cache.delete(cache.keys().next().value as K);
  cache.set(key, value);
}

/** `Timestamp.Now` is a SCALE u64 of milliseconds (little endian). */
function decodeMoment(raw: string | null, hash: string): number {
  if (!raw || raw.length !== 18) throw new ChainDataError(`Timestamp.Now missing at ${hash}`);
  let value = 0n;
  for (let i = 16; i >= 2; i -= 2) value = (value << 8n) | BigInt(Number.parseInt(raw.slice(i, i + 2), 16));
  return Number(value);
}
