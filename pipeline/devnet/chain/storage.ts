import { compactToU8a, u8aToHex } from '@polkadot/util';
import { RAO_PER_UNIT } from '../../amounts/rao.js';
import type { Runtimes } from '../runtime/runtimes.js';
import { rng } from '../world/random.js';
import type { SafeFloat } from '../world/safe-float.js';
import { evmAccountsAt, reservedOf } from '../world/tao-mechanisms.js';
import type { World } from '../world/world.js';
import type { BlockHashes } from './blocks.js';
import { encodeEvents } from './events-encoding.js';
import { encodeBlockBody } from './extrinsics-encoding.js';
import { boolHex, bytesHex, u16Hex, u32Hex, u64Hex, u128Hex, uintLeHex } from './scale.js';
import { decodeKeyArgs, encodeKey, type KeyArg, type KeyPart, storagePrefix } from './storage-keys.js';

/** One storage item the sandbox serves: how its key is built and what it holds at a block. */
interface StorageItem {
  pallet: string;
  item: string;
  parts: KeyPart[];
  /** SCALE hex of the value, or null when the entry is absent. */
  get(block: number, args: KeyArg[]): string | null;
  /** Every present entry's key arguments at the block (for `state_getKeysPaged`). */
  list(block: number): KeyArg[][];
  /**
   * Held only where the block's runtime declares the item (an item older runtimes lack, or a renamed one);
   * otherwise the world's state decides (spec 473's retired V1 rows stay under their keys until migrated).
   */
  declaredOnly?: boolean;
}

const ACCOUNT_FLAGS = 1n << 127n; // PalletBalances "new logic" flag, as on every live account

/**
 * The storage of the simulated chain: `state_getStorage` and friends resolve a key to its item, decode
 * the map arguments, and encode the world's value at the block.
 */
export class ChainStorage {
  readonly #items = new Map<string, StorageItem>();
  readonly #world: World;
  readonly #runtimes: Runtimes;
  readonly #cache = new Map<string, string | null>();

