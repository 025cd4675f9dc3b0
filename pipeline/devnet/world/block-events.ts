import type { RuntimeFeatures } from '../runtime/runtime-eras.js';
import type { BurnAction } from './burns.js';
import { evmStakingEvents, isEvmStaking } from './evm-staking.js';
import {
  type BodyCall,
  blockAuthor,
  burnWrapper,
  type ExtrinsicBody,
  trafficFor,
} from './mainnet-traffic.js';
import { rng } from './random.js';
import { spec425Events } from './spec-425-events.js';
import type { StakingAction } from './stakers.js';
import { subnetAccount } from './subnet-account.js';
import type { SubnetRegistration } from './subnets.js';
import { taoFeeEvents } from './tao-fees.js';
import { isTaoMechanism, taoMechanismEvents } from './tao-mechanisms.js';
import { MECHANISM_KINDS, mechanismEvents, namingEventOf } from './user-liquidity.js';
import type { WorldEvent } from './world-event.js';

/** An event placed in a block: `System.Events` order, emitted by extrinsic `extrinsic`. */
export interface PlacedEvent {
  index: number;
  /**
   * ApplyExtrinsic(extrinsic); -1 for an event of the block's initialization (phase Initialization), -2 for
   * one of its finalization (phase Finalization: `on_idle`, after every extrinsic).
   */
  extrinsic: number;
  event: WorldEvent;
}

/** Where one action's events landed: the event naming it, and every event of its extrinsic (in order). */
export interface PlacedAction<A> {
  action: A;
  eventIndex: number;
  extrinsic: number;
  /** All the action's events (without `System.ExtrinsicSuccess`), in `System.Events` order. */
  events: number[];
}

/** What happened in one block, with where each action's events landed (for the truth). */
export interface BlockEvents {
  block: number;
  events: PlacedEvent[];
  extrinsicCount: number;
  burns: Array<PlacedAction<BurnAction>>;
  staking: Array<PlacedAction<StakingAction>>;
  /** StakeAdded events of buybacks (they are staking events too). */
  buybackStakes: Array<PlacedAction<BurnAction>>;
  /** Bodies of the filler extrinsics and of wrapped burns, by extrinsic index (mainnet-traffic.ts). */
  bodies?: Map<number, ExtrinsicBody>;
}

export interface BlockInputs {
  seed: string;
  block: number;
  /** What the runtime that runs the block can do (the stake events' field count among them). */
  features: RuntimeFeatures;
  /** The block holds a runtime upgrade's `set_code` (`System.CodeUpdated`). */
  codeUpdated: boolean;
  /** First block of spec 425 (null: none); its `set_code` is in the block before. */
  spec425Block: number | null;
  /** First block of spec 473 (null: none); its `set_code` is in the block before. */
  spec473Block: number | null;
  burns: BurnAction[];
  staking: StakingAction[];
  registered: SubnetRegistration[];
  deregistered: SubnetRegistration[];
  /** Netuids alive at the block, for unrelated weight-setting extrinsics. */
  liveNetuids: number[];
  /** Fees are paid to the block's author (spec 385 on, world/tao-fees.ts); before, burned. */
  feesToAuthor?: boolean;
  /** Mainnet's traffic around the world's actions, about this many events a block; null or absent: none. */
  eventsPerBlock?: number | null;
}

function success(mandatory: boolean, refTime: number): WorldEvent {
  return {
    pallet: 'System',
    name: 'ExtrinsicSuccess',
    args: [
      {
        weight: { refTime, proofSize: mandatory ? 1_493 : 4_000 + (refTime % 9_000) },
        class: mandatory ? 'Mandatory' : 'Normal',
        paysFee: mandatory ? 'No' : 'Yes',
      },
    ],
  };
}

/**
 * Assembles a block's `System.Events`: the timestamp inherent first, then every planned action as its
 * own extrinsic (with the events the real pallet emits), then a few unrelated weight-setting extrinsics.
 * Each extrinsic ends with `System.ExtrinsicSuccess`, all with phase ApplyExtrinsic(i).
 */
