/**
 * Every hotkey's share pool on every subnet at one block: `SubtensorModule.TotalHotkeyAlpha` (the alpha the
 * pool holds, u64) and `TotalHotkeyShares` (the shares issued against it, U64F64). A staker holds shares, so
 * the alpha a share is worth (alpha ÷ shares) is what a staker who does nothing earns on: the network's
 * chain-derived yield is the growth of that ratio.
 *
 * Keys come from `state_getKeysPaged` on both maps (an entry may exist in one only: both are ValueQuery,
 * absent means 0), values from `state_queryStorageAt` in batches. Everything is decoded through the codec of
 * the block's runtime; both maps must be keyed `(Blake2_128Concat AccountId32, Identity u16)`, which the
 * reader checks in the metadata rather than assumes.
 */
import type { Codec } from '@polkadot/types/types';
import { hexToU8a } from '@polkadot/util';
import { ChainDataError } from './chain-errors.js';
import type { ChainReader } from './chain-reader.js';
import { mapConcurrent } from './limiter.js';
import type { RuntimeCodec } from './runtime-codec.js';
import { readRegisteredAt } from './subnet-panel.js';

const PALLET = 'SubtensorModule';
const ALPHA = 'TotalHotkeyAlpha';
const SHARES = 'TotalHotkeyShares';
/** Keys per `state_queryStorageAt`: small enough for any node's response limit, large enough to be few. */
const BATCH = 256;
const PREFIX_BYTES = 32;
const BLAKE2_128_BYTES = 16;
const ACCOUNT_BYTES = 32;
const NETUID_BYTES = 2;

export interface SharePool {
  netuid: number;
  /** The subnet holding the netuid at the block (netuids are reused). */
  registeredAt: number;
  /** SS58 address of the hotkey. */
  hotkey: string;
  /** `TotalHotkeyAlpha`, RAO. */
  totalAlphaRao: bigint;
  /** `TotalHotkeyShares` as the raw bits of its U64F64 (2^64 bits = one share); only ratios matter. */
  totalSharesBits: bigint;
}

/**
 * The pools at `hash`, sorted by (netuid, hotkey). Pools with neither alpha nor shares, and pools of a
 * netuid that is not registered at the block (leftovers with no subnet), are left out. A runtime without
 * these maps (before dynamic TAO) has no pools: an empty list.
 */
export async function readSharePools(
  reader: ChainReader,
  codec: RuntimeCodec,
  hash: string,
  concurrency: number,
): Promise<SharePool[]> {
  if (!codec.hasStorage(PALLET, ALPHA) || !codec.hasStorage(PALLET, SHARES)) return [];
  for (const item of [ALPHA, SHARES]) assertPoolKeyShape(codec, item);
  const alphaPrefix = codec.storagePrefix(PALLET, ALPHA);
  const sharesPrefix = codec.storagePrefix(PALLET, SHARES);
  // Both maps hash their keys the same way, so an entry's key after the prefix names the same pool in both.
  const suffixes = new Set<string>();
  for (const [prefix, keys] of [
    [alphaPrefix, await reader.keys(alphaPrefix, hash)],
    [sharesPrefix, await reader.keys(sharesPrefix, hash)],
  ] as const) {
    for (const key of keys) suffixes.add(key.toLowerCase().slice(prefix.length));
  }
  const ordered = [...suffixes].sort();
  const batches: string[][] = [];
  for (let i = 0; i < ordered.length; i += BATCH) batches.push(ordered.slice(i, i + BATCH));
  const values = await mapConcurrent(batches, concurrency, async (batch) => {
    const keys = batch.flatMap((suffix) => [alphaPrefix + suffix, sharesPrefix + suffix]);
    return valuesAt(reader, keys, hash);
  });

  const pools: Omit<SharePool, 'registeredAt'>[] = [];
  batches.forEach((batch, b) => {
    const found = values[b]!;
    for (const suffix of batch) {
      const alpha = found.get(alphaPrefix + suffix) ?? null;
      const shares = found.get(sharesPrefix + suffix) ?? null;
      const totalAlphaRao = alpha === null ? 0n : u64Value(codec.decodeStorage(PALLET, ALPHA, alpha));
      const totalSharesBits =
        shares === null ? 0n : fixedBits(codec.decodeStorage(PALLET, SHARES, shares), shares);
      if (totalAlphaRao === 0n && totalSharesBits === 0n) continue;
      pools.push({ ...decodePoolKey(codec, alphaPrefix + suffix), totalAlphaRao, totalSharesBits });
    }
  });

  const netuids = [...new Set(pools.map((p) => p.netuid))].sort((a, b) => a - b);
  const registered = await mapConcurrent(netuids, concurrency, (netuid) =>
    readRegisteredAt(reader, codec, hash, netuid),
  );
  const registeredAt = new Map(netuids.map((netuid, i) => [netuid, registered[i] ?? null]));
  return pools
    .flatMap((pool) => {
      const at = registeredAt.get(pool.netuid) ?? null;
      return at === null ? [] : [{ ...pool, registeredAt: at }];
    })
    .sort((a, b) => a.netuid - b.netuid || (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0));
}

