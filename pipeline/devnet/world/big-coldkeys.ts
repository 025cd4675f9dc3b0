// Coldkeys like mainnet's biggest (option `bigColdkeys`, docs/sandbox.md "Big coldkeys"): a validator taking
// its take on its own hotkey, a subnet owner taking the owner cut, a miner earning incentive and paying for
// registrations, and a staker in over a hundred subnets who adds stake to each every day. Every draw comes
// from streams of their own ("big-coldkeys/…"), and their hotkeys are new: no pool the other coldkeys hold
// is touched, so the rest of the world, the demo coldkey's life and its truths are as they were.
import { RAO_PER_UNIT } from '../../amounts/rao.js';
import { type Account, deriveAccount } from './accounts.js';
import type { Position } from './position.js';
import { rng } from './random.js';
import { addShares, SHARE_ONE, type StakeState } from './stake-state.js';
import type { Staker } from './staking-action.js';

export type BigColdkeyRole = 'validator' | 'subnet-owner' | 'miner' | 'wide-staker';

export const BIG_COLDKEY_ROLES: readonly BigColdkeyRole[] = [
  'validator',
  'subnet-owner',
  'miner',
  'wide-staker',
];

/** One rao-valued range [lo, hi], whole TAO or alpha. */
type Range = readonly [bigint, bigint];

/**
 * The magnitudes, per day and per subnet unless said (docs/sandbox.md names each one's source or says
 * why it is an estimate). Alpha emission is one alpha a block, 7,200 a day, before its halving.
 */
export const BIG_COLDKEY_MAGNITUDES = {
  /** The validator's own stake on its hotkey on each subnet it validates, at genesis (alpha). */
  validatorOwnStake: [2_000n, 20_000n] as Range,
  /** Its delegators' stake on each of those pools (alpha): untracked holders. */
  validatorDelegated: [100_000n, 1_500_000n] as Range,
  /** Its take (18 %) of the dividends its hotkey earns on a subnet, a day (alpha). */
  validatorTakePerDay: [20n, 120n] as Range,
  /** Subnets the validator validates on (besides root). */
  validatorSubnets: 48,
  /** Subnets the owner owns. */
  ownerSubnets: 2,
  /** The owner cut, 18 % of the subnet's 7,200 alpha a day, scaled by how much of the day it emits (alpha). */
  ownerCutPerDay: [900n, 1_296n] as Range,
  /** The owner's own stake on its hotkey at genesis (alpha). */
  ownerOwnStake: [20_000n, 150_000n] as Range,
  /** The miner's subnets, and hotkeys on each. */
  minerSubnets: 5,
  minerHotkeysPerSubnet: 2,
  /** A good miner's incentive a day on one hotkey (alpha): a few per cent of the miners' 41 %. */
  minerIncentivePerDay: [30n, 250n] as Range,
  /** `Burn` of one registration (TAO, tenths): 0.1 to 2.5 TAO. */
  registrationBurnTenths: [1n, 25n] as Range,
  /** Days between two registrations of the miner. */
  registrationEveryDays: 10,
  /** The wide staker's daily add_stake on each subnet (TAO, hundredths): 0.02 to 0.2 TAO. */
  wideDailyStakeHundredths: [2n, 20n] as Range,
  /** The wide staker's subnets (all it can have, at least a hundred in the mainnet world). */
  wideSubnets: 100,
  /** Its genesis stake on each position (alpha). */
  wideOwnStake: [5n, 200n] as Range,
  /** Free TAO at genesis, each coldkey. */
  freeTao: [10_000n, 40_000n] as Range,
} as const;

export interface BigColdkey {
  role: BigColdkeyRole;
  staker: Staker;
  /** Positions credited at each day's start with no event naming them: take, owner cut or incentive. */
  credited: Array<{ position: Position; perDay: Range }>;
  /** Positions the coldkey adds stake to every day in one block (the wide staker). */
  daily: Position[];
  /** Positions re-registered (a burned registration) every few days (the miner). */
  registered: Position[];
  /** Genesis stake, by position (alpha, rao). */
  genesis: Array<{ position: Position; alpha: bigint; outside: bigint }>;
}

export interface BigColdkeyPlan {
  coldkeys: BigColdkey[];
}

interface PlanInputs {
  seed: string;
  /** Index of the first staker to add (after every other coldkey). */
  firstIndex: number;
  /** The world's hotkeys: new ones are appended. */
  validators: Account[];
  /** Subnets from genesis that are never deregistered, nor dissolved by the demo's life (not root). */
  netuids: readonly number[];
}

const tao = (n: bigint) => n * RAO_PER_UNIT;

