/**
 * One extrinsic, one economic action. The current runtime (opentensor/subtensor spec 425) emits several
 * events per staking call: staking sends the TAO to the subnet's own account by a `Balances.Transfer` and then
 * emits `StakeAdded`; unstaking emits `StakeRemoved` and pays the TAO back by a transfer from that account
 * (`coinbase/tao.rs`); a move, swap or transfer of stake to another subnet emits `StakeRemoved`, (between
 * coldkeys) a TAO transfer, `StakeAdded`, then the summary `StakeMoved`/`StakeSwapped`/`StakeTransferred`;
 * within one subnet a `StakeRemoved` and `StakeAdded` pair carrying the TAO equivalent though no TAO moved
 * (`staking/move_stake.rs`, `transition_stake_internal`, `stake_utils.rs`, `transfer_stake_within_subnet`).
 * Booked event by event, each move would count two or three times and every stake would be disposed of twice.
 *
 * So the events of an order's coldkeys are grouped by block and extrinsic (the event's phase), and each group
 * becomes one action here: what the order gave (TAO, or alpha of positions) and what it got, each side with
 * the TAO value it is booked at. The booking code (`cgt-transactions.ts`) measures the alpha on the chain and
 * values the TAO in pounds; it never reads chain events. Older runtimes' groups (one event per call, no phase
 * in older collected records) give the same actions.
 *
 * What a group is:
 *   - a stake: TAO exchanged for alpha (its transfer to the subnet account is part of it); on root nothing;
 *   - an unstake: alpha exchanged for TAO (the payout from the subnet account is part of it);
 *   - a move or swap across subnets: one alpha exchanged for another; within one subnet, or between coldkeys
 *     of the order on one subnet: nothing;
 *   - a stake transfer to a coldkey outside the order: one disposal of the alpha at its market value (the TAO
 *     value the event states); from outside: an acquisition at that value;
 *   - a TAO transfer to or from a coldkey outside the order: a disposal or acquisition at market value; to or
 *     from a subnet's account never (`modl` `subtensr` netuid: see `chain/subnet-account.ts`);
 *   - a dissolved subnet's payout (`NetworkRemoved`, TAO paid from its account): the alpha disposed of for the
 *     TAO paid, that TAO acquired;
 *   - `AlphaRecycled`, `AlphaBurned` by the holder: a disposal for nothing;
 *   - `TransactionFeePaidWithAlpha`: a disposal of that alpha at the TAO it was swapped for;
 *   - `LimitOrderExecuted`: a buy (TAO for alpha) or a sell (alpha for TAO) at the order's amounts;
 *   - `HotkeySwapped`, `HotkeySwappedOnSubnet`, `ColdkeySwapped`: the same holding under another key, nothing;
 *   - `AutoStakeAdded`, `RootClaimed`, `SubnetLeaseDividendsDistributed`: income, counted in the day's income
 *     when received (its stake is not explained away);
 *   - `TransactionFeePaid` of the order's coldkey: the call's fee, paid from its free TAO: a disposal of that
 *     TAO at its market value, booked beside whatever else the call did (`cgt-transactions.ts` makes the fee
 *     an allowable cost of the action when the action acquired or disposed of something); a call that did
 *     nothing else the pack books is a `fee` action;
 *   - `NeuronRegistered` of the order's coldkey (`burned_register`): the TAO burned, a disposal at its market
 *     value (given for the registration);
 *   - `NetworkRegistered` of the order's coldkey (`register_network`): the TAO locked exchanged for the
 *     registration, a right; the lock's refund at the subnet's dissolution disposes of it
 *     (`network-lock-actions.ts`);
 *   - `Reserved`, `Unreserved`: TAO set aside as a deposit (a proxy's) and returned: still held, nothing;
 *   - a TAO transfer between a coldkey and its own EVM address (`own-evm-address.ts`): the same owner's TAO,
 *     nothing;
 *   - a `StakeRemoved` outside any extrinsic that is no lease dividend: the AlphaV2 migration of spec 473
 *     unstaking a legacy position worth 1,000 to 3,000,000 rao to its coldkey (`migrate_alpha_v2.rs`): an
 *     unstake, named as the migration. The positions it deleted have no event: `locate-sweep.ts`.
 */
import type { LedgerEvent } from '../ledger-event.js';
import { type ActionKind, CROSSING_KINDS } from './action-kind.js';
import { type ActionFlag, type ActionLeg, type AlphaHolding, TAO_SIDE } from './action-legs.js';
import {
  annotateLiquidityRefunds,
  bookCrowdloans,
  bookLiquidity,
  crowdloanTreatment,
  isCrowdloanGroup,
  isLiquidityGroup,
  type LiquidityFigures,
  liquidityFigures,
  liquidityFlag,
  liquidityTreatment,
} from './liquidity-actions.js';
import {
  annotateLockRefunds,
  isNetworkLockGroup,
  networkLockLegs,
  networkLockTreatment,
} from './network-lock-actions.js';
import { ownEvmAddressAt } from './own-evm-address.js';

export { type ActionFlag, type ActionLeg, ALL_SUBNETS, type AlphaHolding, TAO_SIDE } from './action-legs.js';

