import { u8aToHex } from '@polkadot/util';
import { ukDayEndMs } from '../../time/uk-day.js';
import { addDays } from '../../time/utc-day.js';
import { type DevnetOptions, resolveWorldParams, type WorldOptionKeys } from '../options.js';
import { runtimeEra } from '../runtime/runtime-eras.js';
import type { Account } from '../world/accounts.js';
import type { Staker, StakingAction } from '../world/stakers.js';
import { isAlive } from '../world/subnets.js';
import { isDate } from '../world/timeline.js';
import { World } from '../world/world.js';
import type {
  Truth,
  TruthAction,
  TruthActionKind,
  TruthAlphaV2Migration,
  TruthBurn,
  TruthStakingDetail,
  TruthStakingEvent,
} from './truth-types.js';

export type { Truth } from './truth-types.js';

type TruthOptions = Pick<DevnetOptions, WorldOptionKeys | 'now'>;

/** The truth of the world `options` describe, from `from` to `to` (UTC dates, inclusive). Pure. */
export function buildTruth(options: TruthOptions, from: string, to: string): Truth {
  const now = options.now?.() ?? Date.now();
  return truthOf(new World(resolveWorldParams(options, now)), now, from, to);
}

/**
 * The truth of an existing world (a running sandbox's, including injected emission flaps) as of `nowMs`.
 * Read from the world's own functions, never from encoded answers.
 */