export function assembleBlock(inputs: BlockInputs): BlockEvents {
  const events: PlacedEvent[] = [];
  const result: BlockEvents = {
    block: inputs.block,
    events,
    extrinsicCount: 0,
    burns: [],
    staking: [],
    buybackStakes: [],
  };
  let extrinsic = 0;
  const emit = (event: WorldEvent) => {
    events.push({ index: events.length, extrinsic, event });
    return events.length - 1;
  };
  const finish = (mandatory: boolean, weight: number) => {
    emit(success(mandatory, weight));
    extrinsic += 1;
  };

  const onSpec425 = inputs.spec425Block !== null && inputs.block >= inputs.spec425Block;
  const placeAll = (action: StakingAction, list: WorldEvent[], main: string) => {
    const indexes = list.map((event) => emit(event));
    const at = list.findIndex((e) => e.name === main);
    result.staking.push({
      action,
      // -1: an action without events (a migration block that only converted rows).
      eventIndex: indexes.length === 0 ? -1 : indexes[at < 0 ? indexes.length - 1 : at]!,
      extrinsic,
      events: indexes,
    });
  };
  // Epoch events come before the first extrinsic, in phase Initialization (before spec 425 only the
  // 2025/26 life's auto-stake has one).
  for (const action of inputs.staking) {
    if (!EPOCH_KINDS.has(action.kind)) continue;
    const saved = extrinsic;
    extrinsic = -1;
    if (MECHANISM_KINDS.has(action.kind)) placeAll(action, mechanismEvents(action), namingEventOf(action));
    else placeAll(action, spec425Events(action), action.kind);
    extrinsic = saved;
  }
  finish(true, 6_305_000); // timestamp.set
  if (inputs.codeUpdated) {
    emit({ pallet: 'System', name: 'CodeUpdated', args: [] });
    finish(false, 1_000_000_000);
  }
  for (const subnet of inputs.deregistered) {
    const dissolution = inputs.staking.find((a) => a.kind === 'NetworkRemoved' && a.netuid === subnet.netuid);
    // The demo's own network dissolved by root, its lock refunded (network-lock.ts).
    const refund = inputs.staking.find((a) => a.kind === 'NetworkLockRefunded' && a.netuid === subnet.netuid);
    if (refund) placeAll(refund, taoMechanismEvents(refund, 0), 'NetworkRemoved');
    else if (dissolution) {
      const list = onSpec425 ? spec425Events(dissolution) : creditedDissolutionEvents(dissolution);
      placeAll(dissolution, list, 'NetworkRemoved');
    } else emit({ pallet: 'SubtensorModule', name: 'NetworkRemoved', args: [subnet.netuid] });
    finish(false, 90_000_000);
  }
  for (const subnet of inputs.registered) {
    emit({ pallet: 'SubtensorModule', name: 'NetworkAdded', args: [subnet.netuid, 1] });
    finish(false, 250_000_000);
  }
  const traffic = (inputs.eventsPerBlock ?? null) !== null;
  if (traffic) result.bodies = new Map();
  for (const [burnIndex, action] of inputs.burns.entries()) {
    const wrapper =
      traffic && action.kind !== 'buyback' ? burnWrapper(inputs.seed, inputs.block, burnIndex) : null;
    if (wrapper) result.bodies!.set(extrinsic, wrapper.body(burnCall(action), action.coldkey.publicKey));
    for (const event of wrapper?.before ?? []) emit(event);
    const who = action.coldkey.publicKey;
    const hotkey = action.hotkey.publicKey;
    const netuid = action.subnet.netuid;
    if (action.kind === 'buyback') {
      const tao = action.tao ?? 0n;
      const leg = onSpec425 ? [emit(transferEvent(who, subnetAccount(netuid).publicKey, tao))] : [];
      const stakeIndex = emit({
        pallet: 'SubtensorModule',
        name: 'StakeAdded',
        args: [who, hotkey, tao, action.alpha, netuid, action.fee],
      });
      const burnIndex = emit({
        pallet: 'SubtensorModule',
        name: 'AlphaBurned',
        args: [who, hotkey, action.alpha, netuid],
      });
      const summaryIndex = emit({
        pallet: 'SubtensorModule',
        name: 'AddStakeBurn',
        args: [netuid, hotkey, tao, action.alpha],
      });
      const events = [...leg, stakeIndex, burnIndex, summaryIndex];
      result.buybackStakes.push({ action, eventIndex: stakeIndex, extrinsic, events });
      result.burns.push({ action, eventIndex: burnIndex, extrinsic, events });
    } else {
      const name = action.kind === 'recycle' ? 'AlphaRecycled' : 'AlphaBurned';
      const index = emit({ pallet: 'SubtensorModule', name, args: [who, hotkey, action.alpha, netuid] });
      result.burns.push({ action, eventIndex: index, extrinsic, events: [index] });
    }
    for (const event of wrapper?.after ?? []) emit(event);
    finish(false, 180_000_000);
  }
  for (const action of inputs.staking) {
    const outside = onSpec425
      ? EPOCH_KINDS.has(action.kind) ||
        FINALIZATION_KINDS.has(action.kind) ||
        action.kind === 'NetworkRemoved'
      : EPOCH_KINDS.has(action.kind) || action.kind === 'NetworkRemoved';
    if (outside || action.kind === 'NetworkLockRefunded') continue;
    // A tracked coldkey's TAO fee for its call (world/tao-fees.ts): not among the action's own events.
    const fee = taoFeeEvents(action, blockAuthor(inputs.seed), inputs.feesToAuthor ?? false);
    for (const event of fee.before) emit(event);
    if (isEvmStaking(action)) {
      // A call to the EVM staking precompile (world/evm-staking.ts): the stake event under the mapped account.
      const stake = stakingEvent(
        { ...action, kind: action.kind === 'EvmStakeAdded' ? 'StakeAdded' : 'StakeRemoved' },
        inputs.features,
      );
      placeAll(action, evmStakingEvents(action, stake), stake.name);
    } else if (isTaoMechanism(action)) {
      const uid = rng(inputs.seed, `registration-uid/${inputs.block}`).int(0, 255);
      const main = action.kind === 'EvmDeposit' || action.kind === 'EvmWithdraw' ? 'Transfer' : action.kind;
      placeAll(action, taoMechanismEvents(action, uid), main);
    } else if (onSpec425) {
      // A limit-order batch is named by its (first) OrderExecuted.
      placeAll(
        action,
        spec425Events(action),
        action.kind === 'LimitOrdersExecuted' ? 'OrderExecuted' : action.kind,
      );
    } else if (MECHANISM_KINDS.has(action.kind)) {
      // The 2025/26 life's user liquidity and crowdloans (world/user-liquidity.ts).
      placeAll(action, mechanismEvents(action), namingEventOf(action));
    } else if (DATED_LIFE_KINDS.has(action.kind)) {
      // The 2025/26 life's recycle, hotkey swap and root claim: one event each, of the shape the runtime of
      // their date emits (as spec 425's).
      placeAll(action, spec425Events(action), action.kind);
    } else {
      const index = emit(stakingEvent(action, inputs.features));
      result.staking.push({ action, eventIndex: index, extrinsic, events: [index] });
    }
    for (const event of fee.after) emit(event);
    finish(false, 220_000_000);
  }
  const random = rng(inputs.seed, `block/${inputs.block}`);
  const unrelated = inputs.liveNetuids.length > 0 ? random.int(0, 3) : 0;
  for (let i = 0; i < unrelated; i++) {
    emit({
      pallet: 'SubtensorModule',
      name: 'WeightsSet',
      args: [random.pick(inputs.liveNetuids), random.int(0, 255)],
    });
    finish(false, random.int(50_000_000, 900_000_000));
  }
  if (traffic) {
    const filler = trafficFor(
      { seed: inputs.seed, block: inputs.block, liveNetuids: inputs.liveNetuids },
      inputs.eventsPerBlock!,
      events.length,
    );
    for (const { body, events: list } of filler) {
      result.bodies!.set(extrinsic, body);
      for (const event of list) events.push({ index: events.length, extrinsic, event });
      extrinsic += 1;
    }
  }
  result.extrinsicCount = extrinsic;
  if (onSpec425) {
    // Work of `on_idle` comes after every extrinsic, in phase Finalization (frame-executive `finalize_block`).
    for (const action of inputs.staking) {
      if (!FINALIZATION_KINDS.has(action.kind)) continue;
      extrinsic = -2;
      placeAll(action, spec425Events(action), 'StakeRemoved');
    }
    extrinsic = result.extrinsicCount;
  }
  return result;
}