  constructor(world: World, runtimes: Runtimes, hashes: BlockHashes) {
    this.#world = world;
    this.#runtimes = runtimes;
    for (const item of this.#define(hashes)) this.#items.set(storagePrefix(item.pallet, item.item), item);
  }

  /** Forgets encoded answers (after the world changes at run time, e.g. an injected emission flap). */
  clearCache(): void {
    this.#cache.clear();
  }

  /** The value of `key` at `block` (hex or null). */
  get(key: string, block: number): string | null {
    const cacheKey = `${block}:${key}`;
    const cached = this.#cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const value = this.#lookup(key.toLowerCase(), block);
    if (this.#cache.size > 200_000) this.#cache.clear();
    this.#cache.set(cacheKey, value);
    return value;
  }

  #lookup(key: string, block: number): string | null {
    if (key.length < 66) return null;
    const prefix = key.slice(0, 66);
    const item = this.#items.get(prefix);
    if (!item) return null;
    const args = decodeKeyArgs(key.slice(66), item.parts);
    if (!args || encodeKey(prefix, item.parts, args) !== key) return null;
    if (!this.#served(item, block)) return null;
    return item.get(block, args);
  }

  /** Keys starting with `prefix`, sorted, after `startKey`, at most `count`. */
  keysPaged(prefix: string, count: number, startKey: string | null, block: number): string[] {
    const wanted = prefix.toLowerCase();
    const keys: string[] = [];
    for (const [itemPrefix, item] of this.#items) {
      if (!itemPrefix.startsWith(wanted.slice(0, 66)) && !wanted.startsWith(itemPrefix)) continue;
      if (!this.#served(item, block)) continue;
      for (const args of item.list(block)) {
        const key = encodeKey(itemPrefix, item.parts, args);
        if (key.startsWith(wanted)) keys.push(key);
      }
    }
    keys.sort();
    const after = startKey?.toLowerCase() ?? '';
    return keys.filter((k) => k > after).slice(0, count);
  }

  /** `chain_getBlock`'s extrinsics, encoded with the runtime that ran the block (extrinsics-encoding.ts). */
  blockBody(block: number): string[] {
    return encodeBlockBody(
      this.#runtimeOf(block),
      this.#world.blockEvents(block),
      this.#world.timeline.timeOf(block),
    );
  }

  #runtimeOf(block: number) {
    return this.#runtimes.bySpec(this.#world.specAt(block));
  }

  /** A `declaredOnly` item the block's runtime lacks has no entries (a real node's state holds no key of it). */
  #served(item: StorageItem, block: number): boolean {
    return !item.declaredOnly || this.#runtimeOf(block).hasStorage(`${item.pallet}.${item.item}`);
  }

  #define(hashes: BlockHashes): StorageItem[] {
    const world = this.#world;
    const live = (block: number, args: KeyArg[]) => world.registrationAt(Number(args[0]), block);
    const subnetItem = (
      item: string,
      value: (subnet: NonNullable<ReturnType<typeof live>>, block: number) => string | null,
      parts: KeyPart[] = ['identity-u16'],
    ): StorageItem => ({
      pallet: 'SubtensorModule',
      item,
      parts,
      get: (block, args) => {
        const subnet = live(block, args);
        return subnet ? value(subnet, block) : null;
      },
      list: (block) =>
        world
          .aliveAt(block)
          .filter((s) => value(s, block) !== null)
          .map((s) => [s.netuid]),
    });
    const pool = (block: number, netuid: number) => {
      const subnet = world.registrationAt(netuid, block);
      return subnet ? world.pools.at(subnet, block) : null;
    };
    const stakerAccounts = (block: number) => {
      const accounts = new Map<string, bigint>();
      const state = world.stakers.stateAt(block);
      for (const staker of world.stakers.stakers) accounts.set(staker.coldkey.hex, state.free[staker.index]!);
      for (const [hex, free] of evmAccountsAt(world.stakers.stakers, state)) accounts.set(hex, free);
      for (const subnet of world.aliveAt(block)) {
        // A tracked coldkey's own subnet (network-lock.ts): its balance is the staking world's.
        if (subnet.registeredByTracked) continue;
        const free = rng(world.params.seed, `owner-free/${subnet.netuid}/${subnet.registeredAt}`).bigint(
          1n,
          900n,
        );
        accounts.set(subnet.owner.hex, free * RAO_PER_UNIT);
      }
      return accounts;
    };
    return [
      {
        pallet: 'System',
        item: 'Account',
        parts: ['blake2-account'],
        get: (block, args) => {
          const free = stakerAccounts(block).get(String(args[0]));
          if (free === undefined) return null;
          const runtime = this.#runtimeOf(block);
          const value = {
            nonce: block % 97,
            consumers: 0,
            providers: 1,
            sufficients: 0,
            data: {
              free,
              reserved: reservedOf(world.stakers.stateAt(block), world.stakers.findStaker(String(args[0]))),
              frozen: 0n,
              flags: ACCOUNT_FLAGS,
            },
          };
          return u8aToHex(runtime.encode(runtime.storageValueType('System.Account'), value));
        },
        list: (block) => [...stakerAccounts(block).keys()].map((hex) => [hex]),
      },
      {
        pallet: 'System',
        item: 'Events',
        parts: [],
        get: (block) => encodeEvents(this.#runtimeOf(block), world.blockEvents(block)),
        list: () => [[]],
      },
      { pallet: 'System', item: 'Number', parts: [], get: (block) => u32Hex(block), list: () => [[]] },
      {
        pallet: 'System',
        item: 'BlockHash',
        parts: ['twox64-u32'],
        get: (block, args) => {
          const n = Number(args[0]);
          return n === 0 || (n < block && n >= block - 256) ? hashes.hashOf(n) : null;
        },
        list: (block) => {
          const list: KeyArg[][] = [[0]];
          for (let n = Math.max(1, block - 256); n < block; n++) list.push([n]);
          return list;
        },
      },
      {
        pallet: 'Timestamp',
        item: 'Now',
        parts: [],
        get: (block) => u64Hex(BigInt(world.timeline.timeOf(block))),
        list: () => [[]],
      },
      {
        pallet: 'SubtensorModule',
        item: 'TotalNetworks',
        parts: [],
        get: (block) => u16Hex(world.aliveAt(block).length),
        list: () => [[]],
      },
      subnetItem('NetworksAdded', () => boolHex(true)),
      subnetItem('NetworkRegisteredAt', (s) => u64Hex(s.registeredAt)),
      subnetItem('TokenSymbol', (s) => bytesHex(s.symbol)),
      subnetItem('SubnetOwner', (s) => s.owner.hex),
      subnetItem('SubnetOwnerHotkey', (s) => s.ownerHotkey.hex),
      subnetItem('SubnetMechanism', (s) => u16Hex(s.netuid === 0 ? 0 : 1)),
      { ...subnetItem('SubtokenEnabled', (s) => boolHex(s.netuid !== 0)), declaredOnly: true },
      // Names: `SubnetIdentitiesV3` where the runtime declares it (spec 283 on), `SubnetIdentitiesV2` before.
      ...['SubnetIdentitiesV3', 'SubnetIdentitiesV2'].map((name) => ({
        declaredOnly: true,
        ...subnetItem(
          name,
          (s, block) => {
            const runtime = this.#runtimeOf(block);
            // Names live in V2 only where the runtime has no V3 (spec 233's era); later ones moved them to V3.
            if (name === 'SubnetIdentitiesV2' && runtime.hasStorage('SubtensorModule.SubnetIdentitiesV3'))
              return null;
            return u8aToHex(runtime.encode(runtime.storageValueType(`SubtensorModule.${name}`), identity(s)));
          },
          ['blake2-u16'],
        ),
      })),
      subnetItem('SubnetTAO', (s, block) => nullable(world.pools.at(s, block)?.tao)),
      subnetItem('SubnetAlphaIn', (s, block) => nullable(world.pools.at(s, block)?.alphaIn)),
      subnetItem('SubnetAlphaOut', (s, block) => nullable(world.pools.at(s, block)?.alphaOut)),
      subnetItem('SubnetMovingPrice', (s, block) => {
        const reserves = pool(block, s.netuid);
        // I96F32: price × 2^32 as i128 bits.
        return reserves ? u128Hex((reserves.tao << 32n) / reserves.alphaIn) : null;
      }),
      subnetItem('SubnetTaoInEmission', (s, block) => u64Hex(world.emissions.at(s, block).taoIn)),
      subnetItem('SubnetAlphaInEmission', (s, block) => u64Hex(world.emissions.at(s, block).alphaIn)),
      subnetItem('SubnetAlphaOutEmission', (s, block) => u64Hex(world.emissions.at(s, block).alphaOut)),
      subnetItem('SubnetEmissionEnabled', (s, block) => boolHex(world.emissions.at(s, block).enabled)),
      {
        pallet: 'SubtensorModule',
        item: 'StakingHotkeys',
        parts: ['blake2-account'],
        get: (_block, args) => {
          const staker = world.stakers.findStaker(String(args[0]));
          if (!staker) return null;
          return (
            u8aToHex(compactToU8a(staker.hotkeys.length)) + staker.hotkeys.map((h) => h.hex.slice(2)).join('')
          );
        },
        list: () => world.stakers.stakers.map((s) => [s.coldkey.hex]),
      },
      {
        // Spec 425 on: entries written since its upgrade (`staking/stake_utils.rs` `set_share`).
        pallet: 'SubtensorModule',
        item: 'AlphaV2',
        parts: ['blake2-account', 'blake2-account', 'identity-u16'],
        get: (block, args) => {
          const staker = world.stakers.findStaker(String(args[1]));
          const position = staker?.positions.find((p) => p.hotkey.hex === args[0] && p.netuid === args[2]);
          if (!staker || !position) return null;
          const share = world.stakers.stateAt(block).sharesV2[staker.index]!.get(position.pool);
          return share ? safeFloatHex(share) : null;
        },
        list: (block) => {
          const state = world.stakers.stateAt(block);
          return world.stakers.stakers.flatMap((staker) =>
            staker.positions
              .filter((p) => state.sharesV2[staker.index]!.has(p.pool))
              .map((p) => [p.hotkey.hex, staker.coldkey.hex, p.netuid]),
          );
        },
      },
      this.#hotkeyPoolItem('TotalHotkeySharesV2', (p) =>
        p.v2 && p.v2.mantissa > 0n ? safeFloatHex(p.v2) : null,
      ),
      {
        pallet: 'SubtensorModule',
        item: 'Alpha',
        parts: ['blake2-account', 'blake2-account', 'identity-u16'],
        get: (block, args) => {
          const staker = world.stakers.findStaker(String(args[1]));
          const position = staker?.positions.find((p) => p.hotkey.hex === args[0] && p.netuid === args[2]);
          if (!staker || !position) return null;
          const shares = world.stakers.stateAt(block).shares[staker.index]!.get(position.pool) ?? 0n;
          return shares === 0n ? null : u128Hex(shares);
        },
        list: (block) => {
          const state = world.stakers.stateAt(block);
          return world.stakers.stakers.flatMap((staker) =>
            staker.positions
              .filter((p) => (state.shares[staker.index]!.get(p.pool) ?? 0n) > 0n)
              .map((p) => [p.hotkey.hex, staker.coldkey.hex, p.netuid]),
          );
        },
      },
      this.#hotkeyPoolItem('TotalHotkeyAlpha', (p) => u64Hex(p.alpha)),
      this.#hotkeyPoolItem('TotalHotkeyShares', (p) => (p.v2 ? null : u128Hex(p.shares))),
      ...liquidityItems(world, (block) => this.#runtimeOf(block)),
    ];
  }

  #hotkeyPoolItem(
    item: string,
    encode: (pool: { alpha: bigint; shares: bigint; v2?: SafeFloat }) => string | null,
  ): StorageItem {
    const world = this.#world;
    const key = (hotkeyHex: string, netuid: number) => {
      const index = world.stakers.validators.findIndex((v) => v.hex === hotkeyHex);
      return index < 0 ? null : `${index}:${netuid}`;
    };
    return {
      pallet: 'SubtensorModule',
      item,
      parts: ['blake2-account', 'identity-u16'],
      get: (block, args) => {
        const poolKey = key(String(args[0]), Number(args[1]));
        const pool = poolKey ? world.stakers.stateAt(block).pools.get(poolKey) : undefined;
        return pool ? encode(pool) : null;
      },
      list: (block) =>
        [...world.stakers.stateAt(block).pools]
          .filter(([, pool]) => encode(pool) !== null)
          .map(([poolKey]) => {
            const [index, netuid] = poolKey.split(':').map(Number);
            return [world.stakers.validators[index!]!.hex, netuid!];
          }),
    };
  }
}