export function truthOf(world: World, nowMs: number, from: string, to: string): Truth {
  if (!isDate(from) || !isDate(to)) throw new Error('truth: --from and --to must be YYYY-MM-DD dates');
  if (to < from) throw new Error('truth: --to is before --from');
  const { timeline, params } = world;
  const head = world.headAt(nowMs);
  const firstDay = Math.max(0, timeline.dayOfDate(from));
  const lastDay = Math.min(timeline.dayOf(head), timeline.dayOfDate(to));
  const truth: Truth = {
    seed: params.seed,
    genesis: new Date(params.genesisMs).toISOString(),
    block_time_ms: params.blockTimeMs,
    upgrade_block: params.upgradeBlock,
    history_days: params.historyDays,
    from,
    to,
    days: [],
    subnets: [],
    burns: [],
    panel_prices: [],
    staking_events: [],
    staking_details: [],
    share_pools: [],
    emission_changes: [],
    coldkeys: world.stakers.stakers.map((s) => ({
      coldkey: s.coldkey.address,
      demo: s.demo,
      ...(s === world.stakers.successor ? { successor_of: world.stakers.demo.coldkey.address } : {}),
      // The account of the demo's own EVM address, which staked through the precompile (world/evm-staking.ts).
      ...(s.coldkey.label.startsWith('evm/') ? { evm_of: world.stakers.demo.coldkey.address } : {}),
      days: [],
    })),
    runtime_placement: params.runtimePlacement,
    runtimes: params.runtimeSchedule
      .filter((step) => step.fromBlock <= head)
      .map((step) => {
        const era = runtimeEra(step.spec);
        return {
          spec: step.spec,
          specs: era.specs,
          first_block: step.fromBlock,
          first_time: timeline.isoTime(step.fromBlock),
          mainnet_from: era.mainnetFrom,
          metadata: era.metadataSource,
          features: Object.entries(era.features)
            .filter(([, on]) => on)
            .map(([name]) => name),
        };
      }),
    current_runtime_block: params.spec425Block,
    latest_runtime_block: params.spec473Block,
    alpha_v2_migration: migrationSummary(world, head),
    alpha_v2_sweep: [],
    actions: [],
  };
  if (firstDay > lastDay) return truth;
  const rangeFirst = timeline.firstBlockOfDay(firstDay);
  const rangeLast = Math.min(head, timeline.lastBlockOfDay(lastDay));

  for (const subnet of world.subnets) {
    const overlaps =
      subnet.registeredAt <= rangeLast && (subnet.deregisteredAt ?? Number.MAX_SAFE_INTEGER) > rangeFirst;
    if (!overlaps) continue;
    truth.subnets.push({
      netuid: subnet.netuid,
      registered_at: subnet.registeredAt,
      deregistered_at:
        subnet.deregisteredAt !== null && subnet.deregisteredAt <= head ? subnet.deregisteredAt : null,
      name: subnet.name,
      symbol: subnet.symbol,
      owner: subnet.owner.address,
    });
    for (const change of world.emissions.changes(subnet, rangeFirst, rangeLast)) {
      truth.emission_changes.push({
        block: change.block,
        time: timeline.isoTime(change.block),
        netuid: subnet.netuid,
        registered_at: subnet.registeredAt,
        status: change.status,
      });
    }
  }
  truth.emission_changes.sort((a, b) => a.block - b.block || a.netuid - b.netuid);

  for (let day = firstDay; day <= lastDay; day++) {
    const date = timeline.dateOfDay(day);
    const first = timeline.firstBlockOfDay(day);
    const last = Math.min(head, timeline.lastBlockOfDay(day));
    truth.days.push({ date, first_block: first, last_block: last });

    const blocks = new Set<number>();
    for (const block of world.burns.day(day).keys()) blocks.add(block);
    for (const action of world.stakers.actionsOfDay(day)) blocks.add(action.block);
    for (const block of [...blocks].sort((a, b) => a - b)) {
      if (block > last) continue;
      collectBlock(world, block, truth);
    }

    for (const subnet of world.subnets) {
      if (!isAlive(subnet, last)) continue;
      const pool = world.pools.at(subnet, last);
      truth.panel_prices.push({
        date,
        netuid: subnet.netuid,
        registered_at: subnet.registeredAt,
        panel_block: last,
        subnet_tao_rao: pool ? pool.tao.toString() : null,
        subnet_alpha_in_rao: pool ? pool.alphaIn.toString() : null,
      });
    }

    const state = world.stakers.stateAt(last);
    for (const [key, pool] of [...state.pools].sort(([a], [b]) => a.localeCompare(b))) {
      const [hotkeyIndex, netuid] = key.split(':').map(Number) as [number, number];
      const subnet = world.registrationAt(netuid, last);
      if (!subnet) continue;
      truth.share_pools.push({
        date,
        block: last,
        netuid,
        registered_at: subnet.registeredAt,
        hotkey: world.stakers.validators[hotkeyIndex]!.address,
        total_alpha_rao: pool.alpha.toString(),
        total_shares_bits: pool.shares.toString(),
        total_shares_v2: pool.v2
          ? { mantissa: pool.v2.mantissa.toString(), exponent: pool.v2.exponent.toString() }
          : null,
      });
    }
    for (const staker of world.stakers.stakers) {
      truth.coldkeys[staker.index]!.days.push({
        date,
        free_rao: state.free[staker.index]!.toString(),
        positions: world.stakers.positionsAt(staker, last).map(({ position, alpha }) => ({
          hotkey: position.hotkey.address,
          netuid: position.netuid,
          alpha_rao: alpha.toString(),
        })),
        income: day === 0 ? [] : incomeBetween(world, staker, timeline.lastBlockOfDay(day - 1), last),
      });
      // Reserved TAO and TAO on the coldkey's own EVM address (world/tao-mechanisms.ts), when there is some.
      const today = truth.coldkeys[staker.index]!.days.at(-1)!;
      const reserved = state.reserved?.[staker.index] ?? 0n;
      const evm = state.evm?.[staker.index] ?? 0n;
      if (reserved > 0n) today.reserved_rao = reserved.toString();
      if (evm > 0n) today.evm_rao = evm.toString();
      const zero = world.stakers.zeroStakeAt(staker, last);
      if (zero.length > 0) {
        truth.coldkeys[staker.index]!.days.at(-1)!.zero_stake_positions = zero.map((p) => ({
          hotkey: p.hotkey.address,
          netuid: p.netuid,
        }));
      }
    }
  }
  return truth;
}

/**
 * Each position's income on each UK day (Europe/London midnight to midnight) from `from` to `to`, as a UK
 * staker's pack counts it: the same rule as the truth's UTC days (`incomeBetween`), between the last blocks
 * before each UK midnight. The truth's own days are UTC dates; in British Summer Time a UK day is not one.
 */