interface StorageChangeSet {
  changes: Array<[string, string | null]>;
}

async function valuesAt(
  reader: ChainReader,
  keys: string[],
  hash: string,
): Promise<Map<string, string | null>> {
  const sets = await reader.rpc.send<StorageChangeSet[]>('state_queryStorageAt', [keys, hash]);
  const values = new Map<string, string | null>();
  for (const set of sets) for (const [key, value] of set.changes) values.set(key.toLowerCase(), value);
  return values;
}

/** The map's hashers and key type, from the metadata: the decoding below depends on exactly this shape. */
function assertPoolKeyShape(codec: RuntimeCodec, item: string): void {
  const pallet = codec.registry.metadata.pallets.find((p) => p.name.toString() === PALLET);
  const entry = pallet?.storage.unwrapOr(null)?.items.find((i) => i.name.toString() === item);
  const map = entry?.type.isMap ? entry.type.asMap : null;
  const hashers = map?.hashers.map((h) => h.type) ?? [];
  if (hashers.join(',') !== 'Blake2_128Concat,Identity') {
    throw new ChainDataError(
      `runtime ${codec.specVersion}: ${PALLET}.${item} is keyed by [${hashers.join(', ')}], expected [Blake2_128Concat, Identity]`,
    );
  }
}

/** prefix ‖ blake2_128(hotkey) ‖ hotkey (32 bytes) ‖ netuid (u16, little endian). */
function decodePoolKey(codec: RuntimeCodec, key: string): { netuid: number; hotkey: string } {
  const bytes = hexToU8a(key);
  const accountAt = PREFIX_BYTES + BLAKE2_128_BYTES;
  const netuidAt = accountAt + ACCOUNT_BYTES;
  if (bytes.length !== netuidAt + NETUID_BYTES) {
    throw new ChainDataError(`unexpected share pool key length ${bytes.length}: ${key}`);
  }
  const hotkey = codec.registry
    .createTypeUnsafe('AccountId32', [bytes.subarray(accountAt, netuidAt)])
    .toString();
  const netuid = (bytes[netuidAt] as number) | ((bytes[netuidAt + 1] as number) << 8);
  return { netuid, hotkey };
}

function u64Value(value: Codec | null): bigint {
  if (value === null) return 0n;
  return BigInt(value.toString());
}

/** The bits of a U64F64 (a struct `{ bits: u128 }` in the metadata), never through a float. */
function fixedBits(value: Codec | null, raw: string): bigint {
  if (value === null) return 0n;
  const bits = (value as Codec & { get?: (name: string) => Codec | undefined }).get?.('bits');
  if (bits !== undefined) return BigInt(bits.toString());
  const asJson = value.toJSON();
  if (typeof asJson === 'number' || typeof asJson === 'string') return BigInt(asJson);
  throw new ChainDataError(`cannot read U64F64 bits from ${raw}`);
}
