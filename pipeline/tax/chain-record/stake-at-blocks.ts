/**
 * Stake of a set of coldkeys' positions, and the pools and free balances the pack values them with, at many
 * past blocks (an archive node answers for any block).
 *
 * Stake is what the chain itself reports: one runtime call `StakeInfoRuntimeApi_get_stake_info_for_coldkey`
 * per coldkey per block. The runtime answers with its own share arithmetic whatever the storage layout
 * (`Alpha`/`TotalHotkeyShares` as U64F64 until about spec 397; since then `AlphaV2`/`TotalHotkeySharesV2` as
 * `SafeFloat`, an entry moving to V2 the first time it is written: opentensor/subtensor
 * `pallets/subtensor/src/staking/stake_utils.rs`, `get_share`, `get_denominator`), so a position written
 * after that upgrade is read right, and every position the coldkey holds is seen, also one that appeared
 * without an event (a hotkey swap, an auto-stake, a root claim). A runtime without that call (before it
 * existed) is read as before: `shares × TotalHotkeyAlpha ÷ TotalHotkeyShares` from the V1 storage, floored.
 *
 * One `state_queryStorageAt` per block carries the rest: each subnet's reserves (`SubnetTAO`,
 * `SubnetAlphaIn`) and registration (`NetworkRegisteredAt`), each coldkey's `System.Account` (free and
 * reserved, decoded by name through the block's own metadata). Blocks are read
 * concurrently (bounded). Amounts stay bigint. The call's answer and the subnets' integers are read straight
 * from their bytes, laid out by the same metadata (`stake-info-bytes.ts`, `scale-bytes.ts`): a codec object per
 * field was most of the reads' CPU for a coldkey of hundreds of positions.
 */
import type { Codec } from '@polkadot/types/types';
import { ChainDataError } from '../../chain/chain-errors.js';
import type { ChainReader } from '../../chain/chain-reader.js';
import { account, rao, smallInt } from '../../chain/codec-values.js';
import { Limiter, mapConcurrent } from '../../chain/limiter.js';
import { type RuntimeApis, runtimeApisOf } from '../../chain/runtime-call.js';
import type { RuntimeCodec } from '../../chain/runtime-codec.js';
import { ScaleLayouts, type UintRead } from './scale-bytes.js';
import { type StakeInfoEntry, stakeInfoReader } from './stake-info-bytes.js';

const PALLET = 'SubtensorModule';
const STAKE_INFO = 'StakeInfoRuntimeApi_get_stake_info_for_coldkey';

export interface PositionRef {
  coldkey: string;
  hotkey: string;
  netuid: number;
}

/** `coldkey/hotkey/netuid`: one position's key in maps. */
export function positionId(position: PositionRef): string {
  return `${position.coldkey}/${position.hotkey}/${position.netuid}`;
}

/** The record's order of positions: by coldkey, then netuid, then hotkey. */
export function comparePositions(a: PositionRef, b: PositionRef): number {
  return (
    (a.coldkey < b.coldkey ? -1 : a.coldkey > b.coldkey ? 1 : 0) ||
    a.netuid - b.netuid ||
    (a.hotkey < b.hotkey ? -1 : a.hotkey > b.hotkey ? 1 : 0)
  );
}

export interface SubnetAtBlock {
  /** `NetworkRegisteredAt`; 0 when absent (as the collected panel records it). */
  registeredAt: number;
  taoRao: bigint | null;
  alphaInRao: bigint | null;
}

export interface StakesAtBlock {
  block: number;
  /**
   * Alpha RAO per position id (TAO RAO on root): every position the chain reports for the coldkeys (stake
   * above 0), and 0 for each asked-for position it does not.
   */
  stake: Map<string, bigint>;
  /** Every position of the coldkeys with stake at this block, as the chain reports it. */
  held: PositionRef[];
  /** Per netuid of the positions (root included, whose price is 1). */
  subnets: Map<number, SubnetAtBlock>;
  /** Free TAO RAO per coldkey. */
  free: Map<string, bigint>;
  /** Reserved TAO RAO per coldkey (a deposit: still the coldkey's, in its TAO pool); absent: none. */
  reserved?: Map<string, bigint>;
}

