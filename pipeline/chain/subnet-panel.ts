/**
 * The registered subnets and their pools at one block: names, symbols, registration blocks and the two
 * reserves that make the pool price (`SubnetTAO / SubnetAlphaIn`). Reserves are read raw: an absent entry
 * means the subnet has no pool yet (null), which is not the same as an empty pool.
 */
import type { Codec } from '@polkadot/types/types';
import { u8aToString } from '@polkadot/util';
import type { ChainReader } from './chain-reader.js';
import { mapConcurrent } from './limiter.js';
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

export async function readSubnetPanel(
  reader: ChainReader,
  codec: RuntimeCodec,
  hash: string,
  concurrency: number,
): Promise<SubnetAtBlock[]> {
  const keys = await reader.keys(codec.storagePrefix(PALLET, 'NetworksAdded'), hash);
  const netuids = keys
    .map((key) => Number(codec.decodeIdentityKey(PALLET, 'NetworksAdded', 'u16', key).toString()))
    .sort((a, b) => a - b);
  const added = await mapConcurrent(netuids, concurrency, async (netuid) => {
    const raw = await reader.storage(codec.storageKey(PALLET, 'NetworksAdded', netuid), hash);
    return codec.decodeStorage(PALLET, 'NetworksAdded', raw)?.toJSON() === true;
  });
  const live = netuids.filter((_, i) => added[i]);
  return mapConcurrent(live, concurrency, async (netuid) => {
    const read = async (item: string) =>
      codec.decodeStorage(PALLET, item, await reader.storage(codec.storageKey(PALLET, item, netuid), hash));
    const [registeredAt, tao, alphaIn, identity, symbol] = await Promise.all([
      read('NetworkRegisteredAt'),
      read('SubnetTAO'),
      read('SubnetAlphaIn'),
      // Subnet names: `SubnetIdentitiesV3` from spec 283 on, `SubnetIdentitiesV2` before it (from dTAO's launch).
      read(
        codec.hasStorage(PALLET, 'SubnetIdentitiesV3') || !codec.hasStorage(PALLET, 'SubnetIdentitiesV2')
          ? 'SubnetIdentitiesV3'
          : 'SubnetIdentitiesV2',
      ),
      read('TokenSymbol'),
    ]);
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
