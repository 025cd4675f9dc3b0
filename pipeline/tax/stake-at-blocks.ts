/**
 * Stake of a set of positions, and the pools and free balances the pack values them with, at many past
 * blocks (an archive node answers for any block). One `state_queryStorageAt` per block carries every key:
 * each position's `Alpha` shares and its hotkey pool (`TotalHotkeyAlpha`, `TotalHotkeyShares`), each
 * subnet's reserves (`SubnetTAO`, `SubnetAlphaIn`) and registration (`NetworkRegisteredAt`), each coldkey's
 * `System.Account`. Blocks are read concurrently (bounded), so a tax year of 365 day ends plus the event
 * blocks costs three round trips per block (hash, runtime version, values), overlapped.
 *
 * A position's alpha is `shares × TotalHotkeyAlpha ÷ TotalHotkeyShares`, floored: what the chain's own
 * `get_stake_info_for_coldkey` reports. Amounts stay bigint.
 */
import type { Codec } from '@polkadot/types/types';
import { ChainDataError } from '../chain/chain-errors.js';
import type { ChainReader } from '../chain/chain-reader.js';
import { account, rao, smallInt } from '../chain/codec-values.js';
import { mapConcurrent } from '../chain/limiter.js';
import { callRuntimeApi, runtimeApisOf } from '../chain/runtime-call.js';
import type { RuntimeCodec } from '../chain/runtime-codec.js';

const PALLET = 'SubtensorModule';

export interface PositionRef {
  coldkey: string;
  hotkey: string;
  netuid: number;
}

/** `coldkey/hotkey/netuid`: one position's key in maps. */
export function positionId(position: PositionRef): string {
  return `${position.coldkey}/${position.hotkey}/${position.netuid}`;
}

export interface SubnetAtBlock {
  /** `NetworkRegisteredAt`; 0 when absent (as the collected panel records it). */
  registeredAt: number;
  taoRao: bigint | null;
  alphaInRao: bigint | null;
}

export interface StakesAtBlock {
  block: number;
  /** Alpha RAO per position id (TAO RAO on root); 0 for a position with no shares. */
  stake: Map<string, bigint>;
  /** Per netuid of the positions (root included, whose price is 1). */
  subnets: Map<number, SubnetAtBlock>;
  /** Free TAO RAO per coldkey. */
  free: Map<string, bigint>;
}

interface BlockKeys {
  positions: Array<{ id: string; alpha: string; poolAlpha: string; poolShares: string }>;
  subnets: Array<{ netuid: number; tao: string; alphaIn: string; registeredAt: string }>;
  accounts: Array<{ coldkey: string; key: string }>;
  all: string[];
}

/** Reads every block in `blocks` (deduplicated) with at most `concurrency` blocks in flight. */
export async function readStakesAtBlocks(
  reader: ChainReader,
  positions: readonly PositionRef[],
  coldkeys: readonly string[],
  blocks: readonly number[],
  concurrency: number,
): Promise<Map<number, StakesAtBlock>> {
  const unique = [...new Set(blocks)].sort((a, b) => a - b);
  const keysBySpec = new Map<number, BlockKeys>();
  const read = await mapConcurrent(unique, concurrency, async (block) => {
    const hash = await reader.blockHash(block);
    const version = await reader.rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash]);
    const codec = await reader.codec(version.specVersion, hash);
    let keys = keysBySpec.get(codec.specVersion);
    if (!keys) {
      keys = blockKeys(codec, positions, coldkeys);
      keysBySpec.set(codec.specVersion, keys);
    }
    const sets = await reader.rpc.send<Array<{ changes: Array<[string, string | null]> }>>(
      'state_queryStorageAt',
      [keys.all, hash],
    );
    const values = new Map<string, string | null>();
    for (const set of sets) for (const [key, value] of set.changes) values.set(key.toLowerCase(), value);
    return decodeBlock(codec, keys, values, block);
  });
  return new Map(read.map((stakes) => [stakes.block, stakes]));
}