interface BlockKeys {
  positions: Array<{
    id: string;
    position: PositionRef;
    alpha: string;
    poolAlpha: string;
    poolShares: string;
  }>;
  subnets: Array<{ netuid: number; tao: string; alphaIn: string; registeredAt: string }>;
  accounts: Array<{ coldkey: string; key: string }>;
  all: string[];
}

/**
 * Reads every block in `blocks` (deduplicated) with at most `concurrency` blocks in flight. `positions` are
 * the positions to report even when they hold nothing (0); the chain's own list adds any other the coldkeys
 * hold. The subnets read are those of `positions` and of every position found.
 */
export function readStakesAtBlocks(
  reader: ChainReader,
  positions: readonly PositionRef[],
  coldkeys: readonly string[],
  blocks: readonly number[],
  concurrency: number,
  /** Called after each block is read, with the blocks read so far and their total (a long build's progress). */
  onRead?: (read: number, total: number) => void,
  /** Called with each block's read as it arrives (in any order). */
  onBlock?: (read: StakesAtBlock) => void,
): Promise<Map<number, StakesAtBlock>> {
  return stakeReadsAhead(reader, coldkeys, blocks, concurrency).ask(positions, onRead, onBlock);
}

/** Stake reads begun before the positions to ask for are known (`stakeReadsAhead`). */
export interface StakeReadsAhead {
  /** The reads of `readStakesAtBlocks`, finished for these positions; asked once. */
  ask(
    positions: readonly PositionRef[],
    onRead?: (read: number, total: number) => void,
    onBlock?: (read: StakesAtBlock) => void,
  ): Promise<Map<number, StakesAtBlock>>;
  /** Sends no more of the heads (the build failed before asking); nothing once the reads are asked for. */
  cancel(): void;
}

/**
 * Starts reading `blocks` before the positions are known: a big record's events take seconds to group into
 * the actions that name them, and each block's head (its hash, its runtime and the chain's report of the
 * coldkeys' stake) needs none of it. The heads are read from now on, in block order, at most `concurrency`
 * at once; each block's subnets once `ask` gives the positions.
 */
export function stakeReadsAhead(
  reader: ChainReader,
  coldkeys: readonly string[],
  blocks: readonly number[],
  concurrency: number,
): StakeReadsAhead {
  const unique = [...new Set(blocks)].sort((a, b) => a - b);
  const heads = new Limiter(concurrency);
  const known = new KnownPositions();
  let stopped = false;
  const headOf = new Map(
    unique.map((block) => {
      const head = heads.run(() =>
        stopped ? Promise.reject(new Error('stake reads stopped')) : readHead(reader, coldkeys, block, known),
      );
      // Awaited by `ask`; one never asked for (the build failed first) must not be an unhandled rejection.
      head.catch(() => undefined);
      return [block, head] as const;
    }),
  );
  return {
    async ask(positions, onRead, onBlock) {
      const keysBySpec = new Map<string, BlockKeys>();
      const askedIds = positions.map((p) => known.idOf(p));
      let done = 0;
      onRead?.(0, unique.length);
      try {
        const read = await mapConcurrent(unique, concurrency, async (block) => {
          const { hash, codec, reported } = await headOf.get(block)!;
          const netuids = new Set(positions.map((p) => p.netuid));
          for (const found of reported ?? []) netuids.add(found.position.netuid);
          const specKey = `${codec.specVersion}|${[...netuids].sort((a, b) => a - b).join(',')}|${reported ? 'api' : 'v1'}`;
          let keys = keysBySpec.get(specKey);
          if (!keys) {
            keys = blockKeys(codec, reported ? [] : positions, [...netuids], coldkeys);
            keysBySpec.set(specKey, keys);
          }
          const sets = await reader.rpc.send<Array<{ changes: Array<[string, string | null]> }>>(
            'state_queryStorageAt',
            [keys.all, hash],
          );
          const values = new Map<string, string | null>();
          for (const set of sets)
            for (const [key, value] of set.changes) values.set(key.toLowerCase(), value);
          const stakes = decodeBlock(codec, keys, values, block);
          if (reported) {
            for (const id of askedIds) stakes.stake.set(id, 0n);
            for (const { position, rao: amount } of reported) {
              const id = known.idOf(position);
              stakes.stake.set(id, (stakes.stake.get(id) ?? 0n) + amount);
            }
            stakes.held = reported.map((r) => r.position);
          }
          onBlock?.(stakes);
          onRead?.(++done, unique.length);
          return stakes;
        });
        return new Map(read.map((stakes) => [stakes.block, stakes]));
      } finally {
        // A failed read stops the heads not yet sent.
        stopped = true;
      }
    },
    cancel() {
      stopped = true;
    },
  };
}

