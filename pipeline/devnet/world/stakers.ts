import { RAO_PER_UNIT } from '../../amounts/rao.js';
import { DAY_MS } from '../../time/utc-day.js';
import type { WorldParams } from '../options.js';
import type { RuntimeEraSpec } from '../runtime/runtime-eras.js';
import { type Account, deriveAccount } from './accounts.js';
import { type MigrationContext, migrateBlock } from './alpha-v2-migration.js';
import {
  type BigColdkeyCall,
  type BigColdkeyPlan,
  bigColdkeyCalls,
  creditBigColdkeys,
  planBigColdkeys,
  seedBigColdkeys,
} from './big-coldkeys.js';
import {
  DATED_CROWDLOANS,
  DATED_LIQUIDITY_POSITIONS,
  DATED_SCHEDULE,
  type DatedLifeKind,
  datedLifeBlock,
  UNTOLD_LEASE_DIVIDEND,
} from './dated-life.js';
import {
  applyEvmStaking,
  type EvmStakingStep,
  evmStaker,
  isEvmStaking,
  planEvmStaking,
} from './evm-staking.js';
import { planHeldDeposits } from './held-deposits.js';
import { executeBatch } from './limit-orders.js';
import { planNetworkLock } from './network-lock.js';
import type { Pools } from './pools.js';
import type { Position } from './position.js';
import { burnAccount } from './protocol-accounts.js';
import { type Rng, rng } from './random.js';
import { isZero, mulDiv, SAFE_FLOAT_ZERO, safeFloat, updateValueForOne } from './safe-float.js';
import {
  type LifeStep,
  lifeStepKind,
  type PlannedLifeStep,
  type Spec425LifeKind,
  type Spec473LifeKind,
  spec425LifeBlock,
  spec425ScheduleOrder,
  spec473LifeBlock,
  spec473ScheduleOrder,
} from './spec-425-life.js';
import {
  addShares,
  alphaOf,
  cloneState,
  currentAlphaOf,
  denominatorOf,
  NO_V2_SHARES,
  removeShares,
  SHARE_ONE,
  type SharePool,
  type StakeState,
  shareOf,
} from './stake-state.js';
import type { DissolutionPayout, LiquidityFill, Staker, StakingAction } from './staking-action.js';
import { INITIAL_SUBNETS, type SubnetRegistration } from './subnets.js';
import { planSweepPositions, type SweepPosition } from './sweep-positions.js';
import { paysTaoFee, taoFeeOf } from './tao-fees.js';
import {
  applyTaoMechanism,
  isTaoMechanism,
  planTaoMechanisms,
  type TaoMechanismStep,
  taoMechanismAction,
} from './tao-mechanisms.js';
import type { Timeline } from './timeline.js';
import { closePosition, crowdloanAccount, openPosition } from './user-liquidity.js';

export { alphaOf, currentAlphaOf, type SharePool, type StakeState } from './stake-state.js';
export type { DissolutionPayout, Staker, StakingAction } from './staking-action.js';

export const TRACKED_COLDKEYS = 24;
/** Staking's flat fee before the swap pallet (spec 257 `DefaultStakingFee`), in rao. */
const DEFAULT_STAKING_FEE = 50_000n;