export function ukDayIncome(
  options: TruthOptions,
  coldkey: string,
  from: string,
  to: string,
): Array<{ date: string; income: Array<{ hotkey: string; netuid: number; alpha_rao: string }> }> {
  const now = options.now?.() ?? Date.now();
  const world = new World(resolveWorldParams(options, now));
  const staker = world.stakers.stakers.find((s) => s.coldkey.address === coldkey);
  if (!staker) throw new Error(`truth: no staker with coldkey ${coldkey}`);
  const head = world.headAt(now);
  const lastBefore = (ms: number) => world.timeline.blockAt(ms - 1);
  const out: Array<{ date: string; income: Array<{ hotkey: string; netuid: number; alpha_rao: string }> }> =
    [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const last = lastBefore(ukDayEndMs(date));
    const previousLast = lastBefore(ukDayEndMs(addDays(date, -1)));
    if (last > head || previousLast < 0) continue;
    out.push({ date, income: incomeBetween(world, staker, previousLast, last) });
  }
  return out;
}

/**
 * Each position's stake growth from block `previousLast` to block `last` that the coldkey's own staking
 * actions do not explain: the stake at `last`, less the stake at `previousLast`, less the change each block
 * with an action touching the position made (after the block − before it). Read from the world's states,
 * block by block; never from encoded answers.
 */
function incomeBetween(
  world: World,
  staker: Staker,
  previousLast: number,
  last: number,
): Array<{ hotkey: string; netuid: number; alpha_rao: string }> {
  const timeline = world.timeline;
  const alphaAt = (block: number, pool: string) => world.stakers.alphaAt(staker, pool, block);
  const touching = new Map<string, Set<number>>();
  const actions: StakingAction[] = [];
  for (let day = timeline.dayOf(previousLast + 1); day <= timeline.dayOf(last); day++) {
    actions.push(...world.stakers.actionsOfDay(day));
  }
  for (const action of actions) {
    if (action.block > last || action.block <= previousLast) continue;
    // Swaps and a dissolution move or end holdings of many coldkeys at once: no income at their block.
    // Auto-stake and root claims are income: their block is not set aside.
    if (action.kind === 'AlphaV2Migration') {
      // The AlphaV2 migration ends only the positions it settles (deleted as dust, or unstaked): their block
      // is set aside. The rounding rao it moves the other holders of their pools by is the day's growth, as
      // any share pool's rounding when other holders act is.
      for (const row of action.migration?.rows ?? []) {
        if (row.staker.coldkey !== staker.coldkey) continue;
        const blocks = touching.get(row.pool) ?? new Set<number>();
        blocks.add(action.block);
        touching.set(row.pool, blocks);
      }
      continue;
    }
    if (
      action.kind === 'HotkeySwapped' ||
      action.kind === 'ColdkeySwapped' ||
      action.kind === 'NetworkRemoved'
    ) {
      for (const position of staker.positions) {
        const blocks = touching.get(position.pool) ?? new Set<number>();
        blocks.add(action.block);
        touching.set(position.pool, blocks);
      }
      continue;
    }
    if (
      action.kind === 'AutoStakeAdded' ||
      action.kind === 'RootClaimed' ||
      action.kind === 'SubnetLeaseDividendsDistributed' ||
      action.kind === 'IncentiveAlphaEmittedToMiners'
    )
      continue;
    const touched: Array<[Account | null, number | null]> = [];
    if (action.coldkey === staker.coldkey) touched.push([action.hotkey, action.netuid]);
    const destColdkey = action.destColdkey ?? (action.destHotkey ? action.coldkey : null);
    if (destColdkey === staker.coldkey) touched.push([action.destHotkey, action.destNetuid]);
    for (const [hotkey, netuid] of touched) {
      const position = staker.positions.find((p) => p.hotkey === hotkey && p.netuid === netuid);
      if (!position) continue;
      const blocks = touching.get(position.pool) ?? new Set<number>();
      blocks.add(action.block);
      touching.set(position.pool, blocks);
    }
  }
  const income: Array<{ hotkey: string; netuid: number; alpha_rao: string }> = [];
  for (const position of staker.positions) {
    let received = alphaAt(last, position.pool) - alphaAt(previousLast, position.pool);
    for (const block of touching.get(position.pool) ?? []) {
      received -= alphaAt(block, position.pool) - alphaAt(block - 1, position.pool);
    }
    if (received !== 0n) {
      income.push({
        hotkey: position.hotkey.address,
        netuid: position.netuid,
        alpha_rao: received.toString(),
      });
    }
  }
  return income;
}

