/**
 * A network registration's lock and its refund, lived by the demo coldkey in tax year 2025/26 in a world placed
 * by date: it registers a subnet of its own on 3 September 2025 and, when root dissolves that subnet on
 * 12 November 2025, gets the lock back less what the runtime counts as its owner's emission. Read from
 * opentensor/subtensor:
 * - **the lock** (`subnets/subnet.rs`, `do_register_network`, at 312c0be95, 12 August 2025, the source of
 *   mainnet's specs 301 to 314): the lock cost is withdrawn from the coldkey's free TAO
 *   (`remove_balance_from_coldkey_account`: `Currency::withdraw`, a `Balances.Withdraw { who, amount }`), the
 *   pool starts with `NetworkMinLockCost` TAO and as much alpha (1 TAO since `migrate_rao`, e2b8367b8), the rest
 *   of the lock is burned (`burn_tokens`: `TotalIssuance` only, no event), the coldkey becomes `SubnetOwner`
 *   with its hotkey `SubnetOwnerHotkey`, and `NetworkAdded(netuid, mechanism)` names no coldkey. It receives no
 *   stake: only the owner's cut of emissions later, once the subnet's emission is started (never here).
 *   Until spec 320 no runtime stored the lock (`SubnetLocked` stayed 0 for a dTAO registration);
 * - **spec 320** (835a2c902, 24 September 2025): `migrate_restore_subnet_locked` writes `SubnetLocked` back for
 *   the subnets registered under dTAO (the lock cost at registration), registration stores it from then on and
 *   recycles the rest (`recycle_tao`), and `migrate_network_lock_reduction_interval` sets
 *   `NetworkRegistrationStartBlock` a week ahead; a dissolution (`coinbase/root.rs`, `do_dissolve_network` →
 *   `staking/remove_stake.rs`, `destroy_alpha_in_out_stakes`) refunds the owner `SubnetLocked` less the owner's
 *   emission in TAO. From spec 326 (ae2b37364, 7 October 2025) only a subnet registered before
 *   `NetworkRegistrationStartBlock` gets it (a lock paid later is recycled for good); from spec 342's hotfix
 *   (6a76ecc0d, 6 November 2025; mainnet's 343 of 7 November, source f86204dc4) the owner's emission is the
 *   subnet's alpha issuance (`SubnetAlphaIn + SubnetAlphaOut`) times the owner cut (`SubnetOwnerCut`,
 *   11,796 / 65,535) at the pool's current price, in U96F32 arithmetic;
 * - **the refund**: `add_balance_to_coldkey_account(owner, refund)` (`Currency::deposit`, a `Balances.Deposit
 *   { who, amount }`) after the holders' payouts and before `NetworkRemoved(netuid)`: no event says it is a
 *   refund. From spec 425 (14bc6f9) it is a transfer from the subnet's account instead.
 * The demo's subnet takes the netuid the world registers last (on the history's last day): it is free before.
 * Its emission never starts and nobody stakes on it, so its pool stays as registration set it (1 TAO, 1 alpha)
 * and the dissolution pays out nothing but the refund: lock − floor(1 alpha × 11,796 / 65,535) at price 1.
 */
import { RAO_PER_UNIT } from '../../amounts/rao.js';
import type { WorldParams } from '../options.js';
import { deriveAccount } from './accounts.js';
import { datedLifeBlock } from './dated-life.js';
import { rng } from './random.js';
import type { StakeState } from './stake-state.js';
import type { Staker, StakingAction } from './staking-action.js';
import { initialSubnets, type SubnetRegistration } from './subnets.js';
import { addSignedKinds } from './tao-fees.js';
import { Timeline } from './timeline.js';
import type { WorldEvent } from './world-event.js';

export type NetworkLockKind = 'NetworkRegistered' | 'NetworkLockRefunded';

/** `register_network` is the demo's own signed call; the dissolution is root's (`Sudo.sudo`). */
addSignedKinds(['NetworkRegistered']);

/** UTC date and hour of each step: the registration on spec 297's row (mainnet 306), the refund on 343's. */
export const NETWORK_LOCK_SCHEDULE: ReadonlyArray<[NetworkLockKind, string, number]> = [
  ['NetworkRegistered', '2025-09-03', 10],
  ['NetworkLockRefunded', '2025-11-12', 10],
];

/** `NetworkMinLockCost` on mainnet since dTAO (`migrate_rao` sets 1 TAO): the new pool's TAO and alpha. */
export const POOL_INITIAL_TAO = RAO_PER_UNIT;
/** `SubnetOwnerCut`'s default (`InitialSubnetOwnerCut`, 18 %), out of `u16::MAX`. */
const OWNER_CUT = 11_796n;
const U16_MAX = 65_535n;
const FRACTION_BITS = 32n;

/** Where the demo's network lives: its netuid and the blocks of its registration and dissolution. */
export interface DemoNetworkPlan {
  netuid: number;
  registeredAt: number;
  dissolvedAt: number;
}

/**
 * The demo's network in a world placed by date whose history holds both steps before the day the world
 * registers its last netuid (that netuid is free until then); null otherwise.
 */
export function demoNetworkPlan(
  params: Pick<WorldParams, 'runtimePlacement' | 'historyDays' | 'magnitudes'>,
  timeline: Timeline,
): DemoNetworkPlan | null {
  if (params.runtimePlacement !== 'dates') return null;
  const [registration, refund] = NETWORK_LOCK_SCHEDULE.map(([, date, hour]) =>
    datedLifeBlock(timeline, date, hour),
  );
  if (registration == null || refund == null) return null;
  if (refund >= timeline.firstBlockOfDay(Math.max(0, params.historyDays))) return null;
  return { netuid: initialSubnets(params) + 3, registeredAt: registration, dissolvedAt: refund };
}