/**
 * The positions and ids met by one set of reads, each kept once: a staker in 100 subnets has the same 200
 * positions at each of a thousand blocks, and a reference and an id made afresh at every block kept 36 MiB
 * more on the heap for the collector to trace through the rest of the build. The references are shared by
 * every block's `held`: nothing changes a position once made.
 */
class KnownPositions {
  readonly #refs = new Map<string, Map<string, Map<number, PositionRef>>>();
  readonly #ids = new WeakMap<PositionRef, string>();

  /** The one reference of this position (a new one the first time it is met). */
  ref(coldkey: string, hotkey: string, netuid: number): PositionRef {
    let byHotkey = this.#refs.get(coldkey);
    if (!byHotkey) {
      byHotkey = new Map();
      this.#refs.set(coldkey, byHotkey);
    }
    let byNetuid = byHotkey.get(hotkey);
    if (!byNetuid) {
      byNetuid = new Map();
      byHotkey.set(hotkey, byNetuid);
    }
    let position = byNetuid.get(netuid);
    if (!position) {
      position = { coldkey, hotkey, netuid };
      byNetuid.set(netuid, position);
    }
    return position;
  }

  /** `positionId` of a position, the same string each time for the same position. */
  idOf(position: PositionRef): string {
    const own = this.ref(position.coldkey, position.hotkey, position.netuid);
    let id = this.#ids.get(own);
    if (id === undefined) {
      id = positionId(own);
      this.#ids.set(own, id);
    }
    return id;
  }
}

interface BlockHead {
  hash: string;
  codec: RuntimeCodec;
  /** The chain's own report of every position; null where the runtime has no such call (V1 storage). */
  reported: Array<{ position: PositionRef; rao: bigint }> | null;
}

/**
 * Asks the reader for the hash, runtime version and codec of each of `blocks` (the first steps of a block's
 * head, which it remembers): a pack starts them from its calendar while it reads and checks its coldkeys'
 * events, when the node would otherwise wait. Settles when every block is warmed or failed: a failure is left
 * to the head that asks again.
 *
 * Every `WARM_STRIDE`th block goes first, and the others only once its runtimes are known: a runtime's
 * metadata is the node's longest read (some 0.4 s on the sandbox), one per runtime, and asked for behind
 * hundreds of cheap hash and version reads it would wait the better part of a second. The others then go
 * `WARM_IN_FLIGHT` at a time, so that the build's own reads (a search step by step, the heads) never queue
 * behind hundreds of them.
 */
export async function warmBlockHeads(reader: ChainReader, blocks: readonly number[]): Promise<void> {
  const sorted = [...blocks].sort((a, b) => a - b);
  const versionOf = async (block: number) => {
    const hash = await reader.blockHash(block);
    return { hash, specVersion: await reader.specVersionAt(hash) };
  };
  const codecs: Array<Promise<unknown>> = [];
  await Promise.allSettled(
    sorted
      .filter((_, i) => i % WARM_STRIDE === 0)
      .map(async (block) => {
        const { hash, specVersion } = await versionOf(block);
        codecs.push(reader.codec(specVersion, hash));
      }),
  );
  const limiter = new Limiter(WARM_IN_FLIGHT);
  await Promise.allSettled([
    ...codecs,
    ...sorted.map((block) =>
      limiter.run(async () => {
        const { hash, specVersion } = await versionOf(block);
        await reader.codec(specVersion, hash);
      }),
    ),
  ]);
}

/** One block in this many is warmed first (`warmBlockHeads`): a runtime lasts weeks, a block is a day. */
const WARM_STRIDE = 16;
/** Blocks warmed at once after the first ones (`warmBlockHeads`). */
const WARM_IN_FLIGHT = 8;