/** SCALE of `SafeFloat { mantissa: u128, exponent: i64 }`. */
function safeFloatHex(value: SafeFloat): string {
  return u128Hex(value.mantissa) + uintLeHex(value.exponent, 8).slice(2);
}

function nullable(value: bigint | undefined): string | null {
  return value === undefined ? null : u64Hex(value);
}

export function identity(subnet: { name: string; netuid: number }) {
  const slug = subnet.name.toLowerCase();
  return {
    subnetName: subnet.name,
    githubRepo: `https://github.com/${slug}/${slug}`,
    subnetContact: `team@${slug}.example`,
    subnetUrl: `https://${slug}.example`,
    discord: '',
    description: `${subnet.name}: simulated subnet ${subnet.netuid} of the sandbox chain`,
    logoUrl: '',
    additional: '',
  };
}

/**
 * The demo coldkey's open user liquidity positions (`Swap.Positions`, (netuid, coldkey, position id) →
 * Position) and crowdloan contributions (`Crowdloan.Contributions`, (crowdloan id, contributor) → amount), as
 * opentensor/subtensor's swap and crowdloan pallets store them (at 835a2c902): what a reader of the chain's
 * state finds of them at a block (world/user-liquidity.ts). The fee growth snapshots (`fees_tao`,
 * `fees_alpha`) are 0. Held only where the block's runtime declares the item.
 */