/** The call a burn was submitted with (its body inside a wrapper). */
export function burnCall(action: BurnAction): BodyCall {
  const hotkey = action.hotkey.publicKey;
  const netuid = action.subnet.netuid;
  if (action.kind === 'buyback') {
    return {
      pallet: 'SubtensorModule',
      call: 'add_stake_burn',
      args: { hotkey, netuid, amount: action.tao ?? 0n, limit: null },
    };
  }
  return {
    pallet: 'SubtensorModule',
    call: action.kind === 'recycle' ? 'recycle_alpha' : 'burn_alpha',
    args: { hotkey, amount: action.alpha, netuid },
  };
}

/** Steps of the demo's 2025/26 life placed as their own extrinsic before spec 425 (world/dated-life.ts). */
const DATED_LIFE_KINDS = new Set<string>(['AlphaRecycled', 'HotkeySwapped', 'RootClaimed']);

/**
 * A dissolution before spec 425 (`coinbase/root.rs` `do_dissolve_network`, `staking/remove_stake.rs`
 * `destroy_alpha_in_out_stakes` at spec 343): each holder's share is credited to its free balance
 * (`add_balance_to_coldkey_account`: `Currency::deposit`, a `Balances.Deposit`), then `NetworkRemoved`.
 */
function creditedDissolutionEvents(action: StakingAction): WorldEvent[] {
  return [
    ...(action.payouts ?? [])
      .filter((p) => p.tao > 0n)
      .map(
        (p): WorldEvent => ({
          pallet: 'Balances',
          name: 'Deposit',
          args: [p.staker.coldkey.publicKey, p.tao],
        }),
      ),
    { pallet: 'SubtensorModule', name: 'NetworkRemoved', args: [action.netuid] },
  ];
}

