/**
 * Every hotkey's share pool on every subnet at one block: `SubtensorModule.TotalHotkeyAlpha` (the alpha the
 * pool holds, u64) and its denominator, the shares issued against it. A staker holds shares, so the alpha a
 * share is worth (alpha ÷ shares) is what a staker who does nothing earns on: the network's chain-derived
 * yield is the growth of that ratio.
 *
 * The denominator is read as the chain reads it (opentensor/subtensor `pallets/subtensor/src/staking/
 * stake_utils.rs`, `get_denominator`): `TotalHotkeyShares` (V1, U64F64) where the key is present, else
 * `TotalHotkeySharesV2` (SafeFloat, spec 425 on), the V1 value converted by `SafeFloat::from(U64F64)`. Spec 473
 * removed the V1 maps from the metadata (`migrate_alpha_v2.rs` moved every row to V2): its pools come from
 * `TotalHotkeySharesV2` alone. A runtime with neither map cannot be read, and says so, rather than answer an
 * empty list that would later read as "no yield computed yet".
 *
 * Keys come from `state_getKeysPaged` on every map the runtime has (an entry may exist in one only: all are
 * ValueQuery, absent means 0), values from `state_queryStorageAt` in batches. Everything is decoded through
 * the codec of the block's runtime; each map must be keyed `(Blake2_128Concat AccountId32, Identity u16)`,
 * which the reader checks in the metadata rather than assumes.
 */
import type { Codec } from '@polkadot/types/types';
import { hexToU8a } from '@polkadot/util';
import { type SafeFloat, safeFloatFromU64F64, safeFloatOf, ZERO_SHARES } from '../amounts/safe-float.js';
import { ChainDataError } from './chain-errors.js';
import type { ChainReader } from './chain-reader.js';
import { mapConcurrent } from './limiter.js';
import type { RuntimeCodec } from './runtime-codec.js';
import { readRegisteredAtMany } from './subnet-panel.js';

const PALLET = 'SubtensorModule';
const ALPHA = 'TotalHotkeyAlpha';
const SHARES_V1 = 'TotalHotkeyShares';
const SHARES_V2 = 'TotalHotkeySharesV2';
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
  /** The denominator as the chain reads it (`get_denominator`): V1 converted to SafeFloat, else V2. */
  totalShares: SafeFloat;
  /** The raw bits of the V1 `TotalHotkeyShares` U64F64 where the chain still held it; null where V2 holds it. */
  totalSharesBits: bigint | null;
}

/**
 * The pools at `hash`, sorted by (netuid, hotkey). Pools with neither alpha nor shares, and pools of a
 * netuid that is not registered at the block (leftovers with no subnet), are left out.
 */
