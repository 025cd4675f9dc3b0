/**
 * The tax check's one chain read: what a coldkey holds at the finalized head. Every stake position
 * (`StakeInfoRuntimeApi.get_stake_info_for_coldkey`: hotkey, netuid, stake), the free balance
 * (`System.Account`), and the pool reserves and registration block of each alpha subnet it holds. The
 * runtime call's `emission` field is the hotkey's dividend, not this position's income: it is not read.
 *
 * Round trips are what a cold check costs, so they are few: the finalized head's hash; then, at once,
 * the runtime version at that block, the runtime call and the account (encoded with the runtime seen
 * last, and repeated with the right one in the rare case the version differs: a runtime upgrade, or
 * the first read); then every held subnet's pool in one `state_queryStorageAt`. Amounts stay bigint.
 */
import type { Codec } from '@polkadot/types/types';
import type { ChainReader } from '../../chain/chain-reader.js';
import { account, rao, smallInt } from '../../chain/codec-values.js';
import { callRuntimeApi, type RuntimeApis, runtimeApisOf } from '../../chain/runtime-call.js';
import type { RuntimeCodec } from '../../chain/runtime-codec.js';

const STAKE_INFO = 'StakeInfoRuntimeApi_get_stake_info_for_coldkey';
const PALLET = 'SubtensorModule';
const POOL_ITEMS = ['SubnetTAO', 'SubnetAlphaIn', 'NetworkRegisteredAt'] as const;

export interface StakePosition {
  hotkey: string;
  netuid: number;
  /** Alpha RAO (TAO RAO on root, netuid 0). */
  stakeRao: bigint;
}

/** A held subnet's pool at the block; reserves null when the chain has no entry (no pool). */
export interface HeldSubnetPool {
  netuid: number;
  /** `NetworkRegisteredAt`; 0 when the chain has no entry, as the collected panel records it (subnet-panel.ts). */
  registeredAt: number;
  taoRao: bigint | null;
  alphaInRao: bigint | null;
}

export interface ColdkeyHoldings {
  /** The finalized block the figures were read at. */
  blockHash: string;
  specVersion: number;
  /** Positions with a non-zero stake, in the runtime's order. */
  positions: StakePosition[];
  freeRao: bigint;
  /** The pools of the alpha subnets among the positions (root has no pool: its alpha is TAO). */
  pools: Map<number, HeldSubnetPool>;
}

interface KnownRuntime {
  codec: RuntimeCodec;
  apis: RuntimeApis;
}

/** Reads holdings through one `ChainReader`; remembers the last runtime so a read usually takes three round trips. */
export class ColdkeyHoldingsReader {
  #runtime: KnownRuntime | null = null;

  constructor(private readonly reader: ChainReader) {}

  async read(address: string): Promise<ColdkeyHoldings> {
    const rpc = this.reader.rpc;
    const hash = await rpc.send<string>('chain_getFinalizedHead', []);
    let runtime = this.#runtime;
    let stakeAndAccount: Promise<[Codec, string | null]> | null = null;
    let specVersion: number;
    if (runtime) {
      const reads = this.#stakeAndAccount(runtime, address, hash);
      // Settled either way: if the guess of the runtime was wrong, its failure must not go unhandled.
      reads.catch(() => undefined);
      [specVersion] = await Promise.all([this.#specVersionAt(hash), reads.catch(() => undefined)]);
      if (specVersion === runtime.codec.specVersion) stakeAndAccount = reads;
    } else {
      specVersion = await this.#specVersionAt(hash);
    }
    if (!runtime || runtime.codec.specVersion !== specVersion) {
      const codec = await this.reader.codec(specVersion, hash);
      runtime = { codec, apis: await runtimeApisOf(rpc, codec, hash) };
      this.#runtime = runtime;
    }
    const [stakeInfo, accountRaw] = await (stakeAndAccount ?? this.#stakeAndAccount(runtime, address, hash));
    const positions = decodePositions(stakeInfo);
    const freeRao = decodeFree(runtime.codec, accountRaw);
    const pools = await this.#pools(runtime.codec, positions, hash);
    return { blockHash: hash, specVersion, positions, freeRao, pools };
  }

  /** Async, so that an encoding failure under a stale runtime is a rejection like any other. */
  async #stakeAndAccount(
    runtime: KnownRuntime,
    address: string,
    hash: string,
  ): Promise<[Codec, string | null]> {
    const rpc = this.reader.rpc;
    return Promise.all([
      callRuntimeApi(rpc, runtime.apis, STAKE_INFO, runtime.apis.encodeArgs(STAKE_INFO, [address]), hash),
      rpc.send<string | null>('state_getStorage', [
        runtime.codec.storageKey('System', 'Account', address),
        hash,
      ]),
    ]);
  }

  /** Not through `ChainReader.specVersionAt`, which keeps every hash it is asked about. */
  async #specVersionAt(hash: string): Promise<number> {
    const version = await this.reader.rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash]);
    return version.specVersion;
  }

  async #pools(
    codec: RuntimeCodec,
    positions: StakePosition[],
    hash: string,
  ): Promise<Map<number, HeldSubnetPool>> {
    const netuids = [...new Set(positions.map((p) => p.netuid).filter((netuid) => netuid !== 0))];
    const pools = new Map<number, HeldSubnetPool>();
    if (netuids.length === 0) return pools;
    const keys = netuids.flatMap((netuid) =>
      POOL_ITEMS.map((item) => codec.storageKey(PALLET, item, netuid)),
    );
    const sets = await this.reader.rpc.send<Array<{ changes: Array<[string, string | null]> }>>(
      'state_queryStorageAt',
      [keys, hash],
    );
    const values = new Map<string, string | null>();
    for (const set of sets) for (const [key, value] of set.changes) values.set(key, value);
    netuids.forEach((netuid, i) => {
      const read = (item: (typeof POOL_ITEMS)[number], offset: number) => {
        const value = codec.decodeStorage(
          PALLET,
          item,
          values.get(keys[i * POOL_ITEMS.length + offset]!) ?? null,
        );
        return value === null ? null : BigInt(value.toString());
      };
      const registeredAt = read('NetworkRegisteredAt', 2);
      pools.set(netuid, {
        netuid,
        registeredAt: registeredAt === null ? 0 : Number(registeredAt),
        taoRao: read('SubnetTAO', 0),
        alphaInRao: read('SubnetAlphaIn', 1),
      });
    });
    return pools;
  }
}

function decodePositions(stakeInfo: Codec): StakePosition[] {
  const list = stakeInfo as unknown as Array<{ hotkey: Codec; netuid: Codec; stake: Codec }>;
  return list
    .map((info) => ({
      hotkey: account(info.hotkey),
      netuid: smallInt(info.netuid),
      stakeRao: rao(info.stake),
    }))
    .filter((position) => position.stakeRao > 0n);
}

/** `System.Account`'s `data.free`; an absent entry is an account that holds nothing. */
function decodeFree(codec: RuntimeCodec, raw: string | null): bigint {
  const info = codec.decodeStorage('System', 'Account', raw) as unknown as { data: { free: Codec } } | null;
  return info === null ? 0n : rao(info.data.free);
}