function blockKeys(
  codec: RuntimeCodec,
  positions: readonly PositionRef[],
  coldkeys: readonly string[],
): BlockKeys {
  if (!codec.hasStorage(PALLET, 'Alpha')) {
    throw new ChainDataError(
      `runtime ${codec.specVersion} has no ${PALLET}.Alpha: stake before dynamic TAO is not read`,
    );
  }
  const key = (item: string, ...args: unknown[]) => codec.storageKey(PALLET, item, ...args).toLowerCase();
  const keys: BlockKeys = {
    positions: positions.map((p) => ({
      id: positionId(p),
      alpha: key('Alpha', p.hotkey, p.coldkey, p.netuid),
      poolAlpha: key('TotalHotkeyAlpha', p.hotkey, p.netuid),
      poolShares: key('TotalHotkeyShares', p.hotkey, p.netuid),
    })),
    subnets: [...new Set(positions.map((p) => p.netuid))].map((netuid) => ({
      netuid,
      tao: key('SubnetTAO', netuid),
      alphaIn: key('SubnetAlphaIn', netuid),
      registeredAt: key('NetworkRegisteredAt', netuid),
    })),
    accounts: coldkeys.map((coldkey) => ({
      coldkey,
      key: codec.storageKey('System', 'Account', coldkey).toLowerCase(),
    })),
    all: [],
  };
  keys.all = [
    ...new Set([
      ...keys.positions.flatMap((p) => [p.alpha, p.poolAlpha, p.poolShares]),
      ...keys.subnets.flatMap((s) => [s.tao, s.alphaIn, s.registeredAt]),
      ...keys.accounts.map((a) => a.key),
    ]),
  ];
  return keys;
}

function decodeBlock(
  codec: RuntimeCodec,
  keys: BlockKeys,
  values: Map<string, string | null>,
  block: number,
): StakesAtBlock {
  const value = (item: string, key: string, pallet = PALLET) =>
    codec.decodeStorage(pallet, item, values.get(key) ?? null);
  const integer = (item: string, key: string) => {
    const decoded = value(item, key);
    return decoded === null ? null : BigInt(decoded.toString());
  };
  const stake = new Map<string, bigint>();
  for (const p of keys.positions) {
    const shares = fixedBits(value('Alpha', p.alpha));
    const poolShares = fixedBits(value('TotalHotkeyShares', p.poolShares));
    const poolAlpha = integer('TotalHotkeyAlpha', p.poolAlpha) ?? 0n;
    stake.set(p.id, poolShares === 0n ? 0n : (shares * poolAlpha) / poolShares);
  }
  const subnets = new Map<number, SubnetAtBlock>();
  for (const s of keys.subnets) {
    const registeredAt = integer('NetworkRegisteredAt', s.registeredAt);
    subnets.set(s.netuid, {
      registeredAt: registeredAt === null ? 0 : Number(registeredAt),
      taoRao: integer('SubnetTAO', s.tao),
      alphaInRao: integer('SubnetAlphaIn', s.alphaIn),
    });
  }
  const free = new Map<string, bigint>();
  for (const a of keys.accounts) {
    const info = value('Account', a.key, 'System') as unknown as { data: { free: Codec } } | null;
    free.set(a.coldkey, info === null ? 0n : rao(info.data.free));
  }
  return { block, stake, subnets, free };
}

/** The bits of a U64F64 (`{ bits: u128 }`); 0 when absent. Only ratios of them matter. */
function fixedBits(value: Codec | null): bigint {
  if (value === null) return 0n;
  const bits = (value as Codec & { get?: (name: string) => Codec | undefined }).get?.('bits');
  if (bits !== undefined) return BigInt(bits.toString());
  const json = value.toJSON();
  if (typeof json === 'number' || typeof json === 'string') return BigInt(json);
  throw new ChainDataError(`cannot read U64F64 bits from ${value.toHex()}`);
}

/**
 * The positions a coldkey holds at a block, from the runtime's `get_stake_info_for_coldkey` (hotkey,
 * netuid, stake > 0): the positions a tax year opens with.
 */
export async function positionsAtBlock(
  reader: ChainReader,
  coldkey: string,
  block: number,
): Promise<PositionRef[]> {
  const hash = await reader.blockHash(block);
  const version = await reader.rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash]);
  const codec = await reader.codec(version.specVersion, hash);
  const apis = await runtimeApisOf(reader.rpc, codec, hash);
  const name = 'StakeInfoRuntimeApi_get_stake_info_for_coldkey';
  const result = await callRuntimeApi(reader.rpc, apis, name, apis.encodeArgs(name, [coldkey]), hash);
  const list = result as unknown as Array<{ hotkey: Codec; netuid: Codec; stake: Codec }>;
  return list
    .filter((info) => rao(info.stake) > 0n)
    .map((info) => ({ coldkey, hotkey: account(info.hotkey), netuid: smallInt(info.netuid) }));
}