export async function readSharePools(
  reader: ChainReader,
  codec: RuntimeCodec,
  hash: string,
  concurrency: number,
): Promise<SharePool[]> {
  const hasV1 = codec.hasStorage(PALLET, SHARES_V1);
  const hasV2 = codec.hasStorage(PALLET, SHARES_V2);
  if (!codec.hasStorage(PALLET, ALPHA) || (!hasV1 && !hasV2)) {
    throw new ChainDataError(
      `runtime ${codec.specVersion} has neither ${PALLET}.${SHARES_V1} nor ${SHARES_V2} beside ${ALPHA}: its share pools cannot be read`,
    );
  }
  const items = [ALPHA, ...(hasV1 ? [SHARES_V1] : []), ...(hasV2 ? [SHARES_V2] : [])];
  for (const item of items) assertPoolKeyShape(codec, item);
  const prefixes = items.map((item) => codec.storagePrefix(PALLET, item));
  // Every map hashes its keys the same way, so an entry's key after the prefix names the same pool in each.
  const suffixes = new Set<string>();
  const keysOfEach = await Promise.all(prefixes.map((prefix) => reader.keys(prefix, hash)));
  prefixes.forEach((prefix, i) => {
    for (const key of keysOfEach[i]!) suffixes.add(key.toLowerCase().slice(prefix.length));
  });
  const ordered = [...suffixes].sort();
  const batches: string[][] = [];
  for (let i = 0; i < ordered.length; i += BATCH) batches.push(ordered.slice(i, i + BATCH));
  const values = await mapConcurrent(batches, concurrency, async (batch) =>
    valuesAt(
      reader,
      batch.flatMap((suffix) => prefixes.map((prefix) => prefix + suffix)),
      hash,
    ),
  );

  const [alphaPrefix] = prefixes as [string];
  const v1Prefix = hasV1 ? codec.storagePrefix(PALLET, SHARES_V1) : null;
  const v2Prefix = hasV2 ? codec.storagePrefix(PALLET, SHARES_V2) : null;
  const pools: Omit<SharePool, 'registeredAt'>[] = [];
  batches.forEach((batch, b) => {
    const found = values[b]!;
    for (const suffix of batch) {
      const pool = decodeSharePool(codec, alphaPrefix + suffix, {
        alpha: found.get(alphaPrefix + suffix) ?? null,
        sharesV1: v1Prefix === null ? null : (found.get(v1Prefix + suffix) ?? null),
        sharesV2: v2Prefix === null ? null : (found.get(v2Prefix + suffix) ?? null),
      });
      if (pool) pools.push(pool);
    }
  });

  const netuids = [...new Set(pools.map((p) => p.netuid))].sort((a, b) => a - b);
  // Every pool's subnet registration in a few batched reads, not one request per netuid.
  const registeredAt = await readRegisteredAtMany(reader, codec, hash, netuids);
  return pools
    .flatMap((pool) => {
      const at = registeredAt.get(pool.netuid) ?? null;
      return at === null ? [] : [{ ...pool, registeredAt: at }];
    })
    .sort((a, b) => a.netuid - b.netuid || (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0));
}

/** The raw storage values of one pool (SCALE hex; null where the entry is absent). */
export interface RawSharePool {
  alpha: string | null;
  sharesV1: string | null;
  sharesV2: string | null;
}

/**
 * One pool from its `TotalHotkeyAlpha` key and raw values, the denominator chosen as `get_denominator` does
 * (V1 where present, else V2); null when it holds neither alpha nor shares.
 */
export function decodeSharePool(
  codec: RuntimeCodec,
  alphaKey: string,
  raw: RawSharePool,
): Omit<SharePool, 'registeredAt'> | null {
  const totalAlphaRao = raw.alpha === null ? 0n : u64Value(codec.decodeStorage(PALLET, ALPHA, raw.alpha));
  const totalSharesBits =
    raw.sharesV1 === null
      ? null
      : fixedBits(codec.decodeStorage(PALLET, SHARES_V1, raw.sharesV1), raw.sharesV1);
  const totalShares =
    totalSharesBits !== null
      ? safeFloatFromU64F64(totalSharesBits)
      : raw.sharesV2 === null
        ? ZERO_SHARES
        : safeFloatValue(codec.decodeStorage(PALLET, SHARES_V2, raw.sharesV2), raw.sharesV2);
  if (totalAlphaRao === 0n && totalShares.mantissa === 0n) return null;
  return { ...decodePoolKey(codec, alphaKey), totalAlphaRao, totalShares, totalSharesBits };
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

/** A stored `SafeFloat { mantissa: u128, exponent: i64 }`, never through a float. */
function safeFloatValue(value: Codec | null, raw: string): SafeFloat {
  if (value === null) return ZERO_SHARES;
  const field = (name: string) =>
    (value as Codec & { get?: (name: string) => Codec | undefined }).get?.(name);
  const mantissa = field('mantissa');
  const exponent = field('exponent');
  if (mantissa === undefined || exponent === undefined) {
    throw new ChainDataError(`cannot read a SafeFloat (mantissa, exponent) from ${raw}`);
  }
  return safeFloatOf(BigInt(mantissa.toString()), BigInt(exponent.toString()));
}
