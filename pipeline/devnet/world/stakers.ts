import type { WorldParams } from '../options.js';
import { type Account, deriveAccount } from './accounts.js';
import { RAO } from './amounts.js';
import type { Pools } from './pools.js';
import { type Rng, rng } from './random.js';
import { INITIAL_SUBNETS, type SubnetRegistration } from './subnets.js';
import type { Timeline } from './timeline.js';

export const TRACKED_COLDKEYS = 24;
const VALIDATORS = 8;
const PPM = 1_000_000n;
const SHARE_ONE = 1n << 64n; // U64F64 fixed point: shares are stored as bits

export type StakingKind =
  | 'StakeAdded'
  | 'StakeRemoved'
  | 'StakeMoved'
  | 'StakeTransferred'
  | 'StakeSwapped'
  | 'Transfer';

/** One staking extrinsic of a tracked coldkey (buyback stakes live in the burn schedule). */
export interface StakingAction {
  block: number;
  kind: StakingKind;
  coldkey: Account;
  hotkey: Account | null;
  netuid: number | null;
  /** TAO moved (for moves, transfers and swaps the TAO value, as the chain's events carry). */
  tao: bigint;
  /** Alpha staked or unstaked (StakeAdded/StakeRemoved only). */
  alpha: bigint | null;
  fee: bigint;
  destColdkey: Account | null;
  destHotkey: Account | null;
  destNetuid: number | null;
}

/** A position: a coldkey's stake through one hotkey on one subnet. */
export interface Position {
  hotkey: Account;
  netuid: number;
  /** `hotkeyIndex:netuid`, the share pool it belongs to. */
  pool: string;
}

export interface Staker {
  index: number;
  coldkey: Account;
  demo: boolean;
  positions: Position[];
  /** Distinct hotkeys in first-use order: `StakingHotkeys`. */
  hotkeys: Account[];
}

/** A hotkey's share pool on one subnet: `TotalHotkeyAlpha` and `TotalHotkeyShares` (U64F64 bits). */
export interface SharePool {
  alpha: bigint;
  shares: bigint;
}

/** Staking state at one block. */
export interface StakeState {
  pools: Map<string, SharePool>;
  /** Per staker: pool key → share bits (`Alpha`). */
  shares: Map<string, bigint>[];
  free: bigint[];
}

function cloneState(state: StakeState): StakeState {
  return {
    pools: new Map([...state.pools].map(([key, pool]) => [key, { ...pool }])),
    shares: state.shares.map((m) => new Map(m)),
    free: [...state.free],
  };
}

/** Alpha of a share holding: shares × TotalHotkeyAlpha / TotalHotkeyShares, floored (as the chain does). */
export function alphaOf(pool: SharePool | undefined, shares: bigint): bigint {
  if (!pool || pool.shares === 0n) return 0n;
  return (shares * pool.alpha) / pool.shares;
}

interface DaySnapshots {
  /** Ascending blocks; state after all actions of that block. */
  blocks: number[];
  states: StakeState[];
  actions: StakingAction[];
}

/**
 * Tracked coldkeys and their stake. The state at the start of each day (after that day's emission growth)
 * is computed once, in order, and kept; a block inside a day replays only that day's few actions.
 */
export class Stakers {
  readonly stakers: Staker[];
  readonly validators: Account[];
  readonly #params: WorldParams;
  readonly #timeline: Timeline;
  readonly #pools: Pools;
  readonly #subnetsByNetuid: Map<number, SubnetRegistration>;
  readonly #dayStarts: StakeState[] = [];
  readonly #dayCache = new Map<number, DaySnapshots>();