/** Actions of the block's finalization (`on_idle`), not of an extrinsic. */
const FINALIZATION_KINDS = new Set<string>(['AlphaV2Migration']);

/** Actions of the epoch (block initialization), not of an extrinsic. */
const EPOCH_KINDS = new Set<string>([
  'LeaseDividendsCredited',
  'AutoStakeAdded',
  'SubnetLeaseDividendsDistributed',
  'IncentiveAlphaEmittedToMiners',
]);

function transferEvent(from: Uint8Array, to: Uint8Array, amount: bigint): WorldEvent {
  return { pallet: 'Balances', name: 'Transfer', args: [from, to, amount] };
}

function stakingEvent(action: StakingAction, features: RuntimeFeatures): WorldEvent {
  const coldkey = action.coldkey.publicKey;
  const hotkey = action.hotkey?.publicKey;
  switch (action.kind) {
    case 'StakeAdded':
    case 'StakeRemoved':
      // Before spec 257 the event has five fields: the fee is charged but not reported, and a stake's tao is
      // what was staked after it (`tao_staked`, `staking/stake_utils.rs` at spec 233); an unstake's tao is
      // already what the coldkey received.
      return {
        pallet: 'SubtensorModule',
        name: action.kind,
        args: features.stakeEventFee
          ? [coldkey, hotkey, action.tao, action.alpha, action.netuid, action.fee]
          : [
              coldkey,
              hotkey,
              action.kind === 'StakeAdded' ? action.tao - action.fee : action.tao,
              action.alpha,
              action.netuid,
            ],
      };
    case 'StakeMoved':
      return {
        pallet: 'SubtensorModule',
        name: 'StakeMoved',
        args: [coldkey, hotkey, action.netuid, action.destHotkey?.publicKey, action.destNetuid, action.tao],
      };
    case 'StakeTransferred':
      return {
        pallet: 'SubtensorModule',
        name: 'StakeTransferred',
        args: [coldkey, action.destColdkey?.publicKey, hotkey, action.netuid, action.destNetuid, action.tao],
      };
    case 'StakeSwapped':
      return {
        pallet: 'SubtensorModule',
        name: 'StakeSwapped',
        args: [coldkey, hotkey, action.netuid, action.destNetuid, action.tao],
      };
    case 'Transfer':
      return {
        pallet: 'Balances',
        name: 'Transfer',
        args: [coldkey, action.destColdkey?.publicKey, action.tao],
      };
    default:
      throw new Error(`block events: ${action.kind} happens only from spec 425 on`);
  }
}