async function readHead(
  reader: ChainReader,
  coldkeys: readonly string[],
  block: number,
  known: KnownPositions,
): Promise<BlockHead> {
  // Both remembered by the reader: a pack asks for its days' ones while it reads its inputs (`warmBlockHeads`).
  const hash = await reader.blockHash(block);
  const specVersion = await reader.specVersionAt(hash);
  const codec = await reader.codec(specVersion, hash);
  const apis = await runtimeApisOf(reader.rpc, codec, hash);
  const reported = apis.has(STAKE_INFO) ? await stakeInfos(reader, apis, coldkeys, hash, known) : null;
  return { hash, codec, reported };
}

/**
 * A hotkey's SS58 text, by its public key. Encoding one (a blake2 checksum, some 40 µs) for every position
 * of every block read cost a coldkey of 200 positions seconds a year; the same few hotkeys recur in every
 * block, so each is encoded once.
 */
const hotkeyAddresses = new Map<string, string>();
function hotkeyAddress(field: Codec): string {
  const key = field.toHex();
  let address = hotkeyAddresses.get(key);
  if (address === undefined) {
    address = account(field);
    if (hotkeyAddresses.size >= 100_000) hotkeyAddresses.clear();
    hotkeyAddresses.set(key, address);
  }
  return address;
}

/** The call's argument (the coldkey, SCALE-encoded) per runtime: the same few coldkeys at every block. */
const encodedColdkeys = new WeakMap<RuntimeApis, Map<string, string>>();
function coldkeyArgument(apis: RuntimeApis, coldkey: string): string {
  let known = encodedColdkeys.get(apis);
  if (!known) {
    known = new Map();
    encodedColdkeys.set(apis, known);
  }
  let hex = known.get(coldkey);
  if (hex === undefined) {
    hex = apis.encodeArgs(STAKE_INFO, [coldkey]);
    if (known.size >= 10_000) known.clear();
    known.set(coldkey, hex);
  }
  return hex;
}

/**
 * `get_stake_info_for_coldkey` of one coldkey at `hash`: every entry the runtime answers (stake 0 too), read
 * from the answer's bytes (`stake-info-bytes.ts`), or decoded by the codecs where that reader cannot.
 */
async function stakeInfoOf(
  reader: ChainReader,
  apis: RuntimeApis,
  coldkey: string,
  hash: string,
): Promise<StakeInfoEntry[]> {
  const hex = await reader.rpc.send<string>('state_call', [STAKE_INFO, coldkeyArgument(apis, coldkey), hash]);
  const read = stakeInfoReader(apis, STAKE_INFO)?.(hex);
  if (read) return read;
  const list = apis.decodeResult(STAKE_INFO, hex) as unknown as Array<{
    hotkey: Codec;
    netuid: Codec;
    stake: Codec;
  }>;
  return list.map((info) => ({
    hotkey: hotkeyAddress(info.hotkey),
    netuid: smallInt(info.netuid),
    stake: rao(info.stake),
  }));
}

/** `get_stake_info_for_coldkey` of each coldkey at `hash`: its positions with stake above 0. */
async function stakeInfos(
  reader: ChainReader,
  apis: RuntimeApis,
  coldkeys: readonly string[],
  hash: string,
  known: KnownPositions,
): Promise<Array<{ position: PositionRef; rao: bigint }>> {
  const found: Array<{ position: PositionRef; rao: bigint }> = [];
  for (const coldkey of coldkeys) {
    for (const info of await stakeInfoOf(reader, apis, coldkey, hash)) {
      if (info.stake <= 0n) continue;
      found.push({ position: known.ref(coldkey, info.hotkey, info.netuid), rao: info.stake });
    }
  }
  return found;
}