  constructor(params: WorldParams, timeline: Timeline, subnets: readonly SubnetRegistration[], pools: Pools) {
    this.#params = params;
    this.#timeline = timeline;
    this.#pools = pools;
    // Staking happens on subnets registered from genesis that are never deregistered.
    this.#subnetsByNetuid = new Map(
      subnets.filter((s) => s.registeredAt === 0 && s.deregisteredAt === null).map((s) => [s.netuid, s]),
    );
    const random = rng(params.seed, 'stakers');
    this.validators = Array.from({ length: VALIDATORS }, (_, i) =>
      deriveAccount(params.seed, `validator/${i}`),
    );
    const stable = [...this.#subnetsByNetuid.keys()].filter((n) => n >= 1 && n <= INITIAL_SUBNETS);
    this.stakers = Array.from({ length: TRACKED_COLDKEYS }, (_, index) => {
      const coldkey = deriveAccount(params.seed, `coldkey/${index}`);
      const positions: Position[] = [this.#position(index % VALIDATORS, 0)];
      const wanted = index === 0 ? 6 : random.int(2, 4);
      const netuids = new Set<number>();
      while (netuids.size < wanted) netuids.add(random.pick(stable));
      let n = 0;
      for (const netuid of netuids) {
        // The demo coldkey keeps two subnets on one hotkey so it can swap stake between them.
        const hotkeyIndex = index === 0 && n < 2 ? 0 : random.int(0, VALIDATORS - 1);
        positions.push(this.#position(hotkeyIndex, netuid));
        n++;
      }
      if (index === 0) {
        // A second hotkey on three of its subnets (ten positions in all), so the demo coldkey can move
        // stake between hotkeys on one subnet: not a disposal for capital gains, unlike a move between subnets.
        for (const p of positions.slice(1, 4)) {
          const hotkeyIndex = (Number(p.pool.split(':')[0]) + 3) % VALIDATORS;
          const extra = this.#position(hotkeyIndex, p.netuid);
          this.#extraPositions.add(extra);
        }
        positions.push(...this.#extraPositions);
      }
      const hotkeys: Account[] = [];
      for (const p of positions) if (!hotkeys.includes(p.hotkey)) hotkeys.push(p.hotkey);
      return { index, coldkey, demo: index === 0, positions, hotkeys };
    });
    this.#dayStarts.push(this.#genesisState(random));
  }

  /** The demo coldkey's second-hotkey positions: drawn from their own stream, so every other draw is as before. */
  readonly #extraPositions = new Set<Position>();

  #position(hotkeyIndex: number, netuid: number): Position {
    return { hotkey: this.validators[hotkeyIndex]!, netuid, pool: `${hotkeyIndex}:${netuid}` };
  }

  get demo(): Staker {
    return this.stakers[0]!;
  }

  #genesisState(random: Rng): StakeState {
    const pools = new Map<string, SharePool>();
    const shares: Map<string, bigint>[] = [];
    const free: bigint[] = [];
    for (const staker of this.stakers) {
      const own = new Map<string, bigint>();
      for (const position of staker.positions) {
        if (this.#extraPositions.has(position)) continue;
        if (!pools.has(position.pool)) {
          // Stake of untracked holders, at a share price of exactly one.
          const outside = random.bigint(10_000n, 1_000_000n) * RAO;
          pools.set(position.pool, { alpha: outside, shares: outside * SHARE_ONE });
        }
        const pool = pools.get(position.pool)!;
        const alpha = random.bigint(1n, 2_000n) * RAO + random.bigint(0n, RAO);
        pool.alpha += alpha;
        pool.shares += alpha * SHARE_ONE;
        own.set(position.pool, alpha * SHARE_ONE);
      }
      shares.push(own);
      free.push(random.bigint(50n, 5_000n) * RAO + random.bigint(0n, RAO));
    }
    const extra = rng(this.#params.seed, 'stakers/demo-extra');
    for (const position of this.#extraPositions) {
      if (!pools.has(position.pool)) {
        const outside = extra.bigint(10_000n, 1_000_000n) * RAO;
        pools.set(position.pool, { alpha: outside, shares: outside * SHARE_ONE });
      }
      const pool = pools.get(position.pool)!;
      const alpha = extra.bigint(1n, 2_000n) * RAO + extra.bigint(0n, RAO);
      const added = pool.alpha === 0n ? alpha * SHARE_ONE : (alpha * pool.shares) / pool.alpha;
      pool.alpha += alpha;
      pool.shares += added;
      shares[0]!.set(position.pool, added);
    }
    return { pools, shares, free };
  }

  /** State at the start of `day`, after that day's emission growth. */
  #dayStart(day: number): StakeState {
    while (this.#dayStarts.length <= day) {
      const previousDay = this.#dayStarts.length - 1;
      const snapshots = this.#daySnapshots(previousDay);
      const end = snapshots.states[snapshots.states.length - 1] ?? this.#dayStarts[previousDay]!;
      const next = cloneState(end);
      const nextDay = previousDay + 1;
      for (const [key, pool] of next.pools) {
        const random = rng(this.#params.seed, `growth/${key}/${nextDay}`);
        const ppm = key.endsWith(':0') ? random.int(100, 400) : random.int(200, 2_500);
        pool.alpha += (pool.alpha * BigInt(ppm)) / PPM;
      }
      this.#dayStarts.push(next);
    }
    return this.#dayStarts[day]!;
  }

  #daySnapshots(day: number): DaySnapshots {
    let cached = this.#dayCache.get(day);
    if (cached) return cached;
    // Planning sizes each action from the state it meets (on a scratch copy); replaying records a
    // state per block for storage reads.
    const actions = this.#planDay(day, cloneState(this.#dayStart(day)));
    cached = this.#replay(day, actions);
    if (this.#dayCache.size > 32) this.#dayCache.delete(this.#dayCache.keys().next().value as number);
    this.#dayCache.set(day, cached);
    return cached;
  }

  #replay(day: number, actions: StakingAction[]): DaySnapshots {
    const state = cloneState(this.#dayStart(day));
    const snapshots: DaySnapshots = { blocks: [], states: [], actions };
    for (const action of actions) {
      this.#apply(state, action);
      if (snapshots.blocks[snapshots.blocks.length - 1] === action.block) {
        snapshots.states[snapshots.states.length - 1] = cloneState(state);
      } else {
        snapshots.blocks.push(action.block);
        snapshots.states.push(cloneState(state));
      }
    }
    return snapshots;
  }

  /** Draws the day's actions in block order, sizing each from the state it meets. */
  #planDay(day: number, state: StakeState): StakingAction[] {
    if (day < 0) return [];
    const random = rng(this.#params.seed, `staking/${day}`);
    const first = Math.max(1, this.#timeline.firstBlockOfDay(day));
    const last = this.#timeline.lastBlockOfDay(day);
    const drafts: Array<{
      block: number;
      staker: Staker;
      roll: number;
      size: number;
      pick: number;
      force?: 'hotkey-move' | 'subnet-move';
    }> = [];
    // Stake grows at the day's first block (emissions, below): no staking action lands on that block.
    const firstAction = Math.max(first, this.#timeline.firstBlockOfDay(day) + 1);
    for (const staker of this.stakers) {
      const count = staker.demo ? (random.chance(0.7) ? random.int(1, 3) : 0) : random.chance(0.15) ? 1 : 0;
      for (let i = 0; i < count; i++) {
        drafts.push({
          block: Math.max(firstAction, random.int(first, last)),
          staker,
          roll: random.float(),
          size: random.int(5, 40),
          pick: random.next(),
        });
      }
    }
    // Every few days the demo coldkey moves stake between hotkeys on one subnet, or to another subnet
    // (from their own stream, so the other draws are as before).
    if (day >= 1 && day % 3 === 1) {
      const scripted = rng(this.#params.seed, `staking/demo-move/${day}`);
      drafts.push({
        block: scripted.int(firstAction, last),
        staker: this.demo,
        roll: 0.85,
        size: scripted.int(10, 30),
        pick: scripted.next(),
        force: day % 2 === 0 ? 'subnet-move' : 'hotkey-move',
      });
    }
    drafts.sort((a, b) => a.block - b.block || a.staker.index - b.staker.index);
    const actions: StakingAction[] = [];
    for (const draft of drafts) {
      const action = draft.force
        ? this.#scriptedMove(state, draft.block, draft.staker, BigInt(draft.size), draft.pick, draft.force)
        : this.#draft(state, draft.block, draft.staker, draft.roll, BigInt(draft.size), draft.pick);
      if (action) {
        this.#apply(state, action);
        actions.push(action);
      }
    }
    return actions;
  }

  #draft(
    state: StakeState,
    block: number,
    staker: Staker,
    roll: number,
    percent: bigint,
    pick: number,
  ): StakingAction | null {
    const positions = staker.positions;
    const position = positions[pick % positions.length]!;
    const base = {
      block,
      coldkey: staker.coldkey,
      hotkey: position.hotkey,
      netuid: position.netuid,
      fee: 0n,
      alpha: null,
      destColdkey: null,
      destHotkey: null,
      destNetuid: null,
    };
    const free = state.free[staker.index]!;
    const held = alphaOf(
      state.pools.get(position.pool),
      state.shares[staker.index]!.get(position.pool) ?? 0n,
    );
    if (roll < 0.4 || held === 0n) {
      const tao = (free * percent) / 100n;
      if (tao < RAO / 10n) return null;
      const fee = tao / 2_000n;
      return {
        ...base,
        kind: 'StakeAdded',
        tao,
        fee,
        alpha: this.#toAlpha(position.netuid, block, tao - fee),
      };
    }
    const alpha = (held * percent) / 100n;
    if (alpha === 0n) return null;
    const tao = this.#toTao(position.netuid, block, alpha);
    if (roll < 0.65) {
      const fee = tao / 2_000n;
      return { ...base, kind: 'StakeRemoved', alpha, tao: tao - fee, fee };
    }
    const others = positions.filter((p) => p !== position);
    const sameHotkey = others.find((p) => p.hotkey === position.hotkey);
    if (roll < 0.72 && sameHotkey) {
      return {
        ...base,
        kind: 'StakeSwapped',
        tao,
        alpha,
        destNetuid: sameHotkey.netuid,
        destHotkey: sameHotkey.hotkey,
      };
    }
    const receiver = this.stakers.find(
      (s) => s !== staker && s.positions.some((p) => p.pool === position.pool),
    );
    if (roll < 0.8 && receiver) {
      return {
        ...base,
        kind: 'StakeTransferred',
        tao,
        alpha,
        destColdkey: receiver.coldkey,
        destHotkey: position.hotkey,
        destNetuid: position.netuid,
      };
    }
    if (roll < 0.9 && others.length > 0) {
      const target = others[pick % others.length]!;
      return {
        ...base,
        kind: 'StakeMoved',
        tao,
        alpha,
        destHotkey: target.hotkey,
        destNetuid: target.netuid,
      };
    }
    const to = this.stakers[(staker.index + 1 + (pick % (this.stakers.length - 1))) % this.stakers.length]!;
    const amount = (free * percent) / 200n;
    if (amount === 0n) return null;
    return { ...base, kind: 'Transfer', hotkey: null, netuid: null, tao: amount, destColdkey: to.coldkey };
  }

  /** A StakeMoved of the demo coldkey to a position on the same subnet (another hotkey) or on another subnet. */
  #scriptedMove(
    state: StakeState,
    block: number,
    staker: Staker,
    percent: bigint,
    pick: number,
    force: 'hotkey-move' | 'subnet-move',
  ): StakingAction | null {
    const held = (p: Position) =>
      alphaOf(state.pools.get(p.pool), state.shares[staker.index]!.get(p.pool) ?? 0n);
    const pairs = staker.positions.flatMap((from) =>
      staker.positions
        .filter(
          (to) =>
            to !== from &&
            (force === 'hotkey-move'
              ? to.netuid === from.netuid
              : to.netuid !== from.netuid && to.netuid !== 0) &&
            from.netuid !== 0 &&
            held(from) > 0n,
        )
        .map((to) => [from, to] as const),
    );
    if (pairs.length === 0) return null;
    const [from, to] = pairs[pick % pairs.length]!;
    const alpha = (held(from) * percent) / 100n;
    if (alpha === 0n) return null;
    return {
      block,
      kind: 'StakeMoved',
      coldkey: staker.coldkey,
      hotkey: from.hotkey,
      netuid: from.netuid,
      tao: this.#toTao(from.netuid, block, alpha),
      alpha,
      fee: 0n,
      destColdkey: null,
      destHotkey: to.hotkey,
      destNetuid: to.netuid,
    };
  }

  #toAlpha(netuid: number, block: number, tao: bigint): bigint {
    const pool = this.#poolOf(netuid, block);
    return pool ? (tao * pool.alphaIn) / pool.tao : tao;
  }

  #toTao(netuid: number, block: number, alpha: bigint): bigint {
    const pool = this.#poolOf(netuid, block);
    return pool ? (alpha * pool.tao) / pool.alphaIn : alpha;
  }

  #poolOf(netuid: number, block: number) {
    const subnet = this.#subnetsByNetuid.get(netuid);
    const pool = subnet ? this.#pools.at(subnet, block) : null;
    return pool && pool.alphaIn > 0n && pool.tao > 0n ? pool : null;
  }

  #staker(account: Account | null): Staker {
    const staker = this.stakers.find((s) => s.coldkey === account);
    if (!staker) throw new Error('stakers: unknown coldkey');
    return staker;
  }