function collectBlock(world: World, block: number, truth: Truth): void {
  const burns: TruthBurn[] = truth.burns;
  const content = world.blockEvents(block);
  const time = world.timeline.isoTime(block);
  for (const { action, eventIndex, extrinsic } of content.burns) {
    burns.push({
      block,
      event_index: eventIndex,
      extrinsic_index: extrinsic,
      time,
      netuid: action.subnet.netuid,
      registered_at: action.subnet.registeredAt,
      kind: action.kind,
      coldkey: action.coldkey.address,
      hotkey: action.hotkey.address,
      alpha_rao: action.alpha.toString(),
      tao_rao: action.kind === 'buyback' && action.tao !== null ? action.tao.toString() : null,
    });
  }
  const entries: TruthStakingEvent[] = [];
  const details: TruthStakingDetail[] = [];
  for (const { action, eventIndex, extrinsic } of content.buybackStakes) {
    details.push({
      block,
      event_index: eventIndex,
      fee_rao: action.fee.toString(),
      destination_coldkey: null,
      destination_hotkey: null,
      destination_netuid: null,
    });
    entries.push({
      block,
      event_index: eventIndex,
      extrinsic_index: extrinsic,
      time,
      kind: 'StakeAdded',
      coldkey: action.coldkey.address,
      hotkey: action.hotkey.address,
      netuid: action.subnet.netuid,
      tao_rao: (action.tao ?? 0n).toString(),
      alpha_rao: action.alpha.toString(),
    });
  }
  for (const placed of content.staking) {
    if (placed.action.kind === 'AlphaV2Migration') {
      sweepRows(block, time, placed, truth);
      continue;
    }
    if (placed.action.kind === 'LimitOrdersExecuted') {
      truth.actions.push(...limitOrderActions(block, time, placed, content.events));
      continue;
    }
    if (world.runsSpec425(block) || placed.action.dated)
      truth.actions.push(truthAction(block, time, placed, content.events));
    // A call to the EVM staking precompile is a StakeAdded or StakeRemoved of the mapped account.
    const action = evmStakingAsStake(placed.action);
    const { eventIndex, extrinsic } = placed;
    if (!isStakingKind(action.kind)) continue;
    const tracksAlpha = action.kind === 'StakeAdded' || action.kind === 'StakeRemoved';
    details.push({
      block,
      event_index: eventIndex,
      fee_rao: tracksAlpha ? action.fee.toString() : null,
      destination_coldkey: action.destColdkey?.address ?? null,
      destination_hotkey: action.destHotkey?.address ?? null,
      destination_netuid: action.destNetuid,
    });
    entries.push({
      block,
      event_index: eventIndex,
      extrinsic_index: extrinsic,
      time,
      kind: action.kind as TruthStakingEvent['kind'],
      coldkey: action.coldkey.address,
      hotkey: action.hotkey?.address ?? null,
      netuid: action.netuid,
      // Before spec 257 a stake's event reports the tao after the fee (it has no fee field).
      tao_rao: (action.kind === 'StakeAdded' && !world.runtimeAt(block).features.stakeEventFee
        ? action.tao - action.fee
        : action.tao
      ).toString(),
      alpha_rao: tracksAlpha && action.alpha !== null ? action.alpha.toString() : null,
    });
  }
  truth.staking_events.push(...entries.sort((a, b) => a.event_index - b.event_index));
  truth.staking_details.push(...details.sort((a, b) => a.event_index - b.event_index));
}

function evmStakingAsStake(action: StakingAction): StakingAction {
  if (action.kind === 'EvmStakeAdded') return { ...action, kind: 'StakeAdded' };
  if (action.kind === 'EvmStakeRemoved') return { ...action, kind: 'StakeRemoved' };
  return action;
}

const STAKING_KINDS = new Set([
  'StakeAdded',
  'StakeRemoved',
  'StakeMoved',
  'StakeTransferred',
  'StakeSwapped',
  'Transfer',
]);

function isStakingKind(kind: string): boolean {
  return STAKING_KINDS.has(kind);
}