export interface EconomicAction {
  kind: ActionKind;
  /** What the pack did with it, for events.csv. */
  treatment: string;
  block: number;
  time: string;
  /** The chain events it was made of (each once, in chain order). */
  events: LedgerEvent[];
  legs: ActionLeg[];
  /** Alpha holdings whose change in this block the action explains (not income), also when it books nothing. */
  touches: AlphaHolding[];
  flags: ActionFlag[];
  /** A key swap: the holdings keep their history under the new key (the pack pairs old and new positions). */
  swap?: KeySwap;
  /**
   * A transfer across the order's edge (stake-out, stake-in, tao-out, tao-in): the address on the other
   * side, so that a buyer's own address or exchange records can make it a move within their holdings.
   */
  counterparty?: string;
  /** A liquidity position's movement: its figures for liquidity.csv (actions/liquidity-actions.ts). */
  liquidity?: LiquidityFigures;
}

/** A hotkey swap (every holder's stake on the old hotkey moves; netuid null: on every subnet) or a coldkey swap. */
export type KeySwap =
  | { kind: 'hotkey'; oldHotkey: string; newHotkey: string; netuid: number | null }
  | { kind: 'coldkey'; oldColdkey: string; newColdkey: string };

/** The key of an event's group: its block and extrinsic; an event outside an extrinsic is grouped with its kind. */
export function groupKey(event: LedgerEvent): string {
  if (typeof event.extrinsic_index === 'number') return `${event.block}/x${event.extrinsic_index}`;
  // Older records carry no phase (undefined): each event was one call. Outside an extrinsic (null, the block's
  // initialization: epoch payouts, auto-stakes, lease dividends), a block's events belong together.
  if (event.extrinsic_index === undefined) return `${event.block}/e${event.event_index}`;
  return `${event.block}/n`;
}

/**
 * The order's events in groups of one extrinsic each, in chain order; a batch of limit orders
 * (`execute_batched_orders`, one extrinsic filling many orders) is one group per order it filled.
 */
