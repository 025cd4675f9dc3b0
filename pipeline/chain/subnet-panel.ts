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
  const netuids = keys
    .map((key) => Number(codec.decodeIdentityKey(PALLET, 'NetworksAdded', 'u16', key).toString()))
    .sort((a, b) => a - b);
  // Every value in a few batched reads (ChainReader.storageMany), not one request per subnet and item.
  const added = await reader.storageMany(
    netuids.map((netuid) => codec.storageKey(PALLET, 'NetworksAdded', netuid)),
    hash,
  );
  const live = netuids.filter(
    (_, i) => codec.decodeStorage(PALLET, 'NetworksAdded', added[i]!)?.toJSON() === true,
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
    const [registeredAt, tao, alphaIn, identity, symbol] = items.map((item, i) =>
      codec.decodeStorage(PALLET, item, raw[n * items.length + i]!),
    ) as [Codec | null, Codec | null, Codec | null, Codec | null, Codec | null];
    const reserve = (value: Codec | null) => (value === null ? null : BigInt(value.toString()));
    let subnetTaoRao = reserve(tao);
    let subnetAlphaInRao = reserve(alphaIn);
    if (netuid === 0) {
      // Root's alpha is TAO 1:1: store equal reserves so that every reader derives a price of exactly 1.
      const root = subnetTaoRao ?? 1n;
      subnetTaoRao = root;
      subnetAlphaInRao = root;
    }
    return {
      netuid,
      registeredAt: registeredAt === null ? 0 : Number(registeredAt.toString()),
      name: identityName(identity) ?? (netuid === 0 ? 'root' : `Subnet ${netuid}`),
      symbol: symbol === null ? '' : bytesText(symbol),
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
    const value = codec.decodeStorage(PALLET, 'NetworkRegisteredAt', raw[i]!);
    found.set(netuid, value === null ? null : Number(value.toString()));
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

function identityName(identity: Codec | null): string | null {
  if (identity === null) return null;
  const name = (identity as unknown as { subnetName?: Codec }).subnetName;
  const text = name ? bytesText(name) : '';
  return text === '' ? null : text;
}

function bytesText(value: Codec): string {
  return u8aToString((value as unknown as { toU8a(bare: boolean): Uint8Array }).toU8a(true)).trim();
}