function actionKind(action: StakingAction): TruthActionKind {
  switch (action.kind) {
    case 'StakeAdded':
      return 'stake';
    case 'StakeRemoved':
      return 'unstake';
    case 'StakeMoved':
    case 'StakeSwapped':
      return action.destNetuid === action.netuid ? 'move-within-subnet' : 'move-across-subnets';
    case 'StakeTransferred':
      return 'stake-transfer';
    case 'Transfer':
      return 'tao-transfer';
    case 'HotkeySwapped':
      return 'hotkey-swap';
    case 'ColdkeySwapped':
      return 'coldkey-swap';
    case 'NetworkRemoved':
      return 'dissolution';
    case 'AlphaRecycled':
      return 'recycle';
    case 'AutoStakeAdded':
      return 'auto-stake';
    case 'RootClaimed':
      return 'root-claim';
    case 'SubnetLeaseDividendsDistributed':
      return 'lease-dividends';
    case 'IncentiveAlphaEmittedToMiners':
      return 'miner-incentive';
    case 'AlphaV2Migration':
      throw new Error('truth: the AlphaV2 migration is not an action (see alpha_v2_sweep)');
    case 'LimitOrdersExecuted':
      throw new Error('truth: a limit-order batch is one action per order (limitOrderActions)');
    case 'LiquidityAdded':
      return 'liquidity-add';
    case 'LiquidityRemoved':
      return 'liquidity-remove';
    case 'LiquidityRefunded':
      return 'liquidity-refund';
    case 'CrowdloanContributed':
      return 'crowdloan-contribution';
    case 'CrowdloanRefunded':
      return 'crowdloan-refund';
    case 'LeaseDividendsCredited':
      return 'lease-dividends-credited';
    case 'ProxyAdded':
      return 'proxy-added';
    case 'ProxyRemoved':
      return 'proxy-removed';
    case 'NeuronRegistered':
      return 'registration';
    case 'EvmDeposit':
      return 'evm-deposit';
    case 'EvmWithdraw':
      return 'evm-withdraw';
    case 'EvmStakeAdded':
      return 'evm-stake';
    case 'EvmStakeRemoved':
      return 'evm-unstake';
    case 'NetworkRegistered':
      return 'network-registration';
    case 'NetworkLockRefunded':
      return 'network-lock-refund';
    case 'IdentitySet':
      return 'identity-set';
    case 'IdentityDissolved':
      return 'identity-cleared';
    case 'NewMultisig':
      return 'multisig-deposit';
    case 'MultisigExecuted':
      return 'multisig-executed';
  }
}

/**
 * A limit-order batch as one row per order, both of the same extrinsic (`events` is all of it), each named
 * by its own `OrderExecuted`. Buy: `tao_rao` the gross TAO paid (`amount_in`), `alpha_rao` the alpha received
 * on (hotkey, netuid) (`amount_out`), `fee_rao` the order's fee off the TAO. Sell: `alpha_rao` the alpha sold
 * (`amount_in`), `tao_rao` the TAO received after the fee (`amount_out`), `fee_rao` that fee.
 */
function limitOrderActions(
  block: number,
  time: string,
  placed: { action: StakingAction; extrinsic: number; events: number[] },
  events: ReturnType<World['blockEvents']>['events'],
): TruthAction[] {
  const batch = placed.action.limitOrders!;
  const executed = placed.events.filter((index) => events[index]!.event.name === 'OrderExecuted');
  const listed = placed.events.map((index) => ({
    event_index: index,
    pallet: events[index]!.event.pallet,
    name: events[index]!.event.name,
  }));
  const row = (
    action: 'limit-order-buy' | 'limit-order-sell',
    eventIndex: number,
    hotkey: Account,
    tao: bigint,
    alpha: bigint,
    fee: bigint,
    id: Uint8Array,
  ): TruthAction => ({
    block,
    time,
    extrinsic_index: placed.extrinsic,
    action,
    event_index: eventIndex,
    events: listed,
    coldkey: batch.signer.address,
    hotkey: hotkey.address,
    netuid: batch.netuid,
    destination_coldkey: null,
    destination_hotkey: null,
    destination_netuid: null,
    tao_rao: tao.toString(),
    alpha_rao: alpha.toString(),
    destination_alpha_rao: null,
    fee_rao: fee.toString(),
    alpha_fee_rao: null,
    fee_tao_rao: null,
    payouts: null,
    order_id: u8aToHex(id),
  });
  return [
    row(
      'limit-order-buy',
      executed[0]!,
      batch.buy.hotkey,
      batch.buy.taoIn,
      batch.buy.alphaOut,
      batch.buy.fee,
      batch.buy.orderId,
    ),
    row(
      'limit-order-sell',
      executed[1]!,
      batch.sell.hotkey,
      batch.sell.taoOut,
      batch.sell.alphaIn,
      batch.sell.fee,
      batch.sell.orderId,
    ),
  ];
}