export function groupEvents(events: readonly LedgerEvent[]): LedgerEvent[][] {
  const groups = new Map<string, LedgerEvent[]>();
  const ordered = annotateLockRefunds(
    annotateLiquidityRefunds(
      [...events].sort(
        (a, b) => a.block - b.block || a.event_index - b.event_index || (a.role < b.role ? 1 : -1),
      ),
    ),
  );
  for (const event of ordered) {
    const key = groupKey(event);
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  return [...groups.values()].flatMap(splitLimitOrderBatch);
}

/**
 * Each filled order of a batch is its own trade (a buy and a sell of the same alpha in one batch are two
 * exchanges, not a move): its `OrderExecuted` with its own TAO transfer (a buyer's gross TAO to the pallet,
 * a seller's TAO from it); the batch's other events stay with the first order.
 */
function splitLimitOrderBatch(group: LedgerEvent[]): LedgerEvent[][] {
  const orders = group.filter((e) => e.kind === 'LimitOrderExecuted');
  if (orders.length < 2) return [group];
  // `execute_orders` (not batched) fills each order through the signer's own stake or unstake: its stake
  // events say it all, in one action (the booking then reads no OrderExecuted amounts).
  const signers = new Set(orders.map((order) => order.coldkey));
  if (group.some((e) => (e.kind === 'StakeAdded' || e.kind === 'StakeRemoved') && signers.has(e.coldkey))) {
    return [group];
  }
  const parts = orders.map((order) => [order]);
  const taken = new Set<LedgerEvent>(orders);
  for (const event of group) {
    if (
      event.kind !== 'Transfer' ||
      (event.from_subnet ?? null) !== null ||
      (event.to_subnet ?? null) !== null
    )
      continue;
    const sender = event.role === 'origin' ? event.coldkey : event.counterpart_coldkey;
    const receiver = event.role === 'origin' ? event.counterpart_coldkey : event.coldkey;
    const index = orders.findIndex(
      (order, i) =>
        parts[i]!.every((e) => e.kind !== 'Transfer') &&
        event.tao_rao === order.tao_rao &&
        (order.order_type === 'LimitBuy' ? sender === order.coldkey : receiver === order.coldkey),
    );
    if (index < 0) continue;
    parts[index]!.push(event);
    taken.add(event);
  }
  parts[0]!.push(...group.filter((e) => !taken.has(e)));
  return parts.map((part) => part.sort((a, b) => a.event_index - b.event_index));
}

const INCOME_KINDS = new Set(['AutoStakeAdded', 'RootClaimed', 'SubnetLeaseDividendsDistributed']);
const SUMMARY_KINDS = new Set(['StakeMoved', 'StakeSwapped', 'StakeTransferred']);

/**
 * The economic action of one group (one extrinsic's events, as the order's coldkeys see them: an event that
 * concerns two of them appears once per coldkey).
 *
 * It is built in three steps, each a table a new runtime's events are added to in one place: the group's
 * facts (`readGroup`), the legs each kind of event books (`LEG_BOOKERS`, in the order the legs are listed),
 * and what kind of action the whole group is (`ACTION_RULES`, the first that applies). A stake transfer across
 * the order's edge is decided before any leg, since it is one disposal or acquisition whatever else it emits.
 */
export function economicAction(group: readonly LedgerEvent[], coldkeys: ReadonlySet<string>): EconomicAction {
  if (group.length === 0) throw new Error('economic action: an empty group');
  const g = readGroup(group, coldkeys);
  // Fees first: a call's fee is booked whatever the call is, a stake transfer across the edge included.
  bookTaoFees(g);
  const crossing = stakeTransferAcrossEdge(g);
  if (crossing) return crossing;
  for (const book of LEG_BOOKERS) book(g);
  const rule = ACTION_RULES.find((r) => r.applies(g))!;
  const flag = rule.flag?.(g);
  if (flag) g.flags.push(flag);
  const action = finishAction(g, rule.kind, rule.treatment(g));
  return rule.swap ? { ...action, swap: rule.swap(g) } : action;
}

/**
 * One group as the action is built from it: its events (each once), the facts the legs and the rules read,
 * and what has been booked so far. The legs, touches and flags are the action's own arrays.
 */
interface ActionGroup {
  first: LedgerEvent;
  events: LedgerEvent[];
  /** The order's coldkeys. */
  coldkeys: ReadonlySet<string>;
  /** The move's, swap's or transfer's summary event (`StakeMoved`, ...), its origin record first. */
  summary: LedgerEvent | undefined;
  /**
   * The current runtime's groups carry the TAO legs to and from subnet accounts: then the TAO moves as those
   * transfers say; older groups have none, and the stake events' own TAO is what moved.
   */
  subnetLegs: boolean;
  /** The coldkeys of subnet leases that paid dividends in the group. */
  leased: Set<string>;
  /** The order's own unstakes and stakes (origin records), lease dividends left out. */
  removed: LedgerEvent[];
  added: LedgerEvent[];
  /** The order's own filled limit orders. */
  limitOrders: LedgerEvent[];
  legs: ActionLeg[];
  touches: AlphaHolding[];
  flags: ActionFlag[];
  /**
   * TAO sent to or received from addresses outside the order: one counterparty, or none named (a batch
   * paying several addresses is not one move a buyer's own address or record could explain).
   */
  crossedWith: Set<string>;
  /** Own EVM addresses (0x) the group's TAO moved to or from (`own-evm-address.ts`). */
  ownEvm: Set<string>;
}

function readGroup(group: readonly LedgerEvent[], coldkeys: ReadonlySet<string>): ActionGroup {
  const events = eachEventOnce(group);
  const summary =
    events.find((e) => SUMMARY_KINDS.has(e.kind) && e.role === 'origin') ??
    events.find((e) => SUMMARY_KINDS.has(e.kind));
  const subnetLegs = events.some(
    (e) => isTransfer(e) && (fromSubnet(e) || toSubnet(e)) && e.dissolved_netuid == null,
  );
  // Lease dividends are paid at the epoch as a StakeRemoved from the lease's coldkey and a StakeAdded to the
  // contributor (`subnets/leasing.rs`): income of the contributor, not a stake it made.
  const leased = new Set(
    events.filter((e) => e.kind === 'SubnetLeaseDividendsDistributed').map((e) => e.coldkey),
  );
  const byEpoch = (e: LedgerEvent) => e.extrinsic_index === null && leased.size > 0;
  const ownStake = (kind: string) =>
    events.filter((e) => e.kind === kind && e.role === 'origin' && coldkeys.has(e.coldkey) && !byEpoch(e));
  return {
    first: group[0]!,
    events,
    coldkeys,
    summary,
    subnetLegs,
    leased,
    removed: ownStake('StakeRemoved'),
    added: ownStake('StakeAdded'),
    limitOrders: events.filter((e) => e.kind === 'LimitOrderExecuted' && coldkeys.has(e.coldkey)),
    legs: [],
    touches: [],
    flags: [],
    crossedWith: new Set<string>(),
    ownEvm: new Set<string>(),
  };
}

/** Each chain event once, in chain order; an event also seen from the other side keeps its origin record. */
function eachEventOnce(group: readonly LedgerEvent[]): LedgerEvent[] {
  const byIndex = new Map<number, LedgerEvent>();
  for (const event of group) {
    const seen = byIndex.get(event.event_index);
    if (!seen || (seen.role === 'destination' && event.role === 'origin'))
      byIndex.set(event.event_index, event);
  }
  return [...byIndex.values()].sort((a, b) => a.event_index - b.event_index);
}

/** Whether a coldkey is one of the order's. */
const isOrderColdkey = (g: ActionGroup, coldkey: string | null) =>
  coldkey !== null && g.coldkeys.has(coldkey);
const big = (value: string | null | undefined) => BigInt(value ?? '0');
const ref = (e: LedgerEvent) => `${e.kind} ${e.block}/${e.event_index}`;
const isTransfer = (e: LedgerEvent) => e.kind === 'Transfer';
const fromSubnet = (e: LedgerEvent) => (e.from_subnet ?? null) !== null;
const toSubnet = (e: LedgerEvent) => (e.to_subnet ?? null) !== null;
const senderOf = (e: LedgerEvent) => (e.role === 'origin' ? e.coldkey : e.counterpart_coldkey);
const receiverOf = (e: LedgerEvent) => (e.role === 'origin' ? e.counterpart_coldkey : e.coldkey);
const has = (g: ActionGroup, kind: string) => g.events.some((e) => e.kind === kind);
/** No stake event of the order's own in the group. */
const noStakeEvents = (g: ActionGroup) => g.removed.length === 0 && g.added.length === 0;

function bookAlpha(
  g: ActionGroup,
  side: 'dispose' | 'acquire',
  holding: AlphaHolding,
  statedRao: bigint | null,
  valueTaoRao: bigint,
): void {
  g.legs.push({ side, asset: 'alpha', holding, statedRao, valueTaoRao });
  g.touches.push(holding);
}

function bookTao(g: ActionGroup, side: 'dispose' | 'acquire', rao: bigint, valueTaoRao: bigint): void {
  if (rao > 0n) g.legs.push({ side, asset: TAO_SIDE, rao, valueTaoRao });
}

/** A stake transfer that crosses the order's boundary: one disposal (or acquisition) at market value. */
function stakeTransferAcrossEdge(g: ActionGroup): EconomicAction | null {
  const summary = g.summary;
  if (summary?.kind !== 'StakeTransferred') return null;
  const originIn = isOrderColdkey(g, summary.coldkey) && summary.role === 'origin';
  const sender = senderOf(summary);
  const receiver = receiverOf(summary);
  const value = big(summary.tao_rao);
  if (isOrderColdkey(g, sender) && !isOrderColdkey(g, receiver)) {
    const origin = originIn ? summary : null;
    bookAlpha(
      g,
      'dispose',
      { coldkey: sender!, hotkey: origin?.hotkey ?? null, netuid: origin?.netuid ?? -1 },
      null,
      value,
    );
    g.flags.push({
      kind: 'transfer-out',
      text: `${ref(summary)}: stake sent to ${receiver} (outside this order), taken as disposed of at its market value.`,
    });
    return finishAction(
      g,
      'stake-out',
      'stake transferred to a coldkey outside the order: one disposal at market value',
      receiver ?? undefined,
    );
  }
  if (!isOrderColdkey(g, sender) && isOrderColdkey(g, receiver)) {
    const mine = summary.role === 'destination' ? summary : null;
    bookAlpha(
      g,
      'acquire',
      { coldkey: receiver!, hotkey: mine?.hotkey ?? null, netuid: mine?.netuid ?? -1 },
      null,
      value,
    );
    g.flags.push({
      kind: 'transfer-in',
      text: `${ref(summary)}: stake received from ${sender} (outside this order), taken as acquired at its market value.`,
    });
    return finishAction(
      g,
      'stake-in',
      'stake received from a coldkey outside the order: acquisition at market value',
      sender ?? undefined,
    );
  }
  return null;
}

/**
 * What each kind of event books, in the order the action lists its legs (the booking takes a block's
 * shares of a position in that order). A new runtime's event that moves tokens gets its booker here.
 */
const LEG_BOOKERS: readonly ((g: ActionGroup) => void)[] = [
  bookStakeEvents,
  bookSummaryOnly,
  bookTaoTransfers,
  bookRecyclesAndBurns,
  bookFeesInAlpha,
  bookLimitOrders,
  bookLiquidity,
  bookCrowdloans,
  bookRegistrations,
  (g) => g.legs.push(...networkLockLegs(g.events, g.coldkeys)),
];

/** A neuron registration of the order's coldkey: the TAO it burned, given for the registration. */
function bookRegistrations(g: ActionGroup): void {
  for (const e of g.events) {
    if (e.kind === 'NeuronRegistered' && isOrderColdkey(g, e.coldkey))
      bookTao(g, 'dispose', big(e.tao_rao), big(e.tao_rao));
  }
}

/** The group's legs other than its TAO fees: what the call itself booked. */
const callLegs = (g: ActionGroup) => g.legs.filter((l) => !(l.asset === TAO_SIDE && l.fee));
/** The group's events other than its fee's: what the call itself emitted. */
const callEvents = (g: ActionGroup) => g.events.filter((e) => e.kind !== 'TransactionFeePaid');

/**
 * Fees paid in TAO by the order's coldkey, each a disposal of that TAO: a signed call's transaction fee, and
 * the staking fee of a stake or unstake on root, where TAO given and root stake got are one asset and the fee
 * is what the chain kept of it (on a subnet it is inside the exchange's own figures).
 */
function bookTaoFees(g: ActionGroup): void {
  const feeLeg = (e: LedgerEvent, rao: bigint) => {
    if (rao <= 0n) return;
    const feeEvent = { block: e.block, event_index: e.event_index };
    g.legs.push({ side: 'dispose', asset: TAO_SIDE, rao, valueTaoRao: rao, fee: true, feeEvent });
  };
  for (const e of [...g.removed, ...g.added]) if (e.netuid === 0) feeLeg(e, big(e.fee_rao));
  for (const e of g.events) {
    if (e.kind === 'TransactionFeePaid' && isOrderColdkey(g, e.coldkey)) feeLeg(e, big(e.tao_rao));
  }
}

/** Stake events of the order's coldkeys: alpha out and in, and (older groups) the TAO they state. */
function bookStakeEvents(g: ActionGroup): void {
  const stakeEventsCarryTao = !g.subnetLegs && !(g.summary && SUMMARY_KINDS.has(g.summary.kind));
  for (const e of g.removed) {
    bookAlpha(
      g,
      'dispose',
      { coldkey: e.coldkey, hotkey: e.hotkey, netuid: e.netuid! },
      big(e.alpha_rao),
      big(e.tao_rao),
    );
    if (stakeEventsCarryTao) bookTao(g, 'acquire', big(e.tao_rao), big(e.tao_rao));
  }
  for (const e of g.added) {
    const value = big(e.tao_rao) - big(e.fee_rao);
    bookAlpha(
      g,
      'acquire',
      { coldkey: e.coldkey, hotkey: e.hotkey, netuid: e.netuid! },
      big(e.alpha_rao),
      value,
    );
    if (stakeEventsCarryTao) bookTao(g, 'dispose', big(e.tao_rao), value);
  }
}

/** An older runtime's move, swap or transfer inside the order: only the summary event. */
function bookSummaryOnly(g: ActionGroup): void {
  const summary = g.summary;
  if (!summary || !noStakeEvents(g) || summary.role !== 'origin' || !isOrderColdkey(g, summary.coldkey))
    return;
  const value = big(summary.tao_rao);
  bookAlpha(
    g,
    'dispose',
    { coldkey: summary.coldkey, hotkey: summary.hotkey, netuid: summary.netuid! },
    null,
    value,
  );
  if (isOrderColdkey(g, summary.counterpart_coldkey) && summary.counterpart_netuid !== null) {
    bookAlpha(
      g,
      'acquire',
      {
        coldkey: summary.counterpart_coldkey!,
        hotkey: summary.counterpart_hotkey,
        netuid: summary.counterpart_netuid,
      },
      null,
      value,
    );
  }
}

/** TAO transfers: a leg of staking or of a payout, part of a swap or a limit order, or a crossing of the edge. */
function bookTaoTransfers(g: ActionGroup): void {
  // A coldkey swap moves the old coldkey's whole free balance to the new one by a transfer
  // (`swap/swap_coldkey.rs`): part of the swap, the same owner's TAO, never a payment.
  const swaps = g.events.filter((e) => e.kind === 'ColdkeySwapped');
  const swapLeg = (sender: string | null, receiver: string | null) =>
    swaps.some((s) => {
      const [old, fresh] =
        s.role === 'origin' ? [s.coldkey, s.counterpart_coldkey] : [s.counterpart_coldkey, s.coldkey];
      return old === sender && fresh === receiver;
    });
  // A batch of limit orders (`pallets/limit-orders/src/lib.rs`, `execute_batched_orders`) collects a buyer's
  // gross TAO into the pallet's account and pays a seller's TAO (after the order's fee) out of it, each by a
  // transfer in the batch's extrinsic: the order's own TAO leg, which its `OrderExecuted` states already.
  const limitLeg = (sender: string | null, receiver: string | null, amount: bigint) =>
    g.limitOrders.some((order) =>
      order.order_type === 'LimitBuy'
        ? sender === order.coldkey && amount === big(order.tao_rao)
        : receiver === order.coldkey && amount === big(order.tao_rao),
    );
  for (const e of g.events.filter(isTransfer)) {
    const sender = senderOf(e);
    const receiver = receiverOf(e);
    const amount = big(e.tao_rao);
    if (swapLeg(sender, receiver)) continue;
    // To or from a crowdloan's funds account: the contribution's or refund's own leg (liquidity-actions.ts).
    if ((e.to_crowdloan ?? null) !== null || (e.from_crowdloan ?? null) !== null) continue;
    if (!fromSubnet(e) && !toSubnet(e) && limitLeg(sender, receiver, amount)) continue;
    if (e.dissolved_netuid != null) {
      // The owner's lock refund is the registration's (network-lock-actions.ts), not a payout for alpha.
      if (!isOrderColdkey(g, receiver) || e.lock_refund) continue;
      bookTao(g, 'acquire', amount, amount);
      bookAlpha(g, 'dispose', { coldkey: receiver!, hotkey: null, netuid: e.dissolved_netuid }, null, amount);
      continue;
    }
    if (toSubnet(e) && isOrderColdkey(g, sender)) {
      // Staking's TAO leg: valued as the stake it buys (its fee deducted once).
      const stake = g.added.find((a) => a.netuid === e.to_subnet && a.coldkey === sender);
      bookTao(g, 'dispose', amount, stake ? big(stake.tao_rao) - big(stake.fee_rao) : amount);
      continue;
    }
    if (fromSubnet(e) && isOrderColdkey(g, receiver)) {
      bookTao(g, 'acquire', amount, amount);
      continue;
    }
    if (fromSubnet(e) || toSubnet(e)) continue;
    // To or from the coldkey's own EVM address: the same owner's TAO (also when that address's account is a
    // coldkey of the record, having staked through the EVM).
    const evm =
      (isOrderColdkey(g, sender) && ownEvmAddressAt(sender!, receiver)) ||
      (isOrderColdkey(g, receiver) && ownEvmAddressAt(receiver!, sender));
    if (evm) {
      g.ownEvm.add(evm);
      continue;
    }
    if (isOrderColdkey(g, sender) && isOrderColdkey(g, receiver)) continue;
    if (g.summary?.kind === 'StakeTransferred') continue; // the TAO leg of a transfer decided above
    bookTaoAcrossEdge(g, e, sender, receiver, amount);
  }
}

/** A TAO transfer to or from a coldkey outside the order: a disposal or acquisition at market value, flagged. */
function bookTaoAcrossEdge(
  g: ActionGroup,
  e: LedgerEvent,
  sender: string | null,
  receiver: string | null,
  amount: bigint,
): void {
  if (isOrderColdkey(g, sender)) {
    bookTao(g, 'dispose', amount, amount);
    g.crossedWith.add(receiver ?? '');
    g.flags.push({
      kind: 'transfer-out',
      text: `${ref(e)}: TAO sent to ${receiver} (outside this order), taken as disposed of at its market value.`,
    });
  } else if (isOrderColdkey(g, receiver)) {
    bookTao(g, 'acquire', amount, amount);
    g.crossedWith.add(sender ?? '');
    g.flags.push({
      kind: 'transfer-in',
      text: `${ref(e)}: TAO received from ${sender} (outside this order), taken as acquired at its market value.`,
    });
  }
}

/**
 * The holder's own recycles and burns: gone for nothing. A burn bought in the same extrinsic
 * (`add_stake_burn`) is the alpha its stake bought, disposed of for nothing.
 */
function bookRecyclesAndBurns(g: ActionGroup): void {
  for (const e of g.events.filter(
    (x) => (x.kind === 'AlphaRecycled' || x.kind === 'AlphaBurned') && isOrderColdkey(g, x.coldkey),
  )) {
    bookAlpha(
      g,
      'dispose',
      { coldkey: e.coldkey, hotkey: e.hotkey, netuid: e.netuid! },
      big(e.alpha_rao),
      0n,
    );
  }
}

/** A transaction fee paid in alpha: that alpha disposed of at the TAO it was swapped for, marked as a fee. */
function bookFeesInAlpha(g: ActionGroup): void {
  for (const e of g.events.filter(
    (x) => x.kind === 'TransactionFeePaidWithAlpha' && isOrderColdkey(g, x.coldkey),
  )) {
    bookAlpha(
      g,
      'dispose',
      { coldkey: e.coldkey, hotkey: null, netuid: e.netuid! },
      big(e.alpha_rao),
      big(e.tao_rao),
    );
    const leg = g.legs[g.legs.length - 1]!;
    if (leg.asset === 'alpha') leg.fee = true;
  }
}

/** A filled limit order: a buy (TAO for alpha) or a sell (alpha for TAO) at the order's amounts. */
function bookLimitOrders(g: ActionGroup): void {
  for (const e of g.limitOrders) {
    // Its stake events, when the batch emits them for the holder, already say it all.
    if (g.removed.some((r) => r.netuid === e.netuid) || g.added.some((a) => a.netuid === e.netuid)) continue;
    const holding = { coldkey: e.coldkey, hotkey: null, netuid: e.netuid! };
    if (e.order_type === 'LimitBuy') {
      bookTao(g, 'dispose', big(e.tao_rao), big(e.tao_rao));
      bookAlpha(g, 'acquire', holding, big(e.alpha_rao), big(e.tao_rao));
    } else {
      bookAlpha(g, 'dispose', holding, big(e.alpha_rao), big(e.tao_rao));
      bookTao(g, 'acquire', big(e.tao_rao), big(e.tao_rao));
    }
  }
}

/** One kind of action: when a group is it, and the treatment events.csv gives it. */
interface ActionRule {
  kind: ActionKind;
  applies: (g: ActionGroup) => boolean;
  treatment: (g: ActionGroup) => string;
  /** A key swap's old and new key. */
  swap?: (g: ActionGroup) => KeySwap;
  /** A point to check the action raises by being of this kind. */
  flag?: (g: ActionGroup) => ActionFlag | undefined;
}

/** Whether the group's stake left one subnet for the same subnet (a move between hotkeys or coldkeys). */
function withinOneSubnet(g: ActionGroup): boolean {
  const { summary, removed, added } = g;
  const netuids = (list: LedgerEvent[]) => new Set(list.map((e) => e.netuid));
  const from = summary ? summary.netuid : removed[0]!.netuid;
  const to = summary ? summary.counterpart_netuid : added[0]!.netuid;
  return from === to || (netuids(removed).size === 1 && [...netuids(removed)][0] === [...netuids(added)][0]);
}

/** The swap a group's first key-swap event states. */
function keySwapOf(g: ActionGroup): KeySwap {
  const keySwap = g.events.find((e) => e.kind === 'ColdkeySwapped' || e.kind.startsWith('HotkeySwapped'))!;
  if (keySwap.kind === 'ColdkeySwapped') {
    return keySwap.role === 'origin'
      ? { kind: 'coldkey', oldColdkey: keySwap.coldkey, newColdkey: keySwap.counterpart_coldkey ?? '' }
      : { kind: 'coldkey', oldColdkey: keySwap.counterpart_coldkey ?? '', newColdkey: keySwap.coldkey };
  }
  return {
    kind: 'hotkey',
    oldHotkey: keySwap.hotkey ?? '',
    newHotkey: keySwap.new_hotkey ?? '',
    netuid: keySwap.kind === 'HotkeySwappedOnSubnet' ? keySwap.netuid : null,
  };
}

/**
 * The kinds of action, tried in this order once the legs are booked: the first that applies names the group
 * (the order matters: a key swap or income first, whatever else the group holds; an exchange before a plain
 * stake). A new runtime's kind of action gets its rule here.
 */
const ACTION_RULES: readonly ActionRule[] = [
  {
    kind: 'key-swap',
    // The pack pairs the old key's positions with the new key's at the swap's block (set aside, like any
    // action's), and shows the swap day's income on the key the holding began the day with.
    applies: (g) => has(g, 'ColdkeySwapped') || has(g, 'HotkeySwapped') || has(g, 'HotkeySwappedOnSubnet'),
    treatment: (g) =>
      has(g, 'ColdkeySwapped')
        ? 'coldkey swapped: the same holdings under the new coldkey, not a disposal and not income'
        : 'hotkey swapped: the same stake under the new hotkey, not a disposal and not income',
    swap: keySwapOf,
  },
  {
    kind: 'liquidity',
    applies: (g) => isLiquidityGroup(g.events),
    treatment: (g) => liquidityTreatment(g.events, g.legs),
    flag: (g) => liquidityFlag(g.events, g.legs),
  },
  {
    kind: 'crowdloan',
    applies: (g) => isCrowdloanGroup(g.events, g.coldkeys),
    treatment: (g) => crowdloanTreatment(g.events),
  },
  {
    kind: 'income',
    applies: (g) =>
      callLegs(g).length === 0 &&
      (g.leased.size > 0 ||
        (callEvents(g).length > 0 && callEvents(g).every((e) => INCOME_KINDS.has(e.kind)))),
    treatment: (g) => {
      const what = has(g, 'RootClaimed')
        ? 'root claim (RootClaimed, which states no amount: the alpha claimed is the rise of the position)'
        : has(g, 'AutoStakeAdded')
          ? 'auto-stake of a miner\u2019s incentive (AutoStakeAdded)'
          : has(g, 'SubnetLeaseDividendsDistributed')
            ? 'lease dividends of a subnet lease (SubnetLeaseDividendsDistributed)'
            : 'income';
      return `${what}: income when received, counted in the day\u2019s income (income.csv), not a disposal`;
    },
  },
  {
    kind: 'fee-in-alpha',
    applies: (g) => has(g, 'TransactionFeePaidWithAlpha') && noStakeEvents(g) && !g.summary,
    treatment: () => 'transaction fee paid in alpha: a disposal of that alpha at the TAO it was swapped for',
  },
  {
    kind: 'recycle',
    applies: (g) => has(g, 'AlphaRecycled') && noStakeEvents(g),
    treatment: () => 'alpha recycled by the holder: a disposal for nothing',
  },
  {
    kind: 'burn',
    applies: (g) => has(g, 'AlphaBurned') && noStakeEvents(g),
    treatment: () => 'alpha burned by the holder: a disposal for nothing',
  },
  {
    kind: 'network-lock',
    applies: (g) => isNetworkLockGroup(g.events, g.coldkeys),
    treatment: (g) => networkLockTreatment(g.events),
  },
  {
    kind: 'dissolution',
    applies: (g) => dissolvedNetuid(g) != null,
    treatment: (g) =>
      `subnet ${dissolvedNetuid(g)} dissolved (NetworkRemoved): the alpha held on it disposed of for the TAO the chain ` +
      "paid out from the subnet's account (this transfer), that TAO acquired at its value",
  },
  {
    kind: 'limit-order',
    applies: (g) => has(g, 'LimitOrderExecuted') && noStakeEvents(g),
    treatment: () => 'limit order executed: one exchange between TAO and alpha at the order\u2019s amounts',
  },
  {
    kind: 'move',
    applies: (g) => isMoveOrExchange(g) && withinOneSubnet(g),
    treatment: (g) =>
      g.summary && g.summary.counterpart_coldkey !== g.summary.coldkey
        ? 'moved between coldkeys of this order on one subnet: not a disposal'
        : 'moved between hotkeys on one subnet: not a disposal',
  },
  {
    kind: 'exchange',
    applies: isMoveOrExchange,
    treatment: () => 'one token exchanged for another: disposal and acquisition',
  },
  {
    kind: 'stake',
    applies: (g) => g.added.length > 0,
    treatment: (g) =>
      g.added.every((e) => e.netuid === 0)
        ? 'stake on root: TAO stays TAO, not a disposal'
        : 'TAO exchanged for alpha: disposal of TAO, acquisition of alpha',
  },
  {
    kind: 'unstake',
    // The AlphaV2 migration's unstake of a legacy position, outside any extrinsic.
    applies: (g) => g.removed.length > 0 && g.removed.every((e) => e.extrinsic_index === null),
    treatment: (g) =>
      `unstaked by the chain's AlphaV2 migration (migrate_alpha_v2_and_unstake_dust_v1, spec 473, block ${g.first.block}, outside any extrinsic): a legacy position worth 1,000 to 3,000,000 RAO paid out to its coldkey without fee. Alpha exchanged for TAO: disposal of alpha, acquisition of TAO`,
  },
  {
    kind: 'unstake',
    applies: (g) => g.removed.length > 0,
    treatment: (g) =>
      g.removed.every((e) => e.netuid === 0)
        ? 'unstake from root: TAO stays TAO, not a disposal'
        : 'alpha exchanged for TAO: disposal of alpha, acquisition of TAO',
  },
  {
    kind: 'registration',
    applies: (g) => has(g, 'NeuronRegistered') && noStakeEvents(g),
    treatment: (g) => {
      const e = g.events.find((x) => x.kind === 'NeuronRegistered')!;
      return `neuron registration (burned_register) of hotkey ${e.hotkey} on subnet ${e.netuid}: the TAO burned is given for the registration, a disposal of that TAO at its market value (tokens spent on a service, CRYPTO22100); no asset is acquired with it`;
    },
  },
  {
    kind: 'tao-out',
    applies: (g) => callLegs(g).some((l) => l.asset === TAO_SIDE && l.side === 'dispose'),
    treatment: () => 'TAO sent to a coldkey outside the order: disposal at market value',
  },
  {
    kind: 'tao-in',
    applies: (g) => callLegs(g).some((l) => l.asset === TAO_SIDE && l.side === 'acquire'),
    treatment: () => 'TAO received from a coldkey outside the order: acquisition at market value',
  },
  {
    kind: 'deposit',
    applies: (g) => (has(g, 'Reserved') || has(g, 'Unreserved')) && callLegs(g).length === 0,
    treatment: (g) =>
      has(g, 'Reserved')
        ? 'TAO reserved as a deposit (Balances.Reserved: a proxy, an identity or a multisig): still held, in the TAO pool; not a disposal'
        : 'a deposit returned (Balances.Unreserved): TAO that was still held, back in the free balance; not an acquisition',
  },
  {
    kind: 'own-evm',
    applies: (g) => g.ownEvm.size > 0 && callLegs(g).length === 0,
    treatment: (g) =>
      `TAO moved between the coldkey and its own EVM address ${[...g.ownEvm].join(', ')} (the address is the coldkey's key truncated to 20 bytes, which only this coldkey can draw on by EVM.withdraw): the same owner's TAO, in the TAO pool; not a disposal`,
  },
  {
    kind: 'fee',
    // A call whose only event the pack reads is its fee (a proxy, an identity, a weights call that paid).
    applies: (g) => callEvents(g).length === 0,
    treatment: () =>
      'transaction fee of a call that moved nothing else the pack books: the TAO paid is a disposal at its market value (the service bought, CRYPTO22100); no acquisition or disposal to attribute it to as a cost',
  },
  {
    kind: 'subnet-leg',
    applies: (g) =>
      callEvents(g).every(isTransfer) && callEvents(g).some((e) => fromSubnet(e) || toSubnet(e)),
    treatment: () =>
      'TAO to or from a subnet account (staking\u2019s own leg): not a payment to or from anyone',
    flag: (g) => ({
      kind: 'unexplained',
      text: `${g.events.map(ref).join(', ')}: TAO moved to or from a subnet's own account with no staking event of this order in the same extrinsic; not a disposal, listed for checking.`,
    }),
  },
  {
    kind: 'internal',
    applies: () => true,
    treatment: () => 'between coldkeys of this order: not a disposal',
  },
];

function dissolvedNetuid(g: ActionGroup): number | null | undefined {
  return g.events.find((e) => e.dissolved_netuid != null)?.dissolved_netuid;
}

/** A summary event, or stake both removed and added by the order: a move or an exchange. */
function isMoveOrExchange(g: ActionGroup): boolean {
  return g.summary !== undefined || (g.removed.length > 0 && g.added.length > 0);
}

/**
 * The action of the group as booked, of this kind. `counterparty`: the other side of a crossing the caller
 * decided; else the one address the group's TAO crossed the edge with, if there was one.
 */
function finishAction(
  g: ActionGroup,
  kind: ActionKind,
  plain: string,
  counterparty?: string,
): EconomicAction {
  // A fee paid in alpha inside another call (an unstake, say) is a second disposal the row must name.
  const feeInAlpha = kind !== 'fee-in-alpha' && has(g, 'TransactionFeePaidWithAlpha');
  const withAlphaFee = feeInAlpha
    ? `${plain}; its transaction fee was paid in alpha (TransactionFeePaidWithAlpha): that alpha disposed of too, at the TAO it was swapped for`
    : plain;
  // A fee paid in TAO with the call: its own disposal, and a cost of the call (cgt-transactions.ts).
  const feeInTao = kind !== 'fee' && has(g, 'TransactionFeePaid');
  const withTaoFee = feeInTao
    ? `${withAlphaFee}; its transaction fee was paid from the free TAO (TransactionFeePaid): that TAO disposed of at its market value, the fee an allowable cost of what the call acquired or disposed of (CRYPTO22150)`
    : withAlphaFee;
  const rootFee = [...g.removed, ...g.added].some((e) => e.netuid === 0 && big(e.fee_rao) > 0n);
  const treatment = rootFee
    ? `${withTaoFee}; the staking fee the event states was kept by the chain (the root stake is the TAO less it): that TAO disposed of at its market value`
    : withTaoFee;
  const action: EconomicAction = {
    kind,
    treatment,
    block: g.first.block,
    time: g.first.time,
    events: g.events,
    legs: g.legs,
    touches: g.touches,
    flags: g.flags,
  };
  const other =
    counterparty === undefined && g.crossedWith.size === 1
      ? [...g.crossedWith][0] || undefined
      : counterparty;
  if (other !== undefined && CROSSING_KINDS.has(kind)) action.counterparty = other;
  if (kind === 'liquidity') {
    const figures = liquidityFigures(g.events, g.coldkeys);
    if (figures) action.liquidity = figures;
  }
  return action;
}