  #apply(state: StakeState, action: StakingAction): void {
    const from = this.#staker(action.coldkey);
    const position = from.positions.find((p) => p.hotkey === action.hotkey && p.netuid === action.netuid);
    const add = (staker: Staker, key: string, alpha: bigint) => {
      const pool = state.pools.get(key)!;
      const shares = pool.alpha === 0n ? alpha * SHARE_ONE : (alpha * pool.shares) / pool.alpha;
      pool.alpha += alpha;
      pool.shares += shares;
      const own = state.shares[staker.index]!;
      own.set(key, (own.get(key) ?? 0n) + shares);
    };
    const remove = (staker: Staker, key: string, alpha: bigint) => {
      const pool = state.pools.get(key)!;
      const own = state.shares[staker.index]!;
      const held = own.get(key) ?? 0n;
      const shares = min(held, (alpha * pool.shares + pool.alpha - 1n) / pool.alpha);
      pool.alpha -= alpha;
      pool.shares -= shares;
      own.set(key, held - shares);
    };
    switch (action.kind) {
      case 'StakeAdded':
        state.free[from.index]! -= action.tao + 0n;
        add(from, position!.pool, action.alpha!);
        break;
      case 'StakeRemoved':
        remove(from, position!.pool, action.alpha!);
        state.free[from.index]! += action.tao;
        break;
      case 'StakeMoved':
      case 'StakeSwapped': {
        const target = from.positions.find(
          (p) => p.hotkey === action.destHotkey && p.netuid === action.destNetuid,
        )!;
        remove(from, position!.pool, action.alpha!);
        add(from, target.pool, this.#toAlpha(target.netuid, action.block, action.tao));
        break;
      }
      case 'StakeTransferred': {
        const to = this.#staker(action.destColdkey);
        // Shares change hands; the hotkey's pool keeps its totals.
        const pool = state.pools.get(position!.pool)!;
        const shares = min(
          state.shares[from.index]!.get(position!.pool) ?? 0n,
          (action.alpha! * pool.shares) / pool.alpha,
        );
        const own = state.shares[from.index]!;
        own.set(position!.pool, (own.get(position!.pool) ?? 0n) - shares);
        const theirs = state.shares[to.index]!;
        theirs.set(position!.pool, (theirs.get(position!.pool) ?? 0n) + shares);
        break;
      }
      case 'Transfer': {
        const to = this.#staker(action.destColdkey);
        state.free[from.index]! -= action.tao;
        state.free[to.index]! += action.tao;
        break;
      }
    }
  }

