import { u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import type { BlockHashes } from '../chain/blocks.js';
import { RuntimeCallError, runtimeCall } from '../chain/runtime-calls.js';
import type { ChainStorage } from '../chain/storage.js';
import type { Runtime } from '../runtime/runtime.js';
import type { Runtimes } from '../runtime/runtimes.js';
import type { World } from '../world/world.js';
import { CLIENT_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, RpcError, RUNTIME_ERROR } from './rpc-error.js';

/** Methods answered by the subscription layer (listed in `rpc_methods`). */
export const SUBSCRIPTION_METHODS = [
  'chain_subscribeNewHeads',
  'chain_unsubscribeNewHeads',
  'chain_subscribeNewHead',
  'chain_unsubscribeNewHead',
  'subscribe_newHead',
  'unsubscribe_newHead',
  'chain_subscribeAllHeads',
  'chain_unsubscribeAllHeads',
  'chain_subscribeFinalizedHeads',
  'chain_unsubscribeFinalizedHeads',
  'chain_subscribeFinalisedHeads',
  'chain_unsubscribeFinalisedHeads',
  'state_subscribeRuntimeVersion',
  'state_unsubscribeRuntimeVersion',
  'state_subscribeStorage',
  'state_unsubscribeStorage',
];

type Params = unknown[];

/**
 * The node's request/answer methods over the world: blocks, headers, storage, runtime versions,
 * metadata and runtime calls, each for any block hash it is given. Transport and subscriptions live
 * in the WebSocket server.
 */
export class ChainNode {
  readonly world: World;
  readonly hashes: BlockHashes;
  readonly #runtimes: Runtimes;
  readonly #storage: ChainStorage;
  readonly #now: () => number;
  readonly #finalityLag: number;
  readonly #methods: Record<string, (params: Params) => unknown>;

  constructor(
    world: World,
    runtimes: Runtimes,
    hashes: BlockHashes,
    storage: ChainStorage,
    now: () => number,
    finalityLag: number,
  ) {
    this.world = world;
    this.hashes = hashes;
    this.#runtimes = runtimes;
    this.#storage = storage;
    this.#now = now;
    this.#finalityLag = finalityLag;
    this.#methods = this.#define();
  }

  head(): number {
    return this.world.headAt(this.#now());
  }

  finalized(): number {
    return Math.max(0, this.head() - this.#finalityLag);
  }

  /**
   * The runtime whose code is in the state after `block`. The upgrade's `set_code` is in the block
   * before the upgrade block, so that block's state already holds spec 393 while its events were
   * emitted by spec 343; `.at(hash)` reads the version at the parent, as a real node requires.
   */
  codeAt(block: number): Runtime {
    return this.#runtimes.bySpec(this.world.specAt(block + 1));
  }

  has(method: string): boolean {
    return method in this.#methods;
  }

  /** The names in the node's request/answer method table, as it holds them (read-only). */
  requestMethods(): readonly string[] {
    return Object.keys(this.#methods);
  }

  methodNames(): string[] {
    return [...Object.keys(this.#methods), ...SUBSCRIPTION_METHODS].sort();
  }

  call(method: string, params: Params): unknown {
    const handler = this.#methods[method];
    if (!handler) throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}`);
    return handler(params);
  }

  header(block: number) {
    return this.hashes.header(block, this.world.timeline.timeOf(block), this.world.params.blockTimeMs);
  }

  /** The block of an optional `at` hash; the best block when absent. */
  resolveAt(at: unknown): number {
    if (at === undefined || at === null) return this.head();
    if (typeof at !== 'string')
      throw new RpcError(INVALID_PARAMS, 'Invalid params: block hash must be a hex string');
    const block = this.hashes.numberOf(at);
    if (block === null || block > this.head()) {
      throw new RpcError(CLIENT_ERROR, `Client error: UnknownBlock: State already discarded for ${at}`);
    }
    return block;
  }

  storageAt(key: string, block: number): string | null {
    return this.#storage.get(key, block);
  }

  #define(): Record<string, (params: Params) => unknown> {
    const text = (value: unknown, name: string): string => {
      if (typeof value !== 'string')
        throw new RpcError(INVALID_PARAMS, `Invalid params: ${name} must be a string`);
      return value;
    };
    const blockHash = ([n]: Params) => {
      if (n === undefined || n === null) return this.hashes.hashOf(this.head());
      const number = typeof n === 'string' ? Number.parseInt(n, n.startsWith('0x') ? 16 : 10) : Number(n);
      if (!Number.isInteger(number) || number < 0)
        throw new RpcError(INVALID_PARAMS, 'Invalid params: block number');
      return number <= this.head() ? this.hashes.hashOf(number) : null;
    };
    const header = ([at]: Params) => {
      if (at === undefined || at === null) return this.header(this.head());
      const block = typeof at === 'string' ? this.hashes.numberOf(at) : null;
      return block === null || block > this.head() ? null : this.header(block);
    };
    const version = ([at]: Params) => this.codeAt(this.resolveAt(at)).versionJson;
    const storage = ([key, at]: Params) => this.storageAt(text(key, 'key'), this.resolveAt(at));
    return {
      rpc_methods: () => ({ version: 1, methods: this.methodNames() }),
      system_chain: () => 'Bittensor',
      system_name: () => 'Subtensor Node (sandbox)',
      system_version: () => '4.0.0-sandbox',
      system_chainType: () => 'Live',
      system_properties: () => ({ ss58Format: 42, tokenDecimals: 9, tokenSymbol: 'TAO' }),
      system_health: () => ({ peers: 0, isSyncing: false, shouldHavePeers: false }),
      chain_getBlockHash: blockHash,
      chain_getHead: blockHash,
      chain_getHeader: header,
      chain_getBlock: ([at]: Params) => {
        const found = header([at]);
        if (!found) return null;
        const extrinsics = this.#storage.blockBody(Number.parseInt(found.number.slice(2), 16));
        return { block: { header: found, extrinsics }, justifications: null };
      },
      chain_getFinalizedHead: () => this.hashes.hashOf(this.finalized()),
      chain_getFinalisedHead: () => this.hashes.hashOf(this.finalized()),
      state_getRuntimeVersion: version,
      chain_getRuntimeVersion: version,
      state_getMetadata: ([at]: Params) => this.codeAt(this.resolveAt(at)).metadataHex,
      state_getStorage: storage,
      state_getStorageAt: storage,
      state_getStorageHash: (params: Params) => {
        const value = storage(params);
        return value === null ? null : u8aToHex(blake2AsU8a(value, 256));
      },
      state_getStorageSize: (params: Params) => {
        const value = storage(params);
        return value === null ? null : (value.length - 2) / 2;
      },
      state_queryStorageAt: ([keys, at]: Params) => {
        if (!Array.isArray(keys)) throw new RpcError(INVALID_PARAMS, 'Invalid params: keys must be an array');
        const block = this.resolveAt(at);
        return [
          {
            block: this.hashes.hashOf(block),
            changes: keys.map((key) => [key, this.storageAt(text(key, 'key'), block)]),
          },
        ];
      },
      state_getKeysPaged: ([prefix, count, startKey, at]: Params) => {
        const limit = Number(count);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
          throw new RpcError(INVALID_PARAMS, 'Invalid params: count must be 1..1000');
        }
        const start = startKey === undefined || startKey === null ? null : text(startKey, 'startKey');
        return this.#storage.keysPaged(text(prefix ?? '0x', 'prefix'), limit, start, this.resolveAt(at));
      },
      state_getKeys: ([prefix, at]: Params) =>
        this.#storage.keysPaged(text(prefix, 'prefix'), 1000, null, this.resolveAt(at)),
      state_call: ([method, data, at]: Params) => {
        const block = this.resolveAt(at);
        try {
          return runtimeCall(
            this.world,
            this.codeAt(block),
            block,
            text(method, 'method'),
            text(data ?? '0x', 'data'),
          );
        } catch (error) {
          if (error instanceof RuntimeCallError) throw new RpcError(RUNTIME_ERROR, error.message);
          throw error;
        }
      },
    };
  }
}