/** The sweep's settled rows of one migration block, with the `StakeRemoved` of each unstaked one. */
function sweepRows(
  block: number,
  time: string,
  placed: { action: StakingAction; events: number[] },
  truth: Truth,
): void {
  let next = 0;
  for (const row of placed.action.migration!.rows) {
    const indexes = placed.events.slice(next, next + row.events.length);
    next += row.events.length;
    truth.alpha_v2_sweep.push({
      block,
      time,
      coldkey: row.staker.coldkey.address,
      hotkey: row.hotkey.address,
      netuid: row.netuid,
      kind: row.kind,
      legacy: row.legacy,
      alpha_rao: row.alpha.toString(),
      tao_rao: row.tao.toString(),
      event_index: row.kind === 'unstaked' ? indexes[indexes.length - 1]! : null,
    });
  }
}

/** The migration's blocks up to `head`, read from the world's day plans (null without spec 473). */
function migrationSummary(world: World, head: number): TruthAlphaV2Migration | null {
  const from = world.params.spec473Block;
  if (from === null || from > head) return null;
  const summary: TruthAlphaV2Migration = {
    first_block: -1,
    completed_block: null,
    rows_converted: 0,
    denominators_converted: 0,
    deferred: 0,
    burned_rao: '0',
  };
  let burned = 0n;
  for (let day = world.timeline.dayOf(from); day <= world.timeline.dayOf(head); day++) {
    for (const action of world.stakers.actionsOfDay(day)) {
      if (action.kind !== 'AlphaV2Migration' || action.block > head) continue;
      const m = action.migration!;
      if (summary.first_block < 0) summary.first_block = action.block;
      summary.rows_converted += m.converted;
      summary.denominators_converted += m.denominators;
      summary.deferred += m.deferred;
      burned += m.burned;
      if (m.completed) summary.completed_block = action.block;
    }
    if (summary.completed_block !== null) break;
  }
  summary.burned_rao = burned.toString();
  return summary.first_block < 0 ? null : summary;
}

function truthAction(
  block: number,
  time: string,
  placed: { action: StakingAction; eventIndex: number; extrinsic: number; events: number[] },
  events: ReturnType<World['blockEvents']>['events'],
): TruthAction {
  const { action } = placed;
  const text = (value: bigint | null | undefined) =>
    value === null || value === undefined ? null : value.toString();
  return {
    block,
    time,
    extrinsic_index: placed.extrinsic < 0 ? null : placed.extrinsic,
    action: actionKind(action),
    event_index: placed.eventIndex,
    events: placed.events.map((index) => ({
      event_index: index,
      pallet: events[index]!.event.pallet,
      name: events[index]!.event.name,
    })),
    coldkey: action.coldkey.address,
    hotkey: action.hotkey?.address ?? null,
    netuid: action.netuid,
    destination_coldkey: action.destColdkey?.address ?? null,
    destination_hotkey: action.destHotkey?.address ?? null,
    destination_netuid: action.destNetuid,
    tao_rao: action.tao.toString(),
    alpha_rao: text(action.alpha),
    destination_alpha_rao: text(action.destAlpha),
    fee_rao: action.fee.toString(),
    alpha_fee_rao: text(action.alphaFee),
    fee_tao_rao: text(action.feeTao),
    payouts:
      action.payouts?.map((p) => ({
        coldkey: p.staker.coldkey.address,
        alpha_rao: [...p.alpha.values()].reduce((a, b) => a + b, 0n).toString(),
        tao_rao: p.tao.toString(),
      })) ?? null,
    ...(action.liquidity
      ? {
          liquidity: {
            position_id: action.liquidity.positionId,
            liquidity: action.liquidity.liquidity.toString(),
            tao_rao: action.liquidity.tao.toString(),
            alpha_rao: action.liquidity.alpha.toString(),
            fee_tao_rao: action.liquidity.feeTao.toString(),
            fee_alpha_rao: action.liquidity.feeAlpha.toString(),
          },
        }
      : {}),
    ...(action.crowdloan ? { crowdloan_id: action.crowdloan.id } : {}),
  };
}