  /** Staking actions of a day, in block order (nominal day). */
  actionsOfDay(day: number): StakingAction[] {
    if (day < 0) return [];
    return this.#daySnapshots(day).actions;
  }

  actionsAt(block: number): StakingAction[] {
    return this.actionsOfDay(this.#timeline.dayOf(block)).filter((a) => a.block === block);
  }

  /** Stake state after every extrinsic of `block`. */
  stateAt(block: number): StakeState {
    const day = this.#timeline.dayOf(block);
    const snapshots = this.#daySnapshots(day);
    let found: StakeState = this.#dayStart(day);
    for (let i = 0; i < snapshots.blocks.length && snapshots.blocks[i]! <= block; i++)
      found = snapshots.states[i]!;
    return found;
  }

  findStaker(publicKeyHex: string): Staker | undefined {
    return this.stakers.find((s) => s.coldkey.hex === publicKeyHex);
  }

  /** Alpha of each position of a staker at `block` (positions with zero stake omitted). */
  positionsAt(staker: Staker, block: number): Array<{ position: Position; alpha: bigint; shares: bigint }> {
    const state = this.stateAt(block);
    const own = state.shares[staker.index]!;
    const result: Array<{ position: Position; alpha: bigint; shares: bigint }> = [];
    for (const hotkey of staker.hotkeys) {
      const positions = staker.positions
        .filter((p) => p.hotkey === hotkey)
        .sort((a, b) => a.netuid - b.netuid);
      for (const position of positions) {
        const shares = own.get(position.pool) ?? 0n;
        const alpha = alphaOf(state.pools.get(position.pool), shares);
        if (alpha > 0n) result.push({ position, alpha, shares });
      }
    }
    return result;
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