/** Plans the four coldkeys: positions on new hotkeys (pools `hotkeyIndex:netuid`), genesis stake, credits. */
export function planBigColdkeys(inputs: PlanInputs): BigColdkeyPlan {
  const { seed, validators } = inputs;
  const m = BIG_COLDKEY_MAGNITUDES;
  const random = rng(seed, 'big-coldkeys/plan');
  const hotkey = (name: string) => {
    validators.push(deriveAccount(seed, `big-coldkeys/${name}`));
    return validators.length - 1;
  };
  const position = (hotkeyIndex: number, netuid: number): Position => ({
    hotkey: validators[hotkeyIndex]!,
    netuid,
    pool: `${hotkeyIndex}:${netuid}`,
  });
  const draw = ([lo, hi]: Range) => tao(random.bigint(lo, hi)) + random.bigint(0n, RAO_PER_UNIT);
  const shuffled = [...inputs.netuids];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const staker = (role: BigColdkeyRole, offset: number): Staker => ({
    index: inputs.firstIndex + offset,
    coldkey: deriveAccount(seed, `big-coldkeys/coldkey/${role}`),
    demo: false,
    positions: [],
    drawable: [],
    hotkeys: [],
  });
  const hold = (s: Staker, p: Position) => {
    s.positions.push(p);
    s.drawable.push(p);
    if (!s.hotkeys.includes(p.hotkey)) s.hotkeys.push(p.hotkey);
  };
  const coldkeys: BigColdkey[] = [];

  // The validator: its own hotkey on root and on the subnets it validates; the take lands on its own stake.
  const validatorHotkey = hotkey('validator-hotkey');
  const validator: BigColdkey = {
    role: 'validator',
    staker: staker('validator', 0),
    credited: [],
    daily: [],
    registered: [],
    genesis: [],
  };
  for (const netuid of [0, ...shuffled.slice(0, m.validatorSubnets)]) {
    const p = position(validatorHotkey, netuid);
    hold(validator.staker, p);
    validator.genesis.push({
      position: p,
      alpha: draw(m.validatorOwnStake),
      outside: draw(m.validatorDelegated),
    });
    if (netuid !== 0) validator.credited.push({ position: p, perDay: m.validatorTakePerDay });
  }
  coldkeys.push(validator);

  // The subnet owner: its owner hotkey on its subnets takes the owner cut; it also delegates to the validator.
  const ownerHotkey = hotkey('owner-hotkey');
  const owner: BigColdkey = {
    role: 'subnet-owner',
    staker: staker('subnet-owner', 1),
    credited: [],
    daily: [],
    registered: [],
    genesis: [],
  };
  for (const netuid of shuffled.slice(-m.ownerSubnets)) {
    const p = position(ownerHotkey, netuid);
    hold(owner.staker, p);
    owner.genesis.push({ position: p, alpha: draw(m.ownerOwnStake), outside: draw([1_000n, 10_000n]) });
    owner.credited.push({ position: p, perDay: m.ownerCutPerDay });
  }
  for (const netuid of [0, ...shuffled.slice(0, 4)]) {
    const p = position(validatorHotkey, netuid);
    hold(owner.staker, p);
    owner.genesis.push({ position: p, alpha: draw([500n, 5_000n]), outside: 0n });
  }
  coldkeys.push(owner);

  // The miner: two hotkeys on each of its subnets, incentive on each, one re-registered every few days.
  const miner: BigColdkey = {
    role: 'miner',
    staker: staker('miner', 2),
    credited: [],
    daily: [],
    registered: [],
    genesis: [],
  };
  for (const netuid of shuffled.slice(m.validatorSubnets, m.validatorSubnets + m.minerSubnets)) {
    for (let h = 0; h < m.minerHotkeysPerSubnet; h++) {
      const p = position(hotkey(`miner-hotkey/${netuid}/${h}`), netuid);
      hold(miner.staker, p);
      miner.genesis.push({ position: p, alpha: draw([10n, 300n]), outside: 0n });
      miner.credited.push({ position: p, perDay: m.minerIncentivePerDay });
      miner.registered.push(p);
    }
  }
  coldkeys.push(miner);

  // The wide staker: the validator's hotkey on every subnet it can reach, and a second hotkey on each.
  const wideHotkey = hotkey('wide-second-hotkey');
  const wide: BigColdkey = {
    role: 'wide-staker',
    staker: staker('wide-staker', 3),
    credited: [],
    daily: [],
    registered: [],
    genesis: [],
  };
  const wideNetuids = [...inputs.netuids].sort((a, b) => a - b).slice(0, m.wideSubnets);
  for (const netuid of wideNetuids) {
    for (const h of [validatorHotkey, wideHotkey]) {
      const p = position(h, netuid);
      hold(wide.staker, p);
      wide.genesis.push({
        position: p,
        alpha: draw(m.wideOwnStake),
        outside: h === wideHotkey ? draw([20_000n, 200_000n]) : 0n,
      });
      if (h === validatorHotkey) wide.daily.push(p);
    }
  }
  coldkeys.push(wide);
  return { coldkeys };
}

