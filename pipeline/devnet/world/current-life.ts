import type { Account } from './accounts.js';
import type { LifeKind, Position, StakingKind } from './position.js';
import type { Timeline } from './timeline.js';

/**
 * The demo coldkey's life in the current runtime (spec 425): every way a holding changes that the issue
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
  | { kind: 'coldkey-swap'; successor: number };

export interface PlannedLifeStep {
  block: number;
  step: LifeStep;
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
  }
}

/** Days after the upgrade day and hours (UTC) of each step, in order. */
const SCHEDULE: Array<[LifeStep['kind'], number, number]> = [
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

export function lifeBlock(timeline: Timeline, upgradeBlock: number, kind: LifeStep['kind']): number {
  const entry = SCHEDULE.find(([k]) => k === kind)!;
  const day = timeline.dayOf(upgradeBlock) + entry[1];
  return timeline.firstBlockOfDay(day) + Math.round((entry[2] * 3_600_000) / timeline.blockTimeMs) + 7;
}

export function scheduleOrder(): Array<LifeStep['kind']> {
  return SCHEDULE.map(([kind]) => kind);
}