function blockKeys(
  codec: RuntimeCodec,
  positions: readonly PositionRef[],
  netuids: readonly number[],
  coldkeys: readonly string[],
): BlockKeys {
  // Only a runtime without the stake-info call reads positions from the V1 storage; spec 473 has no V1 maps
  // at all, and its positions come from the call.
  if (positions.length > 0 && !codec.hasStorage(PALLET, 'Alpha')) {
    throw new ChainDataError(
      `runtime ${codec.specVersion} has neither ${STAKE_INFO} nor ${PALLET}.Alpha: its stake cannot be read`,
    );
  }
  const key = (item: string, ...args: unknown[]) => codec.storageKey(PALLET, item, ...args).toLowerCase();
  const keys: BlockKeys = {
    positions: positions.map((p) => ({
      id: positionId(p),
      position: p,
      alpha: key('Alpha', p.hotkey, p.coldkey, p.netuid),
      poolAlpha: key('TotalHotkeyAlpha', p.hotkey, p.netuid),
      poolShares: key('TotalHotkeyShares', p.hotkey, p.netuid),
    })),
    subnets: netuids.map((netuid) => ({
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
    const raw = values.get(key) ?? null;
    if (raw === null) return null;
    const read = storageUintRead(codec, item);
    if (read) {
      const bytes = Buffer.from(raw.startsWith('0x') ? raw.slice(2) : raw, 'hex');
      const [amount, next] = read(bytes, 0);
      if (next === bytes.length) return amount;
    }
    const decoded = value(item, key);
    return decoded === null ? null : BigInt(decoded.toString());
  };
  const stake = new Map<string, bigint>();
  const held: PositionRef[] = [];
  for (const p of keys.positions) {
    const shares = fixedBits(value('Alpha', p.alpha));
    const poolShares = fixedBits(value('TotalHotkeyShares', p.poolShares));
    const poolAlpha = integer('TotalHotkeyAlpha', p.poolAlpha) ?? 0n;
    const amount = poolShares === 0n ? 0n : (shares * poolAlpha) / poolShares;
    stake.set(p.id, amount);
    if (amount > 0n) held.push(p.position);
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
  const reserved = new Map<string, bigint>();
  for (const a of keys.accounts) {
    const info = value('Account', a.key, 'System') as unknown as {
      data: { free: Codec; reserved: Codec };
    } | null;
    free.set(a.coldkey, info === null ? 0n : rao(info.data.free));
    reserved.set(a.coldkey, info === null ? 0n : rao(info.data.reserved));
  }
  return { block, stake, held, subnets, free, reserved };
}

/**
 * How a `SubtensorModule` storage value that is an unsigned integer (`SubnetTAO`, `NetworkRegisteredAt`)
 * is read from its bytes, per runtime; null for a value of another type (the codec decodes it). Read for
 * a hundred subnets at every block a staker in 100 subnets reads.
 */
const uintStorageReads = new WeakMap<RuntimeCodec, Map<string, UintRead | null>>();
function storageUintRead(codec: RuntimeCodec, item: string): UintRead | null {
  let known = uintStorageReads.get(codec);
  if (!known) {
    known = new Map();
    uintStorageReads.set(codec, known);
  }
  if (known.has(item)) return known.get(item)!;
  const pallet = codec.registry.metadata.pallets.find((p) => p.name.toString() === PALLET);
  const entry = pallet?.storage.isSome
    ? pallet.storage.unwrap().items.find((i) => i.name.toString() === item)
    : undefined;
  let read: UintRead | null = null;
  if (entry) {
    const type = entry.type.isMap ? entry.type.asMap.value : entry.type.isPlain ? entry.type.asPlain : null;
    const guarded = type === null ? null : new ScaleLayouts(codec.registry).uint(type.toNumber());
    // A value shorter than its type reads past its end: then the codec decides, as before.
    read = guarded
      ? (bytes, offset) => {
          try {
            return guarded(bytes, offset);
          } catch {
            return [0n, -1];
          }
        }
      : null;
  }
  known.set(item, read);
  return read;
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
  // Both remembered by the reader: a pack asks for its days' ones while it reads its inputs (`warmBlockHeads`).
  const hash = await reader.blockHash(block);
  const specVersion = await reader.specVersionAt(hash);
  const codec = await reader.codec(specVersion, hash);
  const apis = await runtimeApisOf(reader.rpc, codec, hash);
  return (await stakeInfoOf(reader, apis, coldkey, hash))
    .filter((info) => info.stake > 0n)
    .map((info) => ({ coldkey, hotkey: info.hotkey, netuid: info.netuid }));
}