/** The registration the demo's `register_network` makes (a subnet never started: its pool stays as set). */
export function demoNetworkRegistration(params: WorldParams): SubnetRegistration | null {
  const timeline = new Timeline(params.genesisMs, params.blockTimeMs);
  const plan = demoNetworkPlan(params, timeline);
  if (plan === null) return null;
  return {
    netuid: plan.netuid,
    registeredAt: plan.registeredAt,
    deregisteredAt: plan.dissolvedAt,
    name: 'DemoNet',
    symbol: 'ש',
    owner: deriveAccount(params.seed, 'coldkey/0'),
    ownerHotkey: deriveAccount(params.seed, 'network-lock/owner-hotkey'),
    burnProfile: 'never',
    buybacks: false,
    recycles: false,
    poolFrom: plan.registeredAt,
    emissionFrom: Number.MAX_SAFE_INTEGER,
    suspensions: [],
    registeredByTracked: true,
    fixedPool: { tao: POOL_INITIAL_TAO, alphaIn: POOL_INITIAL_TAO, alphaOut: 0n },
  };
}

export interface NetworkLockStep {
  block: number;
  kind: NetworkLockKind;
  netuid: number;
}

/** The two steps, when the world holds the demo's network. */
export function planNetworkLock(
  params: Pick<WorldParams, 'runtimePlacement' | 'historyDays' | 'magnitudes'>,
  timeline: Timeline,
): NetworkLockStep[] {
  const plan = demoNetworkPlan(params, timeline);
  if (plan === null) return [];
  return [
    { block: plan.registeredAt, kind: 'NetworkRegistered', netuid: plan.netuid },
    { block: plan.dissolvedAt, kind: 'NetworkLockRefunded', netuid: plan.netuid },
  ];
}

export function isNetworkLockKind(kind: string): kind is NetworkLockKind {
  return kind === 'NetworkRegistered' || kind === 'NetworkLockRefunded';
}

/**
 * The owner's emission as `destroy_alpha_in_out_stakes` counts it (spec 342 on): the alpha issuance times the
 * owner cut, floored, at the pool's price, floored; U96F32 (32 fraction bits) throughout.
 */
export function ownerEmissionTao(pool: { tao: bigint; alphaIn: bigint; alphaOut: bigint }): bigint {
  const issuance = pool.alphaIn + pool.alphaOut;
  const cutBits = (OWNER_CUT << FRACTION_BITS) / U16_MAX;
  const ownerAlpha = (issuance * cutBits) >> FRACTION_BITS;
  if (ownerAlpha === 0n || pool.alphaIn === 0n) return 0n;
  const priceBits = (pool.tao << FRACTION_BITS) / pool.alphaIn;
  return (ownerAlpha * priceBits) >> FRACTION_BITS;
}

/**
 * The action of a step: the lock (drawn from the step's own stream, 100 to 400 TAO as mainnet's locks of 2025
 * were, never more than a quarter of the free TAO it meets), or the refund of what the registration locked.
 */
export function networkLockAction(
  seed: string,
  state: StakeState,
  demo: Staker,
  step: NetworkLockStep,
): StakingAction {
  const netuid = step.netuid;
  const base: StakingAction = {
    block: step.block,
    kind: step.kind,
    coldkey: demo.coldkey,
    hotkey: null,
    netuid,
    tao: 0n,
    alpha: null,
    fee: 0n,
    destColdkey: null,
    destHotkey: null,
    destNetuid: null,
    // A step of the 2025/26 life: the truth lists it among its actions.
    dated: true,
  };
  if (step.kind === 'NetworkRegistered') {
    const drawn = rng(seed, `network-lock/${step.block}`).bigint(100n * RAO_PER_UNIT, 400n * RAO_PER_UNIT);
    const cap = state.free[demo.index]! / 4n;
    return {
      ...base,
      hotkey: deriveAccount(seed, 'network-lock/owner-hotkey'),
      tao: drawn < cap ? drawn : cap,
    };
  }
  const locked = state.locked?.[demo.index] ?? 0n;
  const emission = ownerEmissionTao({ tao: POOL_INITIAL_TAO, alphaIn: POOL_INITIAL_TAO, alphaOut: 0n });
  return { ...base, tao: locked > emission ? locked - emission : 0n };
}

/** What a step does to the free TAO and the lock the coldkey holds a claim to. */
export function applyNetworkLock(state: StakeState, action: StakingAction, index: number): void {
  if (!state.locked) state.locked = state.free.map(() => 0n);
  if (action.kind === 'NetworkRegistered') {
    state.free[index]! -= action.tao;
    state.locked[index]! += action.tao;
  } else {
    state.locked[index] = 0n;
    state.free[index]! += action.tao;
  }
}

/** The step's own events (the registration's fee is added around them, `tao-fees.ts`). */
export function networkLockEvents(action: StakingAction): WorldEvent[] {
  const who = action.coldkey.publicKey;
  if (action.kind === 'NetworkRegistered') {
    return [
      { pallet: 'Balances', name: 'Withdraw', args: [who, action.tao] },
      { pallet: 'SubtensorModule', name: 'NetworkAdded', args: [action.netuid, 1] },
    ];
  }
  return [
    ...(action.tao > 0n ? [{ pallet: 'Balances', name: 'Deposit', args: [who, action.tao] }] : []),
    { pallet: 'SubtensorModule', name: 'NetworkRemoved', args: [action.netuid] },
  ];
}