/** The demo's limit orders' fee (`Order.fee_rate`, Perbill): 0.25 %. */
const LIMIT_ORDER_FEE_PERBILL = 2_500_000n;
/** The chain id orders are bound to (`pallet_evm_chain_id`: Bittensor's EVM chain id). */
const BITTENSOR_EVM_CHAIN_ID = 964n;
/** Blocks after spec 473's upgrade in which its migration may still be working (it needs a few dozen). */
const MIGRATION_WINDOW_BLOCKS = 600;
const VALIDATORS = 8;
/** Actions whose `tao` leaves the free balance (a fee is never more than what they leave). */
const SPENDS_FREE_TAO = new Set([
  'StakeAdded',
  'Transfer',
  'ProxyAdded',
  'NeuronRegistered',
  'EvmDeposit',
  'NetworkRegistered',
  'IdentitySet',
  'NewMultisig',
]);
const PPM = 1_000_000n;

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

  readonly #eraAt: (block: number) => RuntimeEraSpec;

  constructor(
    params: WorldParams,
    timeline: Timeline,
    subnets: readonly SubnetRegistration[],
    pools: Pools,
    eraAt: (block: number) => RuntimeEraSpec,
  ) {
    this.#eraAt = eraAt;
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
      return { index, coldkey, demo: index === 0, positions, drawable: [...positions], hotkeys };
    });
    this.#spec425From = params.spec425Block;
    this.#spec473From = params.spec473Block;
    if (this.#spec473From !== null) this.#planSweepPositions(this.#spec473From);
    if (this.#spec425From !== null) this.#planLife(this.#spec425From, subnets);
    // Big coldkeys (option `bigColdkeys`) come after every other coldkey and hotkey, on subnets nobody's life
    // dissolves: the other coldkeys' plans, indices and draws are as without them.
    if (params.bigColdkeys) {
      this.big = planBigColdkeys({
        seed: params.seed,
        firstIndex: this.stakers.length,
        validators: this.validators,
        netuids: [...this.#subnetsByNetuid.values()]
          .filter((s) => s.netuid !== 0 && s.deregisteredAt === null)
          .map((s) => s.netuid),
      });
      this.stakers.push(...this.big.coldkeys.map((c) => c.staker));
    }
    // The demo's own EVM address stakes through the precompile (evm-staking.ts): its account comes after
    // every other staker, so their indices and draws are as without it.
    if (params.runtimePlacement === 'dates' && this.#spec425From !== null) {
      this.#evmStaking.push(...planEvmStaking(this.#timeline));
      if (this.#evmStaking.length > 0) this.stakers.push(evmStaker(this.demo, this.stakers.length));
    }
    this.#dayStarts.push(this.#genesisState(random));
  }

  /** The big coldkeys (world/big-coldkeys.ts), or null without option `bigColdkeys`. */
  readonly big: BigColdkeyPlan | null = null;

  /** First block of spec 473 (the AlphaV2 migration and sweep start there), or null. */
  readonly #spec473From: number | null;
  /** Small V1 positions from genesis that spec 473's sweep settles (none without spec 473). */
  sweepPositions: SweepPosition[] = [];

  /** Whether `block` runs spec 473 (no V1 maps in its metadata; zero-stake positions listed). */
  runsSpec473(block: number): boolean {
    return this.#spec473From !== null && block >= this.#spec473From;
  }

  #planSweepPositions(latest: number): void {
    const demo = this.demo;
    const day = this.#timeline.dayOf(latest);
    this.sweepPositions = planSweepPositions({
      seed: this.#params.seed,
      stakers: this.stakers,
      validators: this.validators,
      excludedHotkey: Number(demo.drawable[0]!.pool.split(':')[0]),
      excludedNetuid: demo.drawable[6]!.netuid,
      position: (hotkey, netuid) => this.#position(hotkey, netuid),
      growth: (pool) => {
        let numerator = 1n;
        let denominator = 1n;
        for (let d = 1; d <= day; d++) {
          const ppm = this.#growthPpm(pool, d);
          numerator *= PPM + BigInt(ppm);
          denominator *= PPM;
        }
        return { numerator, denominator };
      },
      reserves: (netuid) => this.#poolOf(netuid, latest),
    });
    for (const { staker, position } of this.sweepPositions) {
      staker.positions.push(position);
      if (!staker.hotkeys.includes(position.hotkey)) staker.hotkeys.push(position.hotkey);
    }
  }

  /** First block of spec 425, or null. */
  readonly #spec425From: number | null;
  /** The demo coldkey's scripted life in spec 425 (empty without it). */
  readonly life: PlannedLifeStep[] = [];
  /** Pools the life needs that no drawn position has: created at genesis with outside stake only. */
  readonly #lifePools: string[] = [];
  #retired: { hotkey: number; hotkeyFrom: number; coldkey: Staker | null; coldkeyFrom: number } | null = null;
  #dissolved: { netuid: number; block: number } | null = null;

  /** Whether `block` runs spec 425 (V2 shares, SafeFloat arithmetic). */
  runsSpec425(block: number): boolean {
    return this.#spec425From !== null && block >= this.#spec425From;
  }

  /** The demo coldkey's successor after its coldkey swap (from spec 425 on). */
  get successor(): Staker | undefined {
    const successor = this.stakers[TRACKED_COLDKEYS];
    return successor && this.big?.coldkeys.some((c) => c.staker === successor) ? undefined : successor;
  }

  #planLife(upgrade: number, subnets: readonly SubnetRegistration[]): void {
    const demo = this.demo;
    const drawn = demo.drawable;
    const [p1, p2, p3, p4, p5, p6] = drawn.slice(1, 7) as [
      Position,
      Position,
      Position,
      Position,
      Position,
      Position,
    ];
    const extras = drawn.slice(7);
    const sameSubnet = extras.find((e) => e.netuid === p1.netuid)!;
    const held = new Set(drawn.map((p) => p.netuid));
    const free = [...this.#subnetsByNetuid.keys()].filter(
      (n) => n >= 1 && n <= INITIAL_SUBNETS && !held.has(n),
    );
    const rootHotkey = Number(drawn[0]!.pool.split(':')[0]);
    const validators = this.validators;
    const newHotkey = validators.length;
    validators.push(deriveAccount(this.#params.seed, `validator/${newHotkey}`));
    const autoStaked = this.#position(5, free[0]!);
    const rootClaimed = this.#position(rootHotkey, free[1]!);
    // A leased subnet's hotkey: the lease coldkey's stake on it is untracked; the demo is a contributor.
    const leaseHotkey = validators.length;
    validators.push(deriveAccount(this.#params.seed, 'lease-hotkey/1'));
    const leased = this.#position(leaseHotkey, free[2]!);
    // The demo's own miner hotkey, with no auto-stake destination on this subnet: its incentive stays on it.
    const minerHotkey = validators.length;
    validators.push(deriveAccount(this.#params.seed, 'demo-miner'));
    const mined = this.#position(minerHotkey, free[3]!);
    const late = (staker: Staker, position: Position) => {
      if (staker.positions.some((p) => p.pool === position.pool)) return;
      staker.positions.push(position);
      if (!staker.hotkeys.includes(position.hotkey)) staker.hotkeys.push(position.hotkey);
    };
    late(demo, autoStaked);
    late(demo, rootClaimed);
    late(demo, leased);
    late(demo, mined);
    this.#lifePools.push(autoStaked.pool, rootClaimed.pool, leased.pool);
    const receiver = this.stakers[1]!;
    late(receiver, p2);
    // The hotkey swap moves every holder of the swapped hotkey to the new one.
    for (const staker of this.stakers) {
      for (const position of [...staker.positions]) {
        if (position.hotkey === validators[rootHotkey])
          late(staker, this.#position(newHotkey, position.netuid));
      }
    }
    if (this.#params.runtimePlacement === 'dates') {
      this.#planDatedLife({
        recycled: p4,
        autoStaked,
        rootClaimed,
        miner: validators[minerHotkey]!,
        free: free.slice(4),
        subnets,
        liquidity: p3,
        leased,
      });
      // The network lock (network-lock.ts) and the held deposits (held-deposits.ts) ride with the TAO mechanisms.
      const network = planNetworkLock(this.#params, this.#timeline);
      this.#taoMechanisms.push(
        ...planTaoMechanisms(this.#timeline),
        ...network,
        ...planHeldDeposits(this.#timeline, network.length > 0),
      );
    }
    const successorIndex = TRACKED_COLDKEYS;
    const successor: Staker = {
      index: successorIndex,
      coldkey: deriveAccount(this.#params.seed, 'coldkey/demo-successor'),
      demo: false,
      positions: [...demo.positions],
      drawable: [],
      hotkeys: [...demo.hotkeys],
    };
    this.stakers.push(successor);
    const steps: Record<Spec425LifeKind, LifeStep> = {
      'move-within-subnet': { kind: 'move-within-subnet', from: p1, to: sameSubnet },
      'move-across-subnets': { kind: 'move-across-subnets', from: p3, to: p5 },
      'stake-transfer': { kind: 'stake-transfer', from: p2, receiver: receiver.index },
      recycle: { kind: 'recycle', from: p4 },
      'fee-in-alpha': { kind: 'fee-in-alpha', from: p5 },
      'auto-stake': {
        kind: 'auto-stake',
        to: autoStaked,
        miner: validators[minerHotkey]!,
      },
      'miner-incentive': { kind: 'miner-incentive', to: mined, uid: 3 },
      'root-claim': { kind: 'root-claim', to: rootClaimed },
      'lease-dividends': {
        kind: 'lease-dividends',
        to: leased,
        leaseColdkey: deriveAccount(this.#params.seed, 'lease-coldkey/1'),
        leaseId: 1,
      },
      'hotkey-swap': {
        kind: 'hotkey-swap',
        from: rootHotkey,
        to: newHotkey,
        owner: deriveAccount(this.#params.seed, `validator-owner/${rootHotkey}`),
      },
      dissolution: { kind: 'dissolution', netuid: p6.netuid },
      'coldkey-swap': { kind: 'coldkey-swap', successor: successorIndex },
    };
    for (const kind of spec425ScheduleOrder()) {
      this.life.push({ block: spec425LifeBlock(this.#timeline, upgrade, kind), step: steps[kind] });
    }
    const spec473From = this.#spec473From;
    if (spec473From !== null) {
      const later: Record<Spec473LifeKind, LifeStep> = {
        'limit-orders': { kind: 'limit-orders' },
        'unstake-all': { kind: 'unstake-all' },
      };
      for (const kind of spec473ScheduleOrder()) {
        this.life.push({ block: spec473LifeBlock(this.#timeline, spec473From, kind), step: later[kind] });
      }
    }
    // The spec 425 life's own steps: a world placed by date also holds the 2025/26 life's hotkey swap and
    // dissolution, planned earlier in `life`.
    const at = (kind: LifeStep['kind']) => this.life.find((l) => l.step.kind === kind && !l.dated)!.block;
    this.#retired = {
      hotkey: rootHotkey,
      hotkeyFrom: at('hotkey-swap'),
      coldkey: demo,
      coldkeyFrom: at('coldkey-swap'),
    };
    this.#dissolved = { netuid: p6.netuid, block: at('dissolution') };
    // The dissolved subnet is gone from that block: its storage, pool and price with it.
    const subnet = subnets.find(
      (s) => s.netuid === p6.netuid && s.deregisteredAt === null && s.registeredAt === 0,
    );
    if (subnet) subnet.deregisteredAt = this.#dissolved.block;
  }

  /** The 2025/26 life's liquidity positions as opened, by position id (sized when their day is first built). */
  readonly #openedLiquidity = new Map<number, LiquidityFill>();
  /** The 2025/26 life's crowdloan contributions, by crowdloan id. */
  readonly #contributions = new Map<number, bigint>();
  /** The demo coldkey's proxy deposit, registration and EVM round trip (tao-mechanisms.ts), by block. */
  readonly #taoMechanisms: TaoMechanismStep[] = [];
  /** The demo's staking through the EVM staking precompile (evm-staking.ts), by block. */
  readonly #evmStaking: EvmStakingStep[] = [];

  /** Positions of the 2025/26 life the demo coldkey holds from genesis (its own stream: other draws unchanged). */
  readonly #datedPositions: Position[] = [];

  /**
   * The demo coldkey's 2025/26 life (world/dated-life.ts), in a world placed by date: a hotkey of its own
   * swapped on a subnet nobody tracked holds, a subnet nobody else tracked holds dissolved, a recycle, an
   * auto-stake and two root claims, each on the date's runtime.
   */
  #planDatedLife(inputs: {
    recycled: Position;
    autoStaked: Position;
    rootClaimed: Position;
    miner: Account;
    free: number[];
    subnets: readonly SubnetRegistration[];
    /** The position whose alpha goes into the life's liquidity positions. */
    liquidity: Position;
    /** The leased subnet's position the demo's lease dividends land on. */
    leased: Position;
  }): void {
    const demo = this.demo;
    const seed = this.#params.seed;
    const used = new Set<number>();
    for (const staker of this.stakers) for (const p of staker.positions) used.add(p.netuid);
    const [swapNetuid, dissolvedNetuid] = inputs.free.filter((n) => !used.has(n));
    if (swapNetuid === undefined || dissolvedNetuid === undefined) return;
    const validators = this.validators;
    const oldHotkey = validators.length;
    validators.push(deriveAccount(seed, 'dated-life/old-hotkey'));
    const newHotkey = validators.length;
    validators.push(deriveAccount(seed, 'dated-life/new-hotkey'));
    const swapped = this.#position(oldHotkey, swapNetuid);
    const dissolved = this.#position(0, dissolvedNetuid);
    this.#datedPositions.push(swapped, dissolved);
    for (const position of [swapped, this.#position(newHotkey, swapNetuid), dissolved]) {
      demo.positions.push(position);
      if (!demo.hotkeys.includes(position.hotkey)) demo.hotkeys.push(position.hotkey);
    }
    const leaseColdkey = deriveAccount(seed, 'lease-coldkey/1');
    // The n-th step of a kind takes the n-th position or crowdloan (dated-life.ts).
    const nth = (list: readonly number[], n: number) => list[Math.min(n, list.length - 1)]!;
    const stepsOf: Record<DatedLifeKind, (n: number) => LifeStep> = {
      recycle: () => steps.recycle,
      'hotkey-swap': () => steps['hotkey-swap'],
      'auto-stake': () => steps['auto-stake'],
      'root-claim': () => steps['root-claim'],
      dissolution: () => steps.dissolution,
      'liquidity-add': (n) => ({
        kind: 'liquidity-add',
        at: inputs.liquidity,
        positionId: nth(DATED_LIQUIDITY_POSITIONS, n),
      }),
      'liquidity-remove': () => ({
        kind: 'liquidity-remove',
        at: inputs.liquidity,
        positionId: DATED_LIQUIDITY_POSITIONS[0],
      }),
      'liquidity-refund': () => ({
        kind: 'liquidity-refund',
        at: inputs.liquidity,
        positionId: DATED_LIQUIDITY_POSITIONS[1],
      }),
      'crowdloan-contribute': (n) => ({
        kind: 'crowdloan-contribute',
        crowdloanId: nth([DATED_CROWDLOANS.leased, DATED_CROWDLOANS.refunded], n),
      }),
      'crowdloan-refund': () => ({ kind: 'crowdloan-refund', crowdloanId: DATED_CROWDLOANS.refunded }),
      'lease-dividends': () => ({
        kind: 'lease-dividends',
        to: inputs.leased,
        leaseColdkey,
        leaseId: DATED_CROWDLOANS.leased,
      }),
      'lease-dividends-credited': () => ({
        kind: 'lease-dividends-credited',
        to: inputs.leased,
        leaseColdkey,
        leaseId: DATED_CROWDLOANS.leased,
      }),
    };
    const steps: Record<'recycle' | 'hotkey-swap' | 'auto-stake' | 'root-claim' | 'dissolution', LifeStep> = {
      recycle: { kind: 'recycle', from: inputs.recycled },
      'hotkey-swap': {
        kind: 'hotkey-swap',
        from: oldHotkey,
        to: newHotkey,
        owner: deriveAccount(seed, 'dated-life/hotkey-owner'),
      },
      'auto-stake': { kind: 'auto-stake', to: inputs.autoStaked, miner: inputs.miner },
      'root-claim': { kind: 'root-claim', to: inputs.rootClaimed },
      dissolution: { kind: 'dissolution', netuid: dissolvedNetuid },
    };
    const schedule = this.#params.untoldLeaseDividend
      ? [...DATED_SCHEDULE, UNTOLD_LEASE_DIVIDEND]
      : DATED_SCHEDULE;
    const seen = new Map<DatedLifeKind, number>();
    for (const [kind, date, hour] of schedule) {
      const n = seen.get(kind) ?? 0;
      seen.set(kind, n + 1);
      const block = datedLifeBlock(this.#timeline, date, hour);
      if (block === null) continue;
      this.life.push({ block, step: stepsOf[kind](n), dated: true });
      if (kind === 'dissolution') {
        const subnet = inputs.subnets.find(
          (s) => s.netuid === dissolvedNetuid && s.deregisteredAt === null && s.registeredAt === 0,
        );
        if (subnet) subnet.deregisteredAt = block;
      }
    }
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
    for (const staker of this.stakers.slice(0, TRACKED_COLDKEYS)) {
      const own = new Map<string, bigint>();
      for (const position of staker.drawable) {
        if (this.#extraPositions.has(position)) continue;
        if (!pools.has(position.pool)) {
          // Stake of untracked holders, at a share price of exactly one.
          const outside = random.bigint(10_000n, 1_000_000n) * RAO_PER_UNIT;
          pools.set(position.pool, { alpha: outside, shares: outside * SHARE_ONE });
        }
        const pool = pools.get(position.pool)!;
        const alpha = random.bigint(1n, 2_000n) * RAO_PER_UNIT + random.bigint(0n, RAO_PER_UNIT);
        pool.alpha += alpha;
        pool.shares += alpha * SHARE_ONE;
        own.set(position.pool, alpha * SHARE_ONE);
      }
      shares.push(own);
      free.push(random.bigint(50n, 5_000n) * RAO_PER_UNIT + random.bigint(0n, RAO_PER_UNIT));
    }
    for (const key of this.#lifePools) {
      if (pools.has(key)) continue;
      const outside =
        rng(this.#params.seed, `stakers/life-pool/${key}`).bigint(10_000n, 1_000_000n) * RAO_PER_UNIT;
      pools.set(key, { alpha: outside, shares: outside * SHARE_ONE });
    }
    while (shares.length < this.stakers.length) shares.push(new Map());
    while (free.length < this.stakers.length) free.push(0n);
    const extra = rng(this.#params.seed, 'stakers/demo-extra');
    for (const position of this.#extraPositions) {
      if (!pools.has(position.pool)) {
        const outside = extra.bigint(10_000n, 1_000_000n) * RAO_PER_UNIT;
        pools.set(position.pool, { alpha: outside, shares: outside * SHARE_ONE });
      }
      const pool = pools.get(position.pool)!;
      const alpha = extra.bigint(1n, 2_000n) * RAO_PER_UNIT + extra.bigint(0n, RAO_PER_UNIT);
      const added = pool.alpha === 0n ? alpha * SHARE_ONE : (alpha * pool.shares) / pool.alpha;
      pool.alpha += alpha;
      pool.shares += added;
      shares[0]!.set(position.pool, added);
    }
    const dated = rng(this.#params.seed, 'stakers/dated-life');
    for (const position of this.#datedPositions) {
      const outside = dated.bigint(10_000n, 1_000_000n) * RAO_PER_UNIT;
      pools.set(position.pool, { alpha: outside, shares: outside * SHARE_ONE });
      const alpha = dated.bigint(200n, 2_000n) * RAO_PER_UNIT + dated.bigint(0n, RAO_PER_UNIT);
      const pool = pools.get(position.pool)!;
      pool.alpha += alpha;
      pool.shares += alpha * SHARE_ONE;
      shares[0]!.set(position.pool, alpha * SHARE_ONE);
    }
    for (const { staker, position, alpha } of this.sweepPositions) {
      // Pools of drawn positions exist by now, at a share price of exactly one.
      const pool = pools.get(position.pool)!;
      const added = pool.alpha === 0n ? alpha * SHARE_ONE : (alpha * pool.shares) / pool.alpha;
      pool.alpha += alpha;
      pool.shares += added;
      shares[staker.index]!.set(position.pool, added);
    }
    const genesis: StakeState = { pools, shares, sharesV2: shares.map(() => NO_V2_SHARES), free };
    if (this.big) seedBigColdkeys(this.big, genesis, this.#params.seed);
    return genesis;
  }

  /**
   * A pool's growth at the start of `day`, in parts per million: its stakers' share of the subnet's emission.
   * Root pools grow by the root dividends paid as TAO onto the root validator's stake
   * (`increase_stake_for_hotkey_on_subnet(hotkey, ROOT, …)` in `coinbase/run_coinbase.rs`) until root claims:
   * from spec 334 a world placed by date pays them as claimable alpha on subnets instead (`RootClaimable`,
   * claimed by `claim_root`, `staking/claim_root.rs`), so its root pools stop growing. The compressed world
   * keeps its root pools growing as it always has.
   */
  #growthPpm(key: string, day: number): number {
    const random = rng(this.#params.seed, `growth/${key}/${day}`);
    if (!key.endsWith(':0')) return random.int(200, 2_500);
    const ppm = random.int(100, 400);
    return this.#rootClaimsFrom(day) ? 0 : ppm;
  }

  /** Whether root dividends are claimable alpha on `day` (a world placed by date, from spec 334's date on). */
  #rootClaimsFrom(day: number): boolean {
    if (this.#params.runtimePlacement !== 'dates') return false;
    return this.#eraAt(this.#timeline.firstBlockOfDay(day)).features.rootClaims;
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
        const ppm = this.#growthPpm(key, nextDay);
        pool.alpha += (pool.alpha * BigInt(ppm)) / PPM;
      }
      if (this.big) {
        const v2 = this.runsSpec425(this.#timeline.firstBlockOfDay(nextDay));
        creditBigColdkeys(this.big, next, this.#params.seed, nextDay, v2);
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
    // One copy per block, after its last action (a block of a hundred calls is copied once, not a hundred times).
    for (let i = 0; i < actions.length; i++) {
      const action = actions[i]!;
      this.#apply(state, action);
      if (actions[i + 1]?.block === action.block) continue;
      snapshots.blocks.push(action.block);
      snapshots.states.push(cloneState(state));
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
      life?: LifeStep;
      /** A step of the 2025/26 life (world/dated-life.ts). */
      dated?: true;
      /** Spec 473's migration work of this block (`on_idle`, after every extrinsic). */
      migration?: true;
      mechanism?: TaoMechanismStep;
      evmStaking?: EvmStakingStep;
      /** A big coldkey's call (world/big-coldkeys.ts). */
      big?: BigColdkeyCall;
    }> = [];
    // Stake grows at the day's first block (emissions, below): no staking action lands on that block.
    const firstAction = Math.max(first, this.#timeline.firstBlockOfDay(day) + 1);
    for (const staker of this.stakers.slice(0, TRACKED_COLDKEYS)) {
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
    for (const planned of this.life) {
      if (planned.block < first || planned.block > last) continue;
      drafts.push({
        block: planned.block,
        staker: this.demo,
        roll: 0,
        size: 0,
        pick: 0,
        life: planned.step,
        ...(planned.dated ? { dated: true as const } : {}),
      });
    }
    for (const step of this.#taoMechanisms) {
      if (step.block < first || step.block > last) continue;
      drafts.push({ block: step.block, staker: this.demo, roll: 0, size: 0, pick: 0, mechanism: step });
    }
    for (const step of this.#evmStaking) {
      if (step.block < first || step.block > last) continue;
      drafts.push({ block: step.block, staker: this.demo, roll: 0, size: 0, pick: 0, evmStaking: step });
    }
    if (this.big) {
      for (const call of bigColdkeyCalls(this.big, this.#params.seed, day, firstAction, last))
        drafts.push({ block: call.block, staker: call.staker, roll: 0, size: 0, pick: 0, big: call });
    }
    // The migration runs in every block from the upgrade until it completes, never in a day's first block
    // (where the day's growth lands, so that the truth can set its blocks aside without losing income).
    const spec473From = this.#spec473From;
    if (spec473From !== null && state.migration?.phase !== 3) {
      const to = Math.min(last, spec473From + MIGRATION_WINDOW_BLOCKS);
      for (let block = Math.max(firstAction, spec473From); block <= to; block++) {
        drafts.push({ block, staker: this.demo, roll: 0, size: 0, pick: 0, migration: true });
      }
    }
    drafts.sort(
      (a, b) =>
        a.block - b.block ||
        Number(a.migration ?? false) - Number(b.migration ?? false) ||
        a.staker.index - b.staker.index,
    );
    const actions: StakingAction[] = [];
    const limited = new Set<string>();
    for (const draft of drafts) {
      if (draft.evmStaking) {
        // A call of the demo's own EVM address to the staking precompile: unsigned, no TAO fee (evm-staking.ts).
        const call = this.#evmStakingAction(state, draft.evmStaking);
        if (call) {
          this.#apply(state, call);
          actions.push(call);
        }
        continue;
      }
      const action = draft.big
        ? this.#bigAction(state, draft.big)
        : draft.mechanism
          ? taoMechanismAction(this.#params.seed, state, this.demo, draft.mechanism)
          : draft.migration
            ? this.#migrationAction(state, draft.block)
            : draft.life
              ? this.#lifeAction(state, draft.block, draft.life, draft.dated ?? false)
              : draft.force
                ? this.#scriptedMove(
                    state,
                    draft.block,
                    draft.staker,
                    BigInt(draft.size),
                    draft.pick,
                    draft.force,
                  )
                : this.#draft(state, draft.block, draft.staker, draft.roll, BigInt(draft.size), draft.pick);
      if (
        action &&
        (draft.life ||
          draft.migration ||
          draft.mechanism ||
          (this.#allowed(action) && this.#withinRateLimit(action, limited)))
      ) {
        if (this.runsSpec425(action.block)) this.#fillSpec425(action);
        this.#priceTaoFee(state, action);
        this.#apply(state, action);
        actions.push(action);
      }
    }
    return actions;
  }

  /**
   * The demo's EVM address's call to the staking precompile (evm-staking.ts): half the TAO on the address
   * staked on its position, later all that position's alpha unstaked; none when there is nothing to move.
   */
  #evmStakingAction(state: StakeState, step: EvmStakingStep): StakingAction | null {
    const mapped = this.stakers[this.stakers.length - 1]!;
    const position = mapped.positions[0]!;
    const base = {
      block: step.block,
      kind: step.kind,
      coldkey: mapped.coldkey,
      hotkey: position.hotkey,
      netuid: position.netuid,
      destColdkey: null,
      destHotkey: null,
      destNetuid: null,
    };
    if (step.kind === 'EvmStakeAdded') {
      const tao = (state.evm?.[this.demo.index] ?? 0n) / 2n;
      if (tao < RAO_PER_UNIT / 10n) return null;
      const fee = this.#stakingFee(step.block, tao);
      this.#evmStakingMoves.set(step.block, -tao);
      return { ...base, tao, fee, alpha: this.#toAlpha(position.netuid, step.block, tao - fee) };
    }
    const alpha = alphaOf(
      state.pools.get(position.pool),
      state.shares[mapped.index]!.get(position.pool) ?? 0n,
    );
    if (alpha === 0n) return null;
    const tao = this.#toTao(position.netuid, step.block, alpha);
    const fee = this.#stakingFee(step.block, tao);
    this.#evmStakingMoves.set(step.block, tao - fee);
    return { ...base, alpha, tao: tao - fee, fee };
  }

  /**
   * What the EVM staking gained (or lost, negative) the demo's free TAO by `block`: the unstake's TAO less the
   * stake's, which reach the demo's free TAO with the EVM withdrawal after them (tao-mechanisms.ts).
   */
  #evmStakingNet(block: number): bigint {
    const withdrawn = this.#taoMechanisms.find((step) => step.kind === 'EvmWithdraw')?.block ?? null;
    if (withdrawn === null || block <= withdrawn) return 0n;
    let net = 0n;
    for (const [at, tao] of this.#evmStakingMoves) if (at < withdrawn) net += tao;
    return net;
  }

  /** The TAO of each EVM staking call, by block: − staked, + unstaked. */
  readonly #evmStakingMoves = new Map<number, bigint>();

  /** A big coldkey's add_stake or registration, when its free TAO covers it. */
  #bigAction(state: StakeState, call: BigColdkeyCall): StakingAction | null {
    if (state.free[call.staker.index]! < call.tao + RAO_PER_UNIT / 10n) return null;
    const base = {
      block: call.block,
      coldkey: call.staker.coldkey,
      hotkey: call.position.hotkey,
      netuid: call.position.netuid,
      alpha: null,
      fee: 0n,
      destColdkey: null,
      destHotkey: null,
      destNetuid: null,
    };
    if (call.kind === 'NeuronRegistered') return { ...base, kind: 'NeuronRegistered', tao: call.tao };
    const fee = this.#stakingFee(call.block, call.tao);
    return {
      ...base,
      kind: 'StakeAdded',
      tao: call.tao,
      fee,
      alpha: this.#toAlpha(call.position.netuid, call.block, call.tao - fee),
    };
  }

  /**
   * A world placed by date: the TAO fee of a tracked coldkey's signed call (tao-fees.ts), never more than its
   * free TAO leaves after the call's own TAO.
   */
  #priceTaoFee(state: StakeState, action: StakingAction): void {
    if (this.#params.runtimePlacement !== 'dates' || !paysTaoFee(action)) return;
    const staker = this.stakers.find((s) => s.coldkey === action.coldkey);
    if (!staker) return;
    const spent = SPENDS_FREE_TAO.has(action.kind) ? action.tao : 0n;
    const room = state.free[staker.index]! - spent;
    const fee = taoFeeOf(this.#params.seed, action, this.#eraAt(action.block).spec);
    action.taoFee = room <= 0n ? 0n : fee < room ? fee : room;
  }

  /**
   * The staking rate limiter (spec 285 on, `staking/stake_utils.rs` at f8db5d06c): staking into a position
   * (`stake_into_subnet` → `set_stake_operation_limit`, also a move's or swap's destination) marks
   * (hotkey, coldkey, netuid) until the block's end (`on_finalize` drains `StakingOperationRateLimiter`), and
   * taking stake out of a marked position fails (`StakingOperationRateLimitExceeded`). A world placed by date
   * never makes such a call from spec 285's date on; the compressed world keeps its draws as they were.
   * `limited` holds the marks of the day being planned.
   */
  #withinRateLimit(action: StakingAction, limited: Set<string>): boolean {
    if (this.#params.runtimePlacement !== 'dates' || !this.#eraAt(action.block).features.leases) return true;
    const mark = (coldkey: Account | null, hotkey: Account | null, netuid: number | null) =>
      `${action.block}|${coldkey?.hex}|${hotkey?.hex}|${netuid}`;
    const takesOut =
      action.kind === 'StakeRemoved' ||
      action.kind === 'StakeMoved' ||
      action.kind === 'StakeSwapped' ||
      action.kind === 'StakeTransferred';
    if (takesOut && limited.has(mark(action.coldkey, action.hotkey, action.netuid))) return false;
    if (action.kind === 'StakeAdded') limited.add(mark(action.coldkey, action.hotkey, action.netuid));
    // A move's or swap's destination is staked with the limit set; a stake transfer's is not
    // (`staking/move_stake.rs`, `transition_stake_internal`'s `set_limit`).
    if ((action.kind === 'StakeMoved' || action.kind === 'StakeSwapped') && action.destHotkey !== null) {
      limited.add(mark(action.coldkey, action.destHotkey, action.destNetuid));
    }
    return true;
  }

  /** The migration's work in `block`, sized on a copy of the state (null once it has completed). */
  #migrationAction(state: StakeState, block: number): StakingAction | null {
    if (state.migration?.phase === 3) return null;
    const migration = migrateBlock(cloneState(state), this.#migrationContext(block));
    if (!migration) return null;
    return {
      block,
      kind: 'AlphaV2Migration',
      coldkey: burnAccount(),
      hotkey: null,
      netuid: null,
      tao: migration.burned,
      alpha: null,
      fee: 0n,
      destColdkey: null,
      destHotkey: null,
      destNetuid: null,
      migration,
    };
  }

  #migrationContext(block: number): MigrationContext {
    return {
      stakers: this.stakers,
      validators: this.validators,
      executableValue: (netuid, alpha) => {
        // Root is a stable subnet (mechanism 0): 1:1. Elsewhere the fee-free constant-product sale.
        if (netuid === 0) return alpha;
        const pool = this.#poolOf(netuid, block);
        return pool ? (pool.tao * alpha) / (pool.alphaIn + alpha) : null;
      },
    };
  }

  #draft(
    state: StakeState,
    block: number,
    staker: Staker,
    roll: number,
    percent: bigint,
    pick: number,
  ): StakingAction | null {
    const positions = staker.drawable;
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
    // The demo's draws are sized as without its EVM staking's result, so that what it sends other coldkeys
    // (and so their truth) is as before (evm-staking.ts).
    const free = state.free[staker.index]! - (staker.demo ? this.#evmStakingNet(block) : 0n);
    const held = alphaOf(
      state.pools.get(position.pool),
      state.shares[staker.index]!.get(position.pool) ?? 0n,
    );
    if (roll < 0.4 || held === 0n) {
      const tao = (free * percent) / 100n;
      if (tao < RAO_PER_UNIT / 10n) return null;
      const fee = this.#stakingFee(block, tao);
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
      const fee = this.#stakingFee(block, tao);
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
      (s) => s !== staker && s.drawable.some((p) => p.pool === position.pool),
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
    const to = this.stakers[(staker.index + 1 + (pick % (TRACKED_COLDKEYS - 1))) % TRACKED_COLDKEYS]!;
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
    const pairs = staker.drawable.flatMap((from) =>
      staker.drawable
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

  /**
   * Whether a drawn action can happen from spec 425 on: not by or to the demo coldkey after its
   * swap (the old key holds nothing), not through the swapped-out hotkey, not on the dissolved subnet.
   */
  #allowed(action: StakingAction): boolean {
    if (!this.runsSpec425(action.block)) return true;
    const retired = this.#retired;
    if (retired) {
      const oldHotkey = this.validators[retired.hotkey];
      if (
        action.block >= retired.hotkeyFrom &&
        (action.hotkey === oldHotkey || action.destHotkey === oldHotkey)
      )
        return false;
      if (
        action.block >= retired.coldkeyFrom &&
        (action.coldkey === retired.coldkey?.coldkey || action.destColdkey === retired.coldkey?.coldkey)
      )
        return false;
    }
    const dissolved = this.#dissolved;
    if (dissolved && action.block >= dissolved.block) {
      if (action.netuid === dissolved.netuid || action.destNetuid === dissolved.netuid) return false;
    }
    return true;
  }

  /** Spec 425 on: the alpha a move, swap or stake transfer puts on its destination, as its events carry. */
  #fillSpec425(action: StakingAction): void {
    if (action.destAlpha !== undefined || action.alpha === null || action.destNetuid === null) return;
    if (action.kind !== 'StakeMoved' && action.kind !== 'StakeSwapped' && action.kind !== 'StakeTransferred')
      return;
    action.destAlpha =
      action.destNetuid === action.netuid
        ? action.alpha
        : this.#toAlpha(action.destNetuid, action.block, action.tao);
  }

  /** Sizes one step of the demo coldkey's life from the state it meets. */
  #lifeAction(state: StakeState, block: number, step: LifeStep, dated: boolean): StakingAction | null {
    const action = this.#sizeLifeAction(state, block, step, dated);
    if (action && dated) action.dated = true;
    return action;
  }

  #sizeLifeAction(state: StakeState, block: number, step: LifeStep, dated: boolean): StakingAction | null {
    const demo = this.demo;
    const base = {
      block,
      kind: lifeStepKind(step),
      coldkey: demo.coldkey,
      hotkey: null as Account | null,
      netuid: null as number | null,
      tao: 0n,
      alpha: null as bigint | null,
      fee: 0n,
      destColdkey: null as Account | null,
      destHotkey: null as Account | null,
      destNetuid: null as number | null,
    };
    // A dated step draws from a stream of its own block (the 2025/26 life claims root twice).
    const random = rng(this.#params.seed, dated ? `dated-life/${step.kind}/${block}` : `life/${step.kind}`);
    const held = (p: Position) => currentAlphaOf(state, demo.index, p.pool);
    const part = (p: Position, percent: bigint) => (held(p) * percent) / 100n;
    switch (step.kind) {
      case 'move-within-subnet':
      case 'move-across-subnets':
      case 'stake-transfer': {
        const alpha = part(step.from, step.kind === 'stake-transfer' ? 30n : 25n);
        if (alpha === 0n) return null;
        const tao = this.#toTao(step.from.netuid, block, alpha);
        const to = step.kind === 'stake-transfer' ? step.from : step.to;
        return {
          ...base,
          hotkey: step.from.hotkey,
          netuid: step.from.netuid,
          tao,
          alpha,
          destColdkey: step.kind === 'stake-transfer' ? this.stakers[step.receiver]!.coldkey : null,
          destHotkey: to.hotkey,
          destNetuid: to.netuid,
          destAlpha: to.netuid === step.from.netuid ? alpha : this.#toAlpha(to.netuid, block, tao),
        };
      }
      case 'recycle': {
        const alpha = part(step.from, 10n);
        return alpha === 0n ? null : { ...base, hotkey: step.from.hotkey, netuid: step.from.netuid, alpha };
      }
      case 'fee-in-alpha': {
        const alpha = part(step.from, 15n);
        if (alpha === 0n) return null;
        const gross = this.#toTao(step.from.netuid, block, alpha);
        const fee = gross / 2_000n;
        const feeTao = 1_000_000n + random.bigint(0n, 9_000_000n);
        return {
          ...base,
          hotkey: step.from.hotkey,
          netuid: step.from.netuid,
          alpha,
          tao: gross - fee,
          fee,
          feeTao,
          alphaFee: this.#toAlpha(step.from.netuid, block, feeTao),
        };
      }
      case 'auto-stake':
        return {
          ...base,
          hotkey: step.to.hotkey,
          netuid: step.to.netuid,
          alpha: random.bigint(2n, 9n) * RAO_PER_UNIT + random.bigint(0n, RAO_PER_UNIT),
          destHotkey: step.miner,
        };
      case 'miner-incentive': {
        const emissions = Array.from(
          { length: 8 },
          () => random.bigint(0n, 5n) * RAO_PER_UNIT + random.bigint(0n, RAO_PER_UNIT),
        );
        return {
          ...base,
          hotkey: step.to.hotkey,
          netuid: step.to.netuid,
          alpha: emissions[step.uid]!,
          incentives: { emissions, minerUid: step.uid },
        };
      }
      case 'root-claim':
        return {
          ...base,
          hotkey: step.to.hotkey,
          netuid: step.to.netuid,
          alpha: random.bigint(1n, 6n) * RAO_PER_UNIT + random.bigint(0n, RAO_PER_UNIT),
        };
      case 'lease-dividends': {
        const alpha = random.bigint(1n, 4n) * RAO_PER_UNIT + random.bigint(0n, RAO_PER_UNIT);
        return {
          ...base,
          hotkey: step.to.hotkey,
          netuid: step.to.netuid,
          alpha,
          tao: this.#toTao(step.to.netuid, block, alpha),
          lease: { id: step.leaseId, coldkey: step.leaseColdkey },
        };
      }
      case 'liquidity-add': {
        // A twentieth of the position's alpha with the TAO of equal value beside it, no more than a quarter of
        // the free TAO (world/user-liquidity.ts).
        const pool = this.#poolOf(step.at.netuid, block);
        if (!pool) return null;
        const free = state.free[demo.index]!;
        const alpha = min(part(step.at, 5n), ((free / 4n) * pool.alphaIn) / pool.tao);
        if (alpha <= 0n) return null;
        const fill = openPosition(step.positionId, alpha, pool.tao, pool.alphaIn);
        this.#openedLiquidity.set(step.positionId, fill);
        return {
          ...base,
          hotkey: step.at.hotkey,
          netuid: step.at.netuid,
          tao: fill.tao,
          alpha,
          liquidity: fill,
        };
      }
      case 'liquidity-remove':
      case 'liquidity-refund': {
        // Closed at the pool's price of its block, with 0.2 % to 0.5 % of each side earned in fees. A refund
        // by `disable_lp` pays the TAO principal only (its TAO fees are not paid out) and stakes the alpha
        // principal and fees; `remove_liquidity` pays all four.
        const opened = this.#openedLiquidity.get(step.positionId);
        const pool = this.#poolOf(step.at.netuid, block);
        if (!opened || !pool) return null;
        const closed = closePosition(opened, pool.tao, pool.alphaIn, 2_000n + random.bigint(0n, 3_000n));
        const refund = step.kind === 'liquidity-refund';
        return {
          ...base,
          hotkey: step.at.hotkey,
          netuid: step.at.netuid,
          tao: refund ? closed.tao : closed.tao + closed.feeTao,
          alpha: closed.alpha + closed.feeAlpha,
          liquidity: closed,
        };
      }
      case 'crowdloan-contribute': {
        const tao = (state.free[demo.index]! * random.bigint(2n, 5n)) / 100n;
        if (tao <= 0n) return null;
        this.#contributions.set(step.crowdloanId, tao);
        return {
          ...base,
          tao,
          crowdloan: { id: step.crowdloanId, account: crowdloanAccount(step.crowdloanId) },
        };
      }
      case 'crowdloan-refund': {
        const tao = this.#contributions.get(step.crowdloanId);
        if (tao === undefined) return null;
        return {
          ...base,
          tao,
          crowdloan: { id: step.crowdloanId, account: crowdloanAccount(step.crowdloanId) },
        };
      }
      case 'lease-dividends-credited': {
        // Before spec 361 the contributors' cut was unstaked and paid as TAO (subnets/leasing.rs at 4d3a7ab34).
        const alpha = random.bigint(1n, 4n) * RAO_PER_UNIT + random.bigint(0n, RAO_PER_UNIT);
        return {
          ...base,
          hotkey: step.to.hotkey,
          netuid: step.to.netuid,
          alpha,
          tao: this.#toTao(step.to.netuid, block, alpha),
          lease: { id: step.leaseId, coldkey: step.leaseColdkey },
        };
      }
      case 'hotkey-swap':
        return {
          ...base,
          coldkey: step.owner,
          hotkey: this.validators[step.from]!,
          destHotkey: this.validators[step.to]!,
          hotkeySwap: { from: step.from, to: step.to },
        };
      case 'dissolution':
        return { ...base, netuid: step.netuid, payouts: this.#payouts(state, step.netuid, block) };
      case 'coldkey-swap':
        return {
          ...base,
          destColdkey: this.stakers[step.successor]!.coldkey,
          tao: state.free[demo.index]!,
        };
      case 'limit-orders':
        return this.#limitOrders(state, block, base);
      case 'unstake-all': {
        // A non-root position of the holder (not one the sweep was sized for) whose removal leaves a share
        // worth under a rao (one in a pool with other holders, where the subtraction is not exact): the one
        // leaving the least, so that the pool's growth takes longest to lift it to a whole rao.
        const holder = this.holderAt(block);
        const sweep = new Set(this.sweepPositions.map((s) => s.position));
        const leftover = (pool: string, alpha: bigint) => this.#leftover(state, holder, pool, alpha);
        const candidates = holder.positions
          .filter((p) => p.netuid !== 0 && !sweep.has(p) && this.#poolOf(p.netuid, block) !== null)
          .map((p) => {
            const alpha = currentAlphaOf(state, holder.index, p.pool);
            return { p, alpha, left: alpha > 0n ? leftover(p.pool, alpha) : null };
          })
          .filter((c): c is { p: Position; alpha: bigint; left: bigint } => c.left !== null)
          .sort((a, b) => (a.left < b.left ? -1 : a.left > b.left ? 1 : a.p.netuid - b.p.netuid));
        const chosen = candidates[0];
        if (!chosen) return null;
        const gross = this.#toTao(chosen.p.netuid, block, chosen.alpha);
        const fee = gross / 2_000n;
        return {
          ...base,
          coldkey: holder.coldkey,
          hotkey: chosen.p.hotkey,
          netuid: chosen.p.netuid,
          alpha: chosen.alpha,
          tao: gross - fee,
          fee,
        };
      }
    }
  }

  /**
   * The TAO fee of staking or unstaking `tao` at `block`: from spec 283 the swap pallet's fee rate
   * (`pallets/swap/src/pallet/mod.rs` `DefaultFeeRate`: 0.3 % at 283, 0.05 % from 297); before it a flat
   * `DefaultStakingFee` of 50,000 rao (`pallets/subtensor/src/lib.rs`, charged by `staking/add_stake.rs`
   * and, as its floor, by `calculate_staking_fee` in `staking/stake_utils.rs`), never more than the amount.
   */
  #stakingFee(block: number, tao: bigint): bigint {
    const features = this.#eraAt(block).features;
    if (features.swapPallet) return (tao * BigInt(features.swapFeeBasisPoints)) / 10_000n;
    return tao < DEFAULT_STAKING_FEE ? tao : DEFAULT_STAKING_FEE;
  }

  /**
   * What removing all `alpha` of `holder`'s position in `pool` leaves, in 10^-12 rao (a share worth under a rao
   * that spec 473 lists at stake 0), or null when the subtraction is exact and nothing is left.
   */
  #leftover(state: StakeState, holder: Staker, pool: string, alpha: bigint): bigint | null {
    const shares = state.pools.get(pool)!;
    const share = shareOf(state, holder.index, pool);
    const after = updateValueForOne(shares.alpha, share, denominatorOf(shares), -alpha);
    if (isZero(after.share)) return null;
    const value = mulDiv(safeFloat(shares.alpha - alpha), after.share, after.denominator);
    if (!value) return null;
    const e = value.exponent + 12n;
    return e >= 0n ? value.mantissa * 10n ** e : value.mantissa / 10n ** -e;
  }

  /**
   * The demo's limit orders (`world/limit-orders.ts`), by its holder at `block`: on a subnet where it holds two
   * positions (two hotkeys), a take-profit selling all of one (of all such, the sale leaving the least: a
   * share worth under a rao, listed at stake 0 after) and a limit buy of a tenth of its free TAO into the
   * other, in one batch.
   */
  #limitOrders(state: StakeState, block: number, base: StakingAction): StakingAction | null {
    const holder = this.holderAt(block);
    const sweep = new Set(this.sweepPositions.map((s) => s.position));
    const held = holder.positions
      .filter((p) => p.netuid !== 0 && !sweep.has(p) && this.#poolOf(p.netuid, block) !== null)
      .map((p) => ({ p, alpha: currentAlphaOf(state, holder.index, p.pool) }))
      .filter(({ alpha }) => alpha > 0n);
    // Every (sell, buy) pair on one subnet; the sale leaving the least (under a rao: listed at stake 0).
    const pairs = held
      .map((sell) => ({
        sell,
        buy: held.find((h) => h.p.netuid === sell.p.netuid && h.p !== sell.p),
        left: this.#leftover(state, holder, sell.p.pool, sell.alpha),
      }))
      .filter(
        (c): c is { sell: (typeof held)[number]; buy: (typeof held)[number]; left: bigint } =>
          c.buy !== undefined && c.left !== null,
      )
      .sort((a, b) => (a.left < b.left ? -1 : a.left > b.left ? 1 : a.sell.p.netuid - b.sell.p.netuid));
    const chosen = pairs[0];
    if (!chosen) return null;
    const { sell, buy } = chosen;
    const netuid = sell.p.netuid;
    const reserves = this.#poolOf(netuid, block)!;
    const batch = executeBatch({
      signer: holder.coldkey,
      netuid,
      buyHotkey: buy.p.hotkey,
      sellHotkey: sell.p.hotkey,
      buyTao: state.free[holder.index]! / 10n,
      sellAlpha: sell.alpha,
      feeRate: LIMIT_ORDER_FEE_PERBILL,
      feeRecipient: deriveAccount(this.#params.seed, 'limit-orders/fee-recipient'),
      reserves,
      expiryMs: BigInt(this.#timeline.timeOf(block) + DAY_MS),
      chainId: BITTENSOR_EVM_CHAIN_ID,
    });
    if (!batch) return null;
    return {
      ...base,
      coldkey: holder.coldkey,
      hotkey: sell.p.hotkey,
      netuid,
      tao: batch.buy.taoIn,
      alpha: batch.sell.alphaIn,
      fee: batch.buy.fee + batch.sell.fee,
      destHotkey: buy.p.hotkey,
      destNetuid: netuid,
      limitOrders: batch,
    };
  }

  /** Who holds the demo's stake at `block`: the demo coldkey, or its successor from the coldkey swap on. */
  holderAt(block: number): Staker {
    const retired = this.#retired;
    return retired?.coldkey && block >= retired.coldkeyFrom ? this.successor! : this.demo;
  }

  /**
   * What a dissolution pays each tracked holder (`staking/remove_stake.rs`, `destroy_alpha_in_out_stakes`):
   * the subnet's TAO pot × the holder's alpha ÷ all alpha (the protocol's `SubnetAlphaIn`, the untracked
   * holders' `SubnetAlphaOut`, the tracked holders'), floored. The chain's largest-remainder rao go to
   * untracked holders here.
   */
  #payouts(state: StakeState, netuid: number, block: number): DissolutionPayout[] {
    const pool = this.#poolOf(netuid, block - 1);
    const holders: DissolutionPayout[] = [];
    let tracked = 0n;
    for (const staker of this.stakers) {
      const alpha = new Map<string, bigint>();
      let total = 0n;
      for (const key of state.pools.keys()) {
        if (!key.endsWith(`:${netuid}`)) continue;
        const value = this.runsSpec425(block)
          ? currentAlphaOf(state, staker.index, key)
          : alphaOf(state.pools.get(key), state.shares[staker.index]!.get(key) ?? 0n);
        if (value > 0n) {
          alpha.set(key, value);
          total += value;
        }
      }
      if (total > 0n) {
        holders.push({ staker, alpha, tao: total });
        tracked += total;
      }
    }
    const pot = pool?.tao ?? 0n;
    const all = (pool?.alphaIn ?? 0n) + (pool?.alphaOut ?? 0n) + tracked;
    for (const holder of holders) holder.tao = all === 0n ? 0n : (pot * holder.tao) / all;
    return holders;
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
    // The fee is taken before the call runs (tao-fees.ts).
    if (action.taoFee) state.free[this.#staker(action.coldkey).index]! -= action.taoFee;
    if (isTaoMechanism(action)) {
      applyTaoMechanism(state, action, this.#staker(action.coldkey).index);
      return;
    }
    if (isEvmStaking(action)) {
      applyEvmStaking(state, action, this.demo.index, this.#staker(action.coldkey));
      return;
    }
    if (this.runsSpec425(action.block)) {
      this.#applySpec425(state, action);
      return;
    }
    if (action.kind === 'HotkeySwapped' || action.kind === 'NetworkRemoved') {
      this.#applyV1KeyChange(state, action);
      return;
    }
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
      // The 2025/26 life (world/dated-life.ts) on V1 shares.
      case 'AlphaRecycled':
        remove(from, position!.pool, action.alpha!);
        break;
      case 'AutoStakeAdded':
      case 'RootClaimed':
      case 'SubnetLeaseDividendsDistributed':
        add(from, position!.pool, action.alpha!);
        break;
      // User liquidity and crowdloans (world/user-liquidity.ts): `tao` leaves or reaches the free balance,
      // `alpha` the position (a refund's alpha goes to the position's hotkey: the subnet's top validator here).
      case 'LiquidityAdded':
        state.free[from.index]! -= action.tao;
        remove(from, position!.pool, action.alpha!);
        break;
      case 'LiquidityRemoved':
      case 'LiquidityRefunded':
        state.free[from.index]! += action.tao;
        add(from, position!.pool, action.alpha!);
        break;
      case 'CrowdloanContributed':
        state.free[from.index]! -= action.tao;
        break;
      case 'CrowdloanRefunded':
      case 'LeaseDividendsCredited':
        state.free[from.index]! += action.tao;
        break;
      default:
        this.#applyV1KeyChange(state, action);
    }
  }

  /**
   * A hotkey swap or a dissolution on V1 shares (before spec 425). `swap/swap_hotkey.rs` moves every `Alpha`
   * entry and the hotkey's `TotalHotkeyAlpha`/`TotalHotkeyShares` to the new hotkey unchanged;
   * `destroy_alpha_in_out_stakes` (`staking/remove_stake.rs`) credits each holder and removes the subnet's
   * stake.
   */
  #applyV1KeyChange(state: StakeState, action: StakingAction): void {
    if (action.kind === 'HotkeySwapped') {
      const swap = action.hotkeySwap!;
      for (const key of [...state.pools.keys()]) {
        const [index, netuid] = key.split(':').map(Number) as [number, number];
        if (index !== swap.from) continue;
        const target = `${swap.to}:${netuid}`;
        state.pools.set(target, state.pools.get(key)!);
        state.pools.delete(key);
        for (const own of state.shares) {
          const held = own.get(key);
          own.delete(key);
          if (held !== undefined) own.set(target, held);
        }
      }
      return;
    }
    if (action.kind === 'NetworkRemoved') {
      for (const payout of action.payouts ?? []) {
        for (const key of payout.alpha.keys()) state.shares[payout.staker.index]!.delete(key);
        state.free[payout.staker.index]! += payout.tao;
      }
      for (const key of [...state.pools.keys()])
        if (key.endsWith(`:${action.netuid}`)) state.pools.delete(key);
      return;
    }
    throw new Error(`stakers: ${action.kind} happens only from spec 425 on`);
  }

  /**
   * An action from spec 425 on: every change of a holding goes through the share pool's
   * `update_value_for_one` in SafeFloat (`primitives/share-pool`), which writes the entry and the
   * denominator to `AlphaV2`/`TotalHotkeySharesV2` and deletes their V1 entries (`staking/stake_utils.rs`,
   * `set_share`/`set_denominator`: the lazy migration).
   */
  #applySpec425(state: StakeState, action: StakingAction): void {
    const add = (staker: Staker, key: string, alpha: bigint) => addShares(state, staker.index, key, alpha);
    const remove = (staker: Staker, key: string, alpha: bigint) =>
      removeShares(state, staker.index, key, alpha);
    const poolOf = (staker: Staker, hotkey: Account | null, netuid: number | null) =>
      staker.positions.find((p) => p.hotkey === hotkey && p.netuid === netuid)?.pool;
    switch (action.kind) {
      case 'AlphaV2Migration':
        migrateBlock(state, this.#migrationContext(action.block));
        return;
      case 'HotkeySwapped': {
        const swap = action.hotkeySwap!;
        for (const key of [...state.pools.keys()]) {
          const [index, netuid] = key.split(':').map(Number) as [number, number];
          if (index !== swap.from) continue;
          const target = `${swap.to}:${netuid}`;
          const pool = state.pools.get(key)!;
          const moved = this.stakers.map((s) => currentAlphaOf(state, s.index, key));
          const outside = pool.alpha - moved.reduce((a, b) => a + b, 0n);
          if (!state.pools.has(target))
            state.pools.set(target, { alpha: 0n, shares: 0n, v2: SAFE_FLOAT_ZERO });
          // The untracked holders move first, as one: the new pool's shares start from their alpha.
          if (outside > 0n) {
            const fresh = state.pools.get(target)!;
            const update = updateValueForOne(fresh.alpha, SAFE_FLOAT_ZERO, denominatorOf(fresh), outside);
            fresh.alpha += outside;
            fresh.v2 = update.denominator;
            fresh.shares = 0n;
          }
          for (const staker of this.stakers) {
            const alpha = moved[staker.index]!;
            state.shares[staker.index]!.delete(key);
            state.sharesV2[staker.index]!.delete(key);
            if (alpha > 0n) add(staker, target, alpha);
          }
          state.pools.delete(key);
        }
        return;
      }
      case 'ColdkeySwapped': {
        const from = this.#staker(action.coldkey);
        const to = this.#staker(action.destColdkey);
        for (const key of [...state.pools.keys()]) {
          const alpha = currentAlphaOf(state, from.index, key);
          if (alpha === 0n) continue;
          remove(from, key, alpha);
          add(to, key, alpha);
        }
        state.free[to.index] = state.free[to.index]! + state.free[from.index]!;
        state.free[from.index] = 0n;
        return;
      }
      case 'NetworkRemoved': {
        for (const payout of action.payouts ?? []) {
          for (const key of payout.alpha.keys()) {
            state.shares[payout.staker.index]!.delete(key);
            state.sharesV2[payout.staker.index]!.delete(key);
          }
          state.free[payout.staker.index]! += payout.tao;
        }
        for (const key of [...state.pools.keys()])
          if (key.endsWith(`:${action.netuid}`)) state.pools.delete(key);
        return;
      }
      default:
        break;
    }
    const from = this.#staker(action.coldkey);
    const origin = poolOf(from, action.hotkey, action.netuid);
    switch (action.kind) {
      case 'AlphaRecycled':
        remove(from, origin!, action.alpha!);
        return;
      case 'AutoStakeAdded':
      case 'RootClaimed':
      case 'IncentiveAlphaEmittedToMiners':
        add(from, origin!, action.alpha!);
        return;
      case 'LimitOrdersExecuted': {
        // transfer_staked_alpha out of the sold position and into the bought one; TAO in and out.
        const batch = action.limitOrders!;
        remove(from, origin!, batch.sell.alphaIn);
        add(from, poolOf(from, batch.buy.hotkey, batch.netuid)!, batch.buy.alphaOut);
        state.free[from.index]! += batch.sell.taoOut - batch.buy.taoIn;
        return;
      }
      case 'SubnetLeaseDividendsDistributed': {
        // `subnets/leasing.rs`: transfer_stake_within_subnet from the lease coldkey (untracked) to the
        // contributor: the pool's alpha is unchanged, the untracked holders' part falls by the dividend.
        const pool = state.pools.get(origin!)!;
        const update = updateValueForOne(pool.alpha, SAFE_FLOAT_ZERO, denominatorOf(pool), -action.alpha!);
        pool.alpha -= action.alpha!;
        pool.v2 = update.denominator;
        pool.shares = 0n;
        add(from, origin!, action.alpha!);
        return;
      }
      case 'StakeAdded':
        state.free[from.index]! -= action.tao;
        add(from, origin!, action.alpha!);
        return;
      case 'StakeRemoved':
        if (action.alphaFee) remove(from, origin!, action.alphaFee);
        remove(from, origin!, action.alpha!);
        state.free[from.index]! += action.tao;
        return;
      case 'StakeMoved':
      case 'StakeSwapped':
      case 'StakeTransferred': {
        const to = action.destColdkey ? this.#staker(action.destColdkey) : from;
        remove(from, origin!, action.alpha!);
        add(to, poolOf(to, action.destHotkey, action.destNetuid)!, action.destAlpha!);
        return;
      }
      case 'Transfer': {
        const to = this.#staker(action.destColdkey);
        state.free[from.index]! -= action.tao;
        state.free[to.index]! += action.tao;
        return;
      }
    }
  }

  /**
   * The 2025/26 life's user liquidity positions open at `block` (`Swap.Positions`), and its crowdloan
   * contributions not refunded (`Crowdloan.Contributions`): from the life's sized steps up to the block.
   */
  openLiquidityAt(block: number): { positions: LiquidityFill[]; contributions: Map<number, bigint> } {
    const positions = new Map<number, LiquidityFill>();
    const contributions = new Map<number, bigint>();
    const kinds = new Set([
      'liquidity-add',
      'liquidity-remove',
      'liquidity-refund',
      'crowdloan-contribute',
      'crowdloan-refund',
    ]);
    for (const planned of this.life) {
      if (!planned.dated || planned.block > block || !kinds.has(planned.step.kind)) continue;
      const action = this.actionsAt(planned.block).find((a) => a.liquidity || a.crowdloan);
      if (!action) continue;
      if (action.kind === 'LiquidityAdded') positions.set(action.liquidity!.positionId, action.liquidity!);
      else if (action.liquidity) positions.delete(action.liquidity.positionId);
      else if (action.kind === 'CrowdloanContributed') contributions.set(action.crowdloan!.id, action.tao);
      else contributions.delete(action.crowdloan!.id);
    }
    return { positions: [...positions.values()], contributions };
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

  /** A staker's alpha in one pool at `block`, read as the runtime running that block reads it. */
  alphaAt(staker: Staker, pool: string, block: number): bigint {
    const state = this.stateAt(block);
    return this.runsSpec425(block)
      ? currentAlphaOf(state, staker.index, pool)
      : alphaOf(state.pools.get(pool), state.shares[staker.index]!.get(pool) ?? 0n);
  }

  findStaker(publicKeyHex: string): Staker | undefined {
    return this.stakers.find((s) => s.coldkey.hex === publicKeyHex);
  }

  /**
   * Spec 473 lists a position with stake 0 while its `AlphaV2` key remains (`StakingHotkeys` keeps the hotkey
   * while any alpha key of the pair remains): the positions of `staker` at `block` whose share is not zero but
   * whose alpha floors to 0. None before spec 473, and none for the demo coldkey after its coldkey swap
   * (`swap_coldkey.rs` moves its `StakingHotkeys` to the successor).
   */
  zeroStakeAt(staker: Staker, block: number): Position[] {
    if (!this.runsSpec473(block)) return [];
    const retired = this.#retired;
    if (retired?.coldkey === staker && block >= retired.coldkeyFrom) return [];
    const state = this.stateAt(block);
    const own = state.sharesV2[staker.index]!;
    const result: Position[] = [];
    for (const hotkey of staker.hotkeys) {
      const positions = staker.positions
        .filter((p) => p.hotkey === hotkey)
        .sort((a, b) => a.netuid - b.netuid);
      for (const position of positions) {
        const share = own.get(position.pool);
        if (share && share.mantissa > 0n && currentAlphaOf(state, staker.index, position.pool) === 0n)
          result.push(position);
      }
    }
    return result;
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
        const alpha = this.runsSpec425(block)
          ? currentAlphaOf(state, staker.index, position.pool)
          : alphaOf(state.pools.get(position.pool), shares);
        if (alpha > 0n) result.push({ position, alpha, shares });
      }
    }
    return result;
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