/**
 * Adds the coldkeys' genesis stake to a state of V1 shares at a share price of one (pools it meets keep
 * their price), and their free TAO.
 */
export function seedBigColdkeys(plan: BigColdkeyPlan, state: StakeState, seed: string): void {
  const random = rng(seed, 'big-coldkeys/genesis');
  for (const big of plan.coldkeys) {
    const index = big.staker.index;
    while (state.shares.length <= index) state.shares.push(new Map());
    while (state.free.length <= index) state.free.push(0n);
    const own = state.shares[index]!;
    for (const { position, alpha, outside } of big.genesis) {
      let pool = state.pools.get(position.pool);
      if (!pool) {
        pool = { alpha: 0n, shares: 0n };
        state.pools.set(position.pool, pool);
      }
      if (outside > 0n) {
        pool.shares += pool.alpha === 0n ? outside * SHARE_ONE : (outside * pool.shares) / pool.alpha;
        pool.alpha += outside;
      }
      const added = pool.alpha === 0n ? alpha * SHARE_ONE : (alpha * pool.shares) / pool.alpha;
      pool.alpha += alpha;
      pool.shares += added;
      own.set(position.pool, (own.get(position.pool) ?? 0n) + added);
    }
    const [lo, hi] = BIG_COLDKEY_MAGNITUDES.freeTao;
    state.free[index] = tao(random.bigint(lo, hi)) + random.bigint(0n, RAO_PER_UNIT);
  }
}

/**
 * The day's take, owner cut and incentive, credited at the day's start as the chain credits them
 * (`increase_stake_for_hotkey_and_coldkey_on_subnet` in `coinbase/run_coinbase.rs`: no event names the
 * coldkey). `v2` says whether the day's first block runs spec 425's share pools.
 */
export function creditBigColdkeys(
  plan: BigColdkeyPlan,
  state: StakeState,
  seed: string,
  day: number,
  v2: boolean,
): void {
  for (const big of plan.coldkeys) {
    const index = big.staker.index;
    for (const { position, perDay } of big.credited) {
      const pool = state.pools.get(position.pool);
      if (!pool) continue;
      const random = rng(seed, `big-coldkeys/credit/${position.pool}/${day}`);
      const alpha = tao(random.bigint(perDay[0], perDay[1])) + random.bigint(0n, RAO_PER_UNIT);
      if (v2) {
        addShares(state, index, position.pool, alpha);
        continue;
      }
      const own = state.shares[index]!;
      const added = pool.alpha === 0n ? alpha * SHARE_ONE : (alpha * pool.shares) / pool.alpha;
      pool.alpha += alpha;
      pool.shares += added;
      own.set(position.pool, (own.get(position.pool) ?? 0n) + added);
    }
  }
}

/** One signed call of a big coldkey on `day`: an add_stake, or a burned registration. */
export interface BigColdkeyCall {
  block: number;
  staker: Staker;
  kind: 'StakeAdded' | 'NeuronRegistered';
  position: Position;
  /** TAO staked, or the registration's burn (rao). */
  tao: bigint;
}

/** The day's calls, in one block each coldkey (drawn from the day's own stream). */
export function bigColdkeyCalls(
  plan: BigColdkeyPlan,
  seed: string,
  day: number,
  firstAction: number,
  last: number,
): BigColdkeyCall[] {
  if (day < 1 || last < firstAction) return [];
  const m = BIG_COLDKEY_MAGNITUDES;
  const random = rng(seed, `big-coldkeys/day/${day}`);
  const calls: BigColdkeyCall[] = [];
  for (const big of plan.coldkeys) {
    const block = random.int(firstAction, last);
    for (const position of big.daily) {
      const hundredths = random.bigint(m.wideDailyStakeHundredths[0], m.wideDailyStakeHundredths[1]);
      calls.push({
        block,
        staker: big.staker,
        kind: 'StakeAdded',
        position,
        tao: (RAO_PER_UNIT * hundredths) / 100n,
      });
    }
    if (big.registered.length > 0 && day % m.registrationEveryDays === 0) {
      const position = big.registered[(day / m.registrationEveryDays) % big.registered.length]!;
      const tenths = random.bigint(m.registrationBurnTenths[0], m.registrationBurnTenths[1]);
      calls.push({
        block,
        staker: big.staker,
        kind: 'NeuronRegistered',
        position,
        tao: (RAO_PER_UNIT * tenths) / 10n,
      });
    }
  }
  return calls;
}