function liquidityItems(
  world: World,
  runtimeOf: (block: number) => ReturnType<Runtimes['bySpec']>,
): StorageItem[] {
  const demo = () => world.stakers.stakers[0]!;
  const netuidOf = (block: number, id: number) =>
    world.stakers.life.find(
      (l) => l.dated && l.block <= block && l.step.kind === 'liquidity-add' && l.step.positionId === id,
    )?.step;
  return [
    {
      pallet: 'Swap',
      item: 'Positions',
      parts: ['twox64-u16', 'twox64-account', 'twox64-u128'],
      declaredOnly: true,
      get: (block, args) => {
        if (args[1] !== demo().coldkey.hex) return null;
        const position = world.stakers
          .openLiquidityAt(block)
          .positions.find((p) => p.positionId === Number(args[2]));
        const step = position ? netuidOf(block, position.positionId) : undefined;
        if (!position || step?.kind !== 'liquidity-add' || step.at.netuid !== Number(args[0])) return null;
        const runtime = runtimeOf(block);
        return runtime.registry
          .createTypeUnsafe(runtime.storageValueType('Swap.Positions'), [
            {
              id: position.positionId,
              netuid: step.at.netuid,
              tickLow: position.tickLow,
              tickHigh: position.tickHigh,
              liquidity: position.liquidity,
              feesTao: { bits: 0 },
              feesAlpha: { bits: 0 },
            },
          ])
          .toHex();
      },
      list: (block) =>
        world.stakers.openLiquidityAt(block).positions.flatMap((p) => {
          const step = netuidOf(block, p.positionId);
          return step?.kind === 'liquidity-add' ? [[step.at.netuid, demo().coldkey.hex, p.positionId]] : [];
        }),
    },
    {
      pallet: 'Crowdloan',
      item: 'Contributions',
      parts: ['twox64-u32', 'identity-account'],
      declaredOnly: true,
      get: (block, args) => {
        if (args[1] !== demo().coldkey.hex) return null;
        const amount = world.stakers.openLiquidityAt(block).contributions.get(Number(args[0]));
        return amount === undefined ? null : u64Hex(amount);
      },
      list: (block) =>
        [...world.stakers.openLiquidityAt(block).contributions.keys()].map((id) => [id, demo().coldkey.hex]),
    },
  ];
}
