/**
 * The registered subnets and their pools at one block: names, symbols, registration blocks and the two
 * reserves that make the pool price (`SubnetTAO / SubnetAlphaIn`). Reserves are read raw: an absent entry
 * means the subnet has no pool yet (null), which is not the same as an empty pool.
 */
import type { Codec } from '@polkadot/types/types';
import { u8aToString } from '@polkadot/util';
import type { ChainReader } from './chain-reader.js';
import type { RuntimeCodec } from './runtime-codec.js';

const PALLET = 'SubtensorModule';

export interface SubnetAtBlock {
  netuid: number;
  registeredAt: number;
  name: string;
  symbol: string;
  subnetTaoRao: bigint | null;
  subnetAlphaInRao: bigint | null;
}

/** `_concurrency` is no longer used (the reads are batched); callers that pass it need no change. */
export async function readSubnetPanel(
  reader: ChainReader,
  codec: RuntimeCodec,
  hash: string,
  _concurrency?: number,
): Promise<SubnetAtBlock[]> {
  const keys = await reader.keys(codec.storagePrefix(PALLET, 'NetworksAdded'), hash);
  const netuids = keys.map((key) => netuidOfKey(codec, key)).sort((a, b) => a - b);
  // Every value in a few batched reads (ChainReader.storageMany), not one request per subnet and item.
  const added = await reader.storageMany(
    netuids.map((netuid) => codec.storageKey(PALLET, 'NetworksAdded', netuid)),
    hash,
  );
  const live = netuids.filter(
    (_, i) => steadyValue(codec, 'NetworksAdded', added[i]!, (value) => value?.toJSON() === true) === true,
  );
  // Subnet names: `SubnetIdentitiesV3` from spec 283 on, `SubnetIdentitiesV2` before it (from dTAO's launch).
  const identityItem =
    codec.hasStorage(PALLET, 'SubnetIdentitiesV3') || !codec.hasStorage(PALLET, 'SubnetIdentitiesV2')
      ? 'SubnetIdentitiesV3'
      : 'SubnetIdentitiesV2';
  const items = ['NetworkRegisteredAt', 'SubnetTAO', 'SubnetAlphaIn', identityItem, 'TokenSymbol'];
  const raw = await reader.storageMany(
    live.flatMap((netuid) => items.map((item) => codec.storageKey(PALLET, item, netuid))),
    hash,
  );
  return live.map((netuid, n) => {
    const value = (i: number) => raw[n * items.length + i]!;
    const reserve = (i: number) => {
      const decoded = codec.decodeStorage(PALLET, items[i]!, value(i));
      return decoded === null ? null : BigInt(decoded.toString());
    };
    const registeredAt = steadyValue(codec, 'NetworkRegisteredAt', value(0), numberOrNull);
    let subnetTaoRao = reserve(1);
    let subnetAlphaInRao = reserve(2);
    const name = steadyValue(codec, identityItem, value(3), identityName);
    const symbol = steadyValue(codec, 'TokenSymbol', value(4), (decoded) =>
      decoded === null ? '' : bytesText(decoded),
    );
    if (netuid === 0) {
      // Root's alpha is TAO 1:1: store equal reserves so that every reader derives a price of exactly 1.
      const root = subnetTaoRao ?? 1n;
      subnetTaoRao = root;
      subnetAlphaInRao = root;
    }
    return {
      netuid,
      registeredAt: registeredAt ?? 0,
      name: name ?? (netuid === 0 ? 'root' : `Subnet ${netuid}`),
      symbol,
      subnetTaoRao,
      subnetAlphaInRao,
    };
  });
}

/**
 * The registration block of each of `netuids` at a block (null where the netuid is not registered there), in
 * batched reads.
 */
export async function readRegisteredAtMany(
  reader: ChainReader,
  codec: RuntimeCodec,
  hash: string,
  netuids: readonly number[],
): Promise<Map<number, number | null>> {
  const raw = await reader.storageMany(
    netuids.map((netuid) => codec.storageKey(PALLET, 'NetworkRegisteredAt', netuid)),
    hash,
  );
  const found = new Map<number, number | null>();
  netuids.forEach((netuid, i) => {
    found.set(netuid, steadyValue(codec, 'NetworkRegisteredAt', raw[i]!, numberOrNull));
  });
  return found;
}

/** The subnet's registration block at a block, or null when the netuid is not registered there. */
export async function readRegisteredAt(
  reader: ChainReader,
  codec: RuntimeCodec,
  hash: string,
  netuid: number,
): Promise<number | null> {
  const key = codec.storageKey(PALLET, 'NetworkRegisteredAt', netuid);
  const value = codec.decodeStorage(PALLET, 'NetworkRegisteredAt', await reader.storage(key, hash));
  return value === null ? null : Number(value.toString());
}

/** Decoded values of one runtime's items that seldom change, by item and raw value. */
const steadyValues = new WeakMap<RuntimeCodec, Map<string, unknown>>();
/** Values kept per runtime before the memo starts over: far more than a day's panel holds. */
const STEADY_VALUES = 50_000;

/**
 * A panel value that is the same day after day (a subnet being added, its registration block, name and
 * symbol), decoded once per runtime and raw value: the collection reads every subnet's at every day's ends,
 * and decoding them anew was a good part of a day's fixed cost. Reserves change every day and are decoded.
 */
function steadyValue<T>(
  codec: RuntimeCodec,
  item: string,
  raw: string | null,
  plain: (value: Codec | null) => T,
): T {
  return remembered(codec, `${item}:${raw}`, () => plain(codec.decodeStorage(PALLET, item, raw)));
}

function remembered<T>(codec: RuntimeCodec, key: string, decode: () => T): T {
  let memo = steadyValues.get(codec);
  if (memo === undefined) {
    memo = new Map();
    steadyValues.set(codec, memo);
  }
  if (memo.has(key)) return memo.get(key) as T;
  const value = decode();
  if (memo.size >= STEADY_VALUES) memo.clear();
  memo.set(key, value);
  return value;
}

/** The netuid of a `NetworksAdded` key, decoded once per runtime and key. */
function netuidOfKey(codec: RuntimeCodec, key: string): number {
  return remembered(codec, `key:${key}`, () =>
    Number(codec.decodeIdentityKey(PALLET, 'NetworksAdded', 'u16', key).toString()),
  );
}

function numberOrNull(value: Codec | null): number | null {
  return value === null ? null : Number(value.toString());
}

function identityName(identity: Codec | null): string | null {
  if (identity === null) return null;
  const name = (identity as unknown as { subnetName?: Codec }).subnetName;
  const text = name ? bytesText(name) : '';
  return text === '' ? null : text;
}

function bytesText(value: Codec): string {
  return u8aToString((value as unknown as { toU8a(bare: boolean): Uint8Array }).toU8a(true)).trim();
}
