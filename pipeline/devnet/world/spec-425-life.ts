import { HOUR_MS } from '../../time/utc-day.js';
import type { Account } from './accounts.js';
import type { LifeKind, Position, StakingKind } from './position.js';
import type { Timeline } from './timeline.js';

/**
 * The demo coldkey's life in spec 425: every way a holding changes that the issue
 * names, once each, on the days after the runtime upgrade (one life event a few hours apart on each of
 * seven days). The plan fixes what happens where; the amounts are sized from the state each meets.
 */
export type LifeStep =
  | { kind: 'move-within-subnet'; from: Position; to: Position }
  | { kind: 'move-across-subnets'; from: Position; to: Position }
  | { kind: 'stake-transfer'; from: Position; receiver: number }
  | { kind: 'recycle'; from: Position }
  | { kind: 'fee-in-alpha'; from: Position }
  | { kind: 'auto-stake'; to: Position; miner: Account }
  | { kind: 'miner-incentive'; to: Position; uid: number }
  | { kind: 'root-claim'; to: Position }
  | { kind: 'lease-dividends'; to: Position; leaseColdkey: Account; leaseId: number }
  | { kind: 'hotkey-swap'; from: number; to: number; owner: Account }
  | { kind: 'dissolution'; netuid: number }
  | { kind: 'coldkey-swap'; successor: number }
  // Spec 473, the day after its upgrade (see SPEC_473_SCHEDULE), by whoever holds the demo's stake then.
  | { kind: 'limit-orders' }
  | { kind: 'unstake-all' }
  // The 2025/26 life only (world/dated-life.ts, world/user-liquidity.ts): user liquidity and crowdloans.
  | { kind: 'liquidity-add'; at: Position; positionId: number }
  | { kind: 'liquidity-remove'; at: Position; positionId: number }
  | { kind: 'liquidity-refund'; at: Position; positionId: number }
  | { kind: 'crowdloan-contribute'; crowdloanId: number }
  | { kind: 'crowdloan-refund'; crowdloanId: number }
  | { kind: 'lease-dividends-credited'; to: Position; leaseColdkey: Account; leaseId: number };

/** Steps of the 2025/26 life alone, never scheduled in spec 425's life. */
export type DatedOnlyLifeKind =
  | 'liquidity-add'
  | 'liquidity-remove'
  | 'liquidity-refund'
  | 'crowdloan-contribute'
  | 'crowdloan-refund'
  | 'lease-dividends-credited';

/** The steps of the 425 life, scheduled in days after the spec 425 upgrade day (SPEC_425_SCHEDULE). */
export type Spec425LifeKind = Exclude<LifeStep['kind'], Spec473LifeKind | DatedOnlyLifeKind>;
/** The steps scheduled in days after the spec 473 upgrade day (SPEC_473_SCHEDULE). */
export type Spec473LifeKind = 'limit-orders' | 'unstake-all';

export interface PlannedLifeStep {
  block: number;
  step: LifeStep;
  /** A step of the 2025/26 life on the runtime of its date (world/dated-life.ts), not of spec 425's. */
  dated?: true;
}

/** Which chain call (or epoch event) a step is: the action kind the world records. */
export function lifeStepKind(step: LifeStep): StakingKind | LifeKind {
  switch (step.kind) {
    case 'move-within-subnet':
    case 'move-across-subnets':
      return 'StakeMoved';
    case 'stake-transfer':
      return 'StakeTransferred';
    case 'recycle':
      return 'AlphaRecycled';
    case 'fee-in-alpha':
      return 'StakeRemoved';
    case 'auto-stake':
      return 'AutoStakeAdded';
    case 'miner-incentive':
      return 'IncentiveAlphaEmittedToMiners';
    case 'root-claim':
      return 'RootClaimed';
    case 'lease-dividends':
      return 'SubnetLeaseDividendsDistributed';
    case 'hotkey-swap':
      return 'HotkeySwapped';
    case 'dissolution':
      return 'NetworkRemoved';
    case 'coldkey-swap':
      return 'ColdkeySwapped';
    case 'unstake-all':
      return 'StakeRemoved';
    case 'limit-orders':
      return 'LimitOrdersExecuted';
    case 'liquidity-add':
      return 'LiquidityAdded';
    case 'liquidity-remove':
      return 'LiquidityRemoved';
    case 'liquidity-refund':
      return 'LiquidityRefunded';
    case 'crowdloan-contribute':
      return 'CrowdloanContributed';
    case 'crowdloan-refund':
      return 'CrowdloanRefunded';
    case 'lease-dividends-credited':
      return 'LeaseDividendsCredited';
  }
}

/** Days after the upgrade day and hours (UTC) of each step, in order. */
const SPEC_425_SCHEDULE: Array<[Spec425LifeKind, number, number]> = [
  ['move-within-subnet', 1, 9],
  ['move-across-subnets', 1, 15],
  ['stake-transfer', 2, 9],
  ['recycle', 2, 15],
  ['fee-in-alpha', 3, 9],
  ['auto-stake', 3, 15],
  ['miner-incentive', 3, 21],
  ['root-claim', 4, 9],
  ['lease-dividends', 4, 15],
  ['hotkey-swap', 5, 9],
  ['dissolution', 6, 9],
  ['coldkey-swap', 7, 9],
];

/**
 * Days after the spec 473 upgrade day and hours (UTC): by default 473 comes the day before the coldkey swap,
 * so these fall after it and the successor acts. `limit-orders`: one `execute_batched_orders` filling a
 * buy and a sell (all of one position) on one subnet. `unstake-all` removes all of one position: its
 * `AlphaV2` key remains with a share worth under one rao, which spec 473 lists at stake 0.
 */
const SPEC_473_SCHEDULE: Array<[Spec473LifeKind, number, number]> = [
  ['limit-orders', 1, 12],
  ['unstake-all', 1, 15],
];

function blockOf(timeline: Timeline, upgradeBlock: number, days: number, hour: number): number {
  const day = timeline.dayOf(upgradeBlock) + days;
  return timeline.firstBlockOfDay(day) + Math.round((hour * HOUR_MS) / timeline.blockTimeMs) + 7;
}

export function spec425LifeBlock(timeline: Timeline, upgradeBlock: number, kind: Spec425LifeKind): number {
  const entry = SPEC_425_SCHEDULE.find(([k]) => k === kind)!;
  return blockOf(timeline, upgradeBlock, entry[1], entry[2]);
}

export function spec473LifeBlock(timeline: Timeline, spec473Block: number, kind: Spec473LifeKind): number {
  const entry = SPEC_473_SCHEDULE.find(([k]) => k === kind)!;
  return blockOf(timeline, spec473Block, entry[1], entry[2]);
}

export function spec425ScheduleOrder(): Spec425LifeKind[] {
  return SPEC_425_SCHEDULE.map(([kind]) => kind);
}

export function spec473ScheduleOrder(): Spec473LifeKind[] {
  return SPEC_473_SCHEDULE.map(([kind]) => kind);
}
