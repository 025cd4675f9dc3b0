/**
 * The chain record of an order's coldkeys as capital gains transactions (`computeGains`' input). HMRC's
 * Cryptoassets Manual treats each token as its own asset, pooled per person across wallets (CRYPTO22200):
 * TAO is one asset and each subnet's alpha another, named `alpha:<netuid>:<registered_at>` so that a netuid
 * reused by a new subnet is a new asset. What counts:
 *
 * - the order's events are grouped per extrinsic into economic actions (`actions/economic-action.ts`), and
 *   each action is booked once: a stake is a disposal of TAO and an acquisition of alpha (token for token,
 *   CRYPTO22100; proceeds the value of the alpha received, the TAO staked less the fee); an unstake the
 *   reverse; a move or swap to another subnet a disposal of one alpha and an acquisition of the other; a move
 *   within a subnet, between coldkeys of the order on one subnet, a hotkey or coldkey swap: nothing; a stake
 *   or TAO transfer outside the order a disposal (from outside an acquisition) at market value, flagged; a
 *   TAO transfer to or from a subnet's own account never a payment to anyone; a dissolved subnet's payout a
 *   disposal of its alpha for the TAO paid; a recycle or burn by the holder a disposal for nothing; a fee
 *   paid in alpha a disposal at the TAO it was swapped for; per action at most one disposal per asset;
 * - income (per UK day and asset) is an acquisition at its value when received (CRYPTO21200), after each
 *   coldkey's rises and falls on one subnet and day are netted across hotkeys (`netAcrossHotkeys`); a fall no
 *   action explains is listed, never booked as a disposal for nothing: a subnet ended without payment leaves
 *   its pool for a negligible value claim (CRYPTO22500);
 * - what the coldkeys hold when the tax year's record opens enters the pools at its market value that day
 *   (an assumption, stated in the pack).
 *
 * Quantities moved by an action are measured on the chain (stake after its block − before), so the pools
 * hold exactly what the chain shows. Pounds are rounded to 8 decimal places, the figures `cgt-input.csv`
 * carries, so that `sbm tax cgt` on that file gives the pack's gains exactly.
 */
import { Decimal } from 'decimal.js';
import { ukDay } from '../../../time/uk-day.js';
import { CROSSING_KINDS } from '../../chain-record/actions/action-kind.js';
import { type EconomicAction, TAO_SIDE } from '../../chain-record/actions/economic-action.js';
import type { HoldingMove, LedgerDay } from '../../chain-record/ledger-days.js';
import { eventLabel, type LedgerEvent } from '../../chain-record/ledger-event.js';
import { type PositionRef, positionId, type StakesAtBlock } from '../../chain-record/stake-at-blocks.js';
import { touchedPositions } from '../../chain-record/touched-positions.js';
import type { GbpPrices } from '../gbp-prices.js';
import { gbpOfTaoRao, type IncomeRow, taoRaoAt } from '../income-ledger.js';
import { CgtDecimal, GBP_PLACES } from './cgt-decimal.js';
import type { CgtTransaction } from './cgt-types.js';
import { type LiquidityFeeIncome, splitLiquidityFees } from './liquidity-fee-income.js';

export const TAO_ASSET = 'TAO';

export function alphaAsset(netuid: number, registeredAt: number): string {
  return netuid === 0 ? TAO_ASSET : `alpha:${netuid}:${registeredAt}`;
}

/** Something the reader should know about a figure: shown in the PDF and kept in the CSVs. */
export interface PackFlag {
  date: string;
  kind:
    | 'transfer-out'
    | 'transfer-in'
    | 'negative-income'
    | 'unpriced'
    | 'unexplained'
    | 'ended'
    | 'moved'
    | 'opening'
    | 'calendar'
    | 'stale-rate'
    | 'reconciliation'
    | 'provisional'
    | 'own-records';
  text: string;
  /** The transaction reference the flag is about, when it is one (a transfer a buyer's records can explain). */
  ref?: string;
}

/** What the pack did with one action (one extrinsic's events): the events.csv row. */
export interface EventTreatment {
  /** The event that names the action (a move's summary, a stake's StakeAdded, ...). */
  event: LedgerEvent;
  action: EconomicAction;
  date: string;
  treatment: string;
  transactions: CgtTransaction[];
  /** Liquidity fees paid out with a position: income of the day, their acquisitions among `transactions`. */
  feeIncome?: LiquidityFeeIncome;
}

export interface CgtMapping {
  transactions: CgtTransaction[];
  events: EventTreatment[];
  flags: PackFlag[];
}

export interface CgtMappingInput {
  coldkeys: ReadonlySet<string>;
  opening: LedgerDay;
  /** The order's events as actions, one per extrinsic (`actions/economic-action.ts`). */
  actions: readonly EconomicAction[];
  income: readonly IncomeRow[];
  /** Falls matched by rises on another hotkey the same day (`netAcrossHotkeys`): named, not booked. */
  moves?: readonly HoldingMove[];
  days: readonly LedgerDay[];
  positions: readonly PositionRef[];
  stakes: ReadonlyMap<number, StakesAtBlock>;
  prices: GbpPrices;
  /**
   * Blocks whose actions were treated ahead (`treatBlock`, while a pack's reads arrived): used when the block
   * still has the same actions, else treated again.
   */
  treated?: ReadonlyMap<number, TreatedBlock>;
  /**
   * Each UK day's income made while a pack's reads arrived (`incomeOfRows` of the day's rows), by date: used
   * when the record's income is those days' rows as they were, else made again.
   */
  incomeAhead?: ReadonlyMap<string, IncomeTransactions>;
}

/** One block's actions treated: their transactions and events.csv rows, and the points they raise. */
export interface TreatedBlock {
  actions: readonly EconomicAction[];
  events: EventTreatment[];
  flags: PackFlag[];
}

const RAO = new CgtDecimal(1_000_000_000);
const units = (rao: bigint) => new CgtDecimal(rao.toString()).div(RAO);
const gbp8 = (value: Decimal) => value.toDecimalPlaces(GBP_PLACES, Decimal.ROUND_HALF_EVEN);

/** The TAO value of an amount in pounds on a UK day. */
type GbpOf = (date: string, taoRao: bigint) => Decimal;

/** At the rate of the UK day's end; a day with no rate near enough stops the pack (never £0). */
export function gbpAtDayEnd(prices: GbpPrices): GbpOf {
  return (date, taoRao) => gbpOfTaoRao(taoRao, prices.on(date));
}

export function cgtTransactions(input: CgtMappingInput): CgtMapping {
  const flags: PackFlag[] = [];
  const gbpOf = gbpAtDayEnd(input.prices);
  const transactions = openingTransactions(input, gbpOf, flags);
  const events = actionTreatments(input, gbpOf, flags);
  for (const treated of events) transactions.push(...treated.transactions);
  transactions.push(...incomeTransactions(input, flags));
  const ordered = transactions.sort(
    (a, b) =>
      a.at.getTime() - b.at.getTime() ||
      a.asset.localeCompare(b.asset) ||
      (a.action < b.action ? -1 : a.action > b.action ? 1 : 0),
  );
  return { transactions: coverShortfalls(ordered, flags), events, flags };
}

function stakesAt(stakes: ReadonlyMap<number, StakesAtBlock>, block: number): StakesAtBlock {
  const found = stakes.get(block);
  if (!found) throw new Error(`cgt mapping: no stake read at block ${block}`);
  return found;
}

/** Adds a transaction of a positive quantity in RAO; nothing for none. */
function addTransaction(
  list: CgtTransaction[],
  tx: Omit<CgtTransaction, 'quantity'> & { rao: bigint },
): void {
  if (tx.rao <= 0n) return;
  const { rao, ...rest } = tx;
  list.push({ ...rest, quantity: units(rao) });
}

/** How many opening holdings the opening's flag names (TAO and the largest alpha) before counting the rest. */
const OPENING_HOLDINGS_NAMED = 5;

/**
 * Opening holdings: every position, and the free TAO, at the opening block's market value, one acquisition
 * per asset; and the flag that tells the reader so (their real cost is not in the chain record).
 */
function openingTransactions(input: CgtMappingInput, gbpOf: GbpOf, flags: PackFlag[]): CgtTransaction[] {
  const transactions: CgtTransaction[] = [];
  const byAsset = [...openingHoldings(input)].sort(([a], [b]) => (a < b ? -1 : 1));
  const openingAt = new Date(input.opening.timeMs);
  for (const [asset, { rao, taoRao }] of byAsset) {
    addTransaction(transactions, {
      at: openingAt,
      asset,
      action: 'acquire',
      rao,
      gbp: gbpOf(input.opening.date, taoRao),
      ref: `opening ${input.opening.date}`,
      kind: 'opening',
    });
  }
  if (byAsset.length > 0) {
    // A wide staker opens with a hundred holdings or more: the flag names TAO and the largest few, and
    // counts and totals the rest (cgt-input.csv's opening rows give each), so that it reads in a few lines.
    const valued = byAsset
      .map(([asset, { rao, taoRao }]) => ({ asset, rao, gbp: gbpOf(input.opening.date, taoRao) }))
      .sort((a, b) => (a.asset === 'TAO' ? -1 : b.asset === 'TAO' ? 1 : b.gbp.cmp(a.gbp)));
    // One holding more than those named is named too: "1 other holding" would say no less.
    const shown = valued.length <= OPENING_HOLDINGS_NAMED + 1 ? valued.length : OPENING_HOLDINGS_NAMED;
    const named = valued.slice(0, shown);
    const others = valued.slice(shown);
    const othersGbp = others.reduce((sum, h) => sum.plus(h.gbp), units(0n));
    const openingList = [
      ...named.map((h) => `${h.asset} ${units(h.rao).toFixed()} at £${h.gbp.toFixed(2)}`),
      ...(others.length > 0
        ? [
            `${others.length} other holdings at £${othersGbp.toFixed(2)} in total, each given in cgt-input.csv's opening rows`,
          ]
        : []),
    ].join('; ');
    flags.push({
      date: input.opening.date,
      kind: 'opening',
      text: `The record opens at the end of ${input.opening.date} (block ${input.opening.block}), the earliest day the service collected: the holdings then (${openingList}) enter the pools at their market value that day, since their real cost is not in the chain record. Every later pool, across tax years, follows from them.`,
    });
  }
  return transactions;
}

/** What the coldkeys hold at the opening block, per asset: the quantity and its TAO value. */
function openingHoldings(input: CgtMappingInput): Map<string, { rao: bigint; taoRao: bigint }> {
  const open = stakesAt(input.stakes, input.opening.block);
  const byAsset = new Map<string, { rao: bigint; taoRao: bigint }>();
  const hold = (asset: string, rao: bigint, taoRao: bigint) => {
    const entry = byAsset.get(asset) ?? { rao: 0n, taoRao: 0n };
    entry.rao += rao;
    entry.taoRao += taoRao;
    byAsset.set(asset, entry);
  };
  for (const position of input.positions) {
    const rao = open.stake.get(positionId(position)) ?? 0n;
    if (rao === 0n) continue;
    const asset = alphaAsset(position.netuid, open.subnets.get(position.netuid)?.registeredAt ?? 0);
    hold(asset, rao, taoRaoAt(open, position.netuid, rao) ?? 0n);
  }
  for (const coldkey of input.coldkeys) {
    // Reserved TAO (a deposit) is still the coldkey's: it is in the TAO pool as the free TAO is.
    const free = (open.free.get(coldkey) ?? 0n) + (open.reserved?.get(coldkey) ?? 0n);
    if (free > 0n) hold(TAO_ASSET, free, free);
  }
  return byAsset;
}

/**
 * Actions (one per extrinsic of the order's events), measured and booked, in order: per block, the change of
 * every position an action of that block touches, read once and shared among the block's actions.
 */
function actionTreatments(input: CgtMappingInput, gbpOf: GbpOf, flags: PackFlag[]): EventTreatment[] {
  const events: EventTreatment[] = [];
  const byBlock = new Map<number, EconomicAction[]>();
  for (const action of input.actions)
    byBlock.set(action.block, [...(byBlock.get(action.block) ?? []), action]);
  for (const [block, blockActions] of byBlock) {
    const ahead = input.treated?.get(block);
    const treated =
      ahead && sameActions(ahead.actions, blockActions)
        ? ahead
        : treatBlock(blockActions, stakesAt(input.stakes, block), stakesAt(input.stakes, block - 1), gbpOf);
    events.push(...treated.events);
    flags.push(...treated.flags);
  }
  return events;
}

function sameActions(a: readonly EconomicAction[], b: readonly EconomicAction[]): boolean {
  return a.length === b.length && a.every((action, i) => action === b[i]);
}

/**
 * The actions of one block (in their order) treated with the stake read at the block (`after`) and at the
 * block before: each one's transactions and events.csv row, and the points they raise. It reads nothing but
 * its arguments, so a pack treats a block as soon as its two reads arrive (`treat-blocks-ahead.ts`).
 */
export function treatBlock(
  blockActions: readonly EconomicAction[],
  after: StakesAtBlock,
  before: StakesAtBlock,
  gbpOf: GbpOf,
): TreatedBlock {
  const flags: PackFlag[] = [];
  const takes = alphaTakes(blockActions, before, after);
  const events = blockActions.map((action, i) =>
    actionTreatment(action, takes[i]!, { before, after }, gbpOf, flags),
  );
  return { actions: blockActions, events, flags };
}

/** The alpha an action took from (or added to) one position it touches, in RAO. */
interface AlphaTake {
  position: PositionRef;
  rao: bigint;
}

/**
 * Alpha quantities as the chain shows them, per action of one block: the change of the positions the action
 * touches (shared with a later action of the block: its stated amounts, the last action taking what is left).
 * Every touched position takes its share, also one the action books nothing for (a swap's).
 */
function alphaTakes(
  blockActions: readonly EconomicAction[],
  before: StakesAtBlock,
  after: StakesAtBlock,
): AlphaTake[][] {
  const resolved = blockActions.map((action) => touchedPositions(action, before, after));
  const remaining = new Map<string, bigint>();
  const measured = (id: string) => (after.stake.get(id) ?? 0n) - (before.stake.get(id) ?? 0n);
  return blockActions.map((action, i) => {
    const takes: AlphaTake[] = [];
    for (const [id, position] of resolved[i]!) {
      if (!remaining.has(id)) remaining.set(id, measured(id));
      const laterActions = blockActions.slice(i + 1).filter((_, j) => resolved[i + 1 + j]!.has(id));
      const stated = statedChange(action, position);
      const left = remaining.get(id)!;
      const take =
        laterActions.length === 0
          ? left
          : stated !== null
            ? stated
            : laterActions.reduce((rest, next) => rest - (statedChange(next, position) ?? 0n), left);
      remaining.set(id, left - take);
      takes.push({ position, rao: take });
    }
    return takes;
  });
}

/** One action's transactions and its events.csv row; its flags join the pack's. */
function actionTreatment(
  action: EconomicAction,
  takes: readonly AlphaTake[],
  reads: { before: StakesAtBlock; after: StakesAtBlock },
  gbpOf: GbpOf,
  flags: PackFlag[],
): EventTreatment {
  const date = ukDay(Date.parse(action.time));
  const at = new Date(action.time);
  const first = action.events[0]!;
  const ref = first.event_index < 0 ? eventLabel(first) : `event ${action.block}/${first.event_index}`;
  const own = changeTransactions(assetChanges(action, takes, reads), { at, date, ref }, gbpOf);
  // Disposals first in the events' own order (what was given, then what was got).
  own.sort((a, b) => (a.action === b.action ? 0 : a.action === 'dispose' ? -1 : 1));
  allowFeeInExchange(own);
  if (CROSSING_KINDS.has(action.kind)) {
    for (const tx of own) {
      tx.kind = tx.action === 'acquire' ? 'transfer-in' : 'transfer-out';
      if (action.counterparty !== undefined) tx.counterparty = action.counterparty;
    }
  }
  own.push(...taoFeeTransactions(action, own, { at, date }, gbpOf));
  const fees = splitLiquidityFees(action, own, { date, ref, after: reads.after }, gbpOf);
  own.push(...fees.transactions);
  for (const flag of action.flags) flags.push({ date, kind: flag.kind, text: flag.text, ref });
  return {
    event: representative(action),
    action,
    date,
    treatment: action.treatment,
    transactions: own,
    ...(fees.income ? { feeIncome: fees.income } : {}),
  };
}

/**
 * A fee paid in TAO (a call's `TransactionFeePaid`, or the staking fee of a stake or unstake on root): a
 * disposal of that TAO at its market value, as tokens given for a service (CRYPTO22100), named by the event
 * that states it. The fee is an allowable
 * cost of the call (TCGA 1992 s38, CRYPTO22150: "transaction fees paid for having the transaction included on
 * the distributed ledger"): an incidental cost of the call's disposal (s38(1)(c)) when it made one, else part
 * of the cost of what it acquired (s38(1)(a)); a call that did neither (a move within a subnet, TAO staked on
 * root, a transfer between the order's own coldkeys or to the coldkey's own EVM address, a proxy) has no
 * acquisition or disposal the fee can be attributed to, as CRYPTO22150 says of a deposit that keeps beneficial
 * ownership: its TAO is still disposed of.
 */
function taoFeeTransactions(
  action: EconomicAction,
  own: CgtTransaction[],
  { at, date }: { at: Date; date: string },
  gbpOf: GbpOf,
): CgtTransaction[] {
  const fees: CgtTransaction[] = [];
  for (const leg of action.legs) {
    if (leg.asset !== TAO_SIDE || !leg.fee) continue;
    const value = gbpOf(date, leg.valueTaoRao);
    const event = leg.feeEvent;
    const ref = event ? `event ${event.block}/${event.event_index}` : `fee ${action.block}`;
    addTransaction(fees, {
      at,
      asset: TAO_ASSET,
      action: 'dispose',
      rao: leg.rao,
      gbp: value,
      ref,
      paidAsFee: { quantity: units(leg.rao), gbp: value },
    });
    const disposal = own.find((tx) => tx.action === 'dispose');
    const acquisition = own.find((tx) => tx.action === 'acquire');
    if (disposal) disposal.fee = (disposal.fee ?? new CgtDecimal(0)).add(value);
    else if (acquisition) acquisition.gbp = acquisition.gbp.add(value);
  }
  return fees;
}

/** An action's change of one asset: the net quantity (RAO, + acquired) and the TAO value of each side. */
interface AssetChange {
  rao: bigint;
  disposeValue: bigint;
  acquireValue: bigint;
  sides: Set<string>;
  netuid: number;
  /** A transaction fee paid in this alpha: its amount and the TAO it was swapped for. */
  feeRao: bigint;
  feeValue: bigint;
}

/**
 * Per asset, what an action changed: the values its legs state, the TAO its legs state and the alpha the
 * chain shows (`alphaTakes`) for the positions it has a leg in.
 */
function assetChanges(
  action: EconomicAction,
  takes: readonly AlphaTake[],
  { before, after }: { before: StakesAtBlock; after: StakesAtBlock },
): Map<string, AssetChange> {
  const assets = new Map<string, AssetChange>();
  const entry = (asset: string, netuid: number) => {
    const found = assets.get(asset) ?? {
      rao: 0n,
      disposeValue: 0n,
      acquireValue: 0n,
      sides: new Set<string>(),
      netuid,
      feeRao: 0n,
      feeValue: 0n,
    };
    assets.set(asset, found);
    return found;
  };
  // Alpha valued at the pool's price (a liquidity position's, actions/liquidity-actions.ts): the stated amount,
  // or the change the chain shows on the subnet's positions the action touches.
  const measuredOn = (netuid: number) => {
    const change = takes.filter((t) => t.position.netuid === netuid).reduce((sum, t) => sum + t.rao, 0n);
    return change < 0n ? -change : change;
  };
  const atMarket = (side: 'dispose' | 'acquire', netuid: number, stated: bigint | null) =>
    taoRaoAt(side === 'dispose' ? before : after, netuid, stated ?? measuredOn(netuid)) ?? 0n;
  for (const leg of action.legs) {
    if (leg.asset === 'claim') {
      // A right that is no token (a liquidity position, a crowdloan contribution): its own asset.
      const e = entry(leg.name, -1);
      e.sides.add(leg.side);
      const market = leg.alphaAtMarket
        ? atMarket(
            leg.side === 'dispose' ? 'acquire' : 'dispose',
            leg.alphaAtMarket.netuid,
            leg.alphaAtMarket.rao,
          )
        : 0n;
      if (leg.side === 'dispose') e.disposeValue += leg.valueTaoRao + market;
      else e.acquireValue += leg.valueTaoRao + market;
      e.rao += leg.side === 'acquire' ? leg.rao : -leg.rao;
      continue;
    }
    // A TAO fee is its own disposal (`taoFeeTransactions`), never netted with the call's TAO. The staking
    // fee of a stake on or unstake from root is also what TAO given and root stake got differ by: counted
    // here as accounted for, so the residue booked below is only what the share arithmetic lost or added.
    if (leg.asset === TAO_SIDE && leg.fee) {
      if (isStakingFee(action, leg.feeEvent)) entry(TAO_ASSET, 0).rao += leg.rao;
      continue;
    }
    const netuid = leg.asset === TAO_SIDE ? 0 : leg.holding.netuid;
    // What is given up was held before the block (a dissolved subnet's registration is gone after it).
    const registeredAt = (leg.side === 'dispose' ? before : after).subnets.get(netuid)?.registeredAt ?? 0;
    const e = entry(leg.asset === TAO_SIDE ? TAO_ASSET : alphaAsset(netuid, registeredAt), netuid);
    e.sides.add(leg.side);
    const value =
      leg.asset === 'alpha' && leg.atMarket
        ? leg.valueTaoRao + atMarket(leg.side, netuid, leg.statedRao)
        : leg.valueTaoRao;
    if (leg.side === 'dispose') e.disposeValue += value;
    else e.acquireValue += value;
    if (leg.asset === 'alpha' && leg.fee) {
      e.feeRao += leg.statedRao ?? 0n;
      e.feeValue += leg.valueTaoRao;
    }
    if (leg.asset === TAO_SIDE) e.rao += leg.side === 'acquire' ? leg.rao : -leg.rao;
  }
  for (const { position, rao: take } of takes) {
    const side = action.legs.find((leg) => leg.asset === 'alpha' && leg.holding.netuid === position.netuid);
    // Root stake is TAO (its asset is TAO): staking on root nets against the TAO given, nothing left.
    const registeredAt = (take < 0n ? before : after).subnets.get(position.netuid)?.registeredAt ?? 0;
    const change = entry(alphaAsset(position.netuid, registeredAt), position.netuid);
    if (!side) {
      // Touched by a key swap: the same holding under another key, given and got back; only what the
      // swap's share arithmetic lost or added is booked. Otherwise nothing.
      if (!action.swap) continue;
      change.sides.add('dispose').add('acquire');
    }
    change.rao += take;
  }
  return assets;
}

/** Whether a TAO fee leg is a stake event's staking fee (on root), not a call's `TransactionFeePaid`. */
function isStakingFee(
  action: EconomicAction,
  feeEvent: { block: number; event_index: number } | undefined,
): boolean {
  const event = action.events.find(
    (e) => e.block === feeEvent?.block && e.event_index === feeEvent?.event_index,
  );
  return event !== undefined && event.kind !== 'TransactionFeePaid';
}

/** An action's transactions: per asset (TAO first), a disposal of what it lost or an acquisition of what it got. */
function changeTransactions(
  assets: ReadonlyMap<string, AssetChange>,
  { at, date, ref }: { at: Date; date: string; ref: string },
  gbpOf: GbpOf,
): CgtTransaction[] {
  const own: CgtTransaction[] = [];
  for (const [asset, { rao, disposeValue, acquireValue, sides, feeRao, feeValue }] of [...assets].sort(
    ([a], [b]) => (a === TAO_ASSET ? -1 : b === TAO_ASSET ? 1 : a < b ? -1 : 1),
  )) {
    // Given and got back in one action (a move within a subnet, TAO staked on root, the TAO legs of a
    // move across subnets): not a disposal. What did not come back left the holdings (the RAO a move's share
    // arithmetic lost; a root stake's fee is booked as a fee): a disposal of it for nothing; what came back beyond
    // what was given, an acquisition for nothing. The pools then hold what the chain holds.
    if (rao === 0n) continue;
    if (sides.size === 2) {
      const lost = rao < 0n;
      addTransaction(own, {
        at,
        asset,
        action: lost ? 'dispose' : 'acquire',
        rao: lost ? -rao : rao,
        gbp: new CgtDecimal(0),
        ref,
      });
      continue;
    }
    if (rao < 0n) {
      addTransaction(own, {
        at,
        asset,
        action: 'dispose',
        rao: -rao,
        gbp: gbpOf(date, disposeValue),
        ref,
        ...(feeRao > 0n && feeRao < -rao
          ? { paidAsFee: { quantity: units(feeRao), gbp: gbpOf(date, feeValue) } }
          : {}),
      });
    } else {
      addTransaction(own, { at, asset, action: 'acquire', rao, gbp: gbpOf(date, acquireValue), ref });
    }
  }
  return own;
}

/**
 * Income: one acquisition per asset and UK day of what was received. A fall no action explains is never
 * booked (not a disposal for nothing): a subnet that ended without paying its holders leaves its pool for a
 * negligible value claim (CRYPTO22500); any other fall is listed for the reader to check. The same-day
 * moves between hotkeys are named too.
 */
function incomeTransactions(input: CgtMappingInput, flags: PackFlag[]): CgtTransaction[] {
  const ahead = input.incomeAhead && incomeMadeAhead(input.income, input.incomeAhead);
  let transactions: CgtTransaction[];
  if (ahead) {
    transactions = ahead.transactions;
    flags.push(...ahead.flags);
  } else {
    const made = incomeOfRows(input.income, input.days, input.stakes);
    transactions = made.transactions;
    flags.push(...made.flags);
  }
  for (const move of input.moves ?? []) flags.push(movedFlag(move, input.actions));
  return transactions;
}

/** Income rows as transactions (an acquisition per UK day and asset) and their flags, in the rows' order. */
export interface IncomeTransactions {
  /** The rows they were made from. */
  rows: readonly IncomeRow[];
  transactions: CgtTransaction[];
  flags: PackFlag[];
}

/**
 * The transactions and flags of `rows` (`days`: at least the rows' days; `stakes`: at least their last
 * blocks' reads). Each UK day's are its own, so a record's are those of its days one after the other.
 */
export function incomeOfRows(
  rows: readonly IncomeRow[],
  days: readonly LedgerDay[],
  stakes: ReadonlyMap<number, StakesAtBlock>,
): IncomeTransactions {
  const flags: PackFlag[] = [];
  const dayTime = new Map(days.map((day) => [day.date, day.timeMs]));
  const dayBlock = new Map(days.map((day) => [day.date, day.block]));
  const incomeByDay = new Map<string, { date: string; asset: string; rao: bigint; gbp: Decimal }>();
  for (const row of rows) {
    const asset = alphaAsset(row.position.netuid, row.registeredAt);
    if (row.alphaRao < 0n) {
      flags.push(fallFlag(row, asset, stakes, dayBlock));
      continue;
    }
    const key = `${row.date}|${asset}`;
    const entry = incomeByDay.get(key) ?? { date: row.date, asset, rao: 0n, gbp: new CgtDecimal(0) };
    entry.rao += row.alphaRao;
    entry.gbp = entry.gbp.add(row.gbp ?? 0);
    incomeByDay.set(key, entry);
    if (row.gbp === null) {
      flags.push({
        date: row.date,
        kind: 'unpriced',
        text: `${row.date}: income on subnet ${row.position.netuid} has no pool price that day (the subnet's pool held no reserves); valued at £0.`,
      });
    }
  }
  const transactions: CgtTransaction[] = [];
  for (const entry of incomeByDay.values()) {
    const at = new Date(dayTime.get(entry.date) ?? 0);
    addTransaction(transactions, {
      at,
      asset: entry.asset,
      action: 'acquire',
      rao: entry.rao,
      gbp: gbp8(entry.gbp),
      ref: `income ${entry.date}`,
      kind: 'income',
    });
  }
  return { rows, transactions, flags };
}

/**
 * The record's income transactions from those made day by day, when the record's rows are exactly those days'
 * rows one after the other (the same objects); undefined when any day differs or was not made.
 */
function incomeMadeAhead(
  income: readonly IncomeRow[],
  ahead: ReadonlyMap<string, IncomeTransactions>,
): { transactions: CgtTransaction[]; flags: PackFlag[] } | undefined {
  const transactions: CgtTransaction[] = [];
  const flags: PackFlag[] = [];
  for (let i = 0; i < income.length; ) {
    const made = ahead.get(income[i]!.date);
    if (!made || made.rows.length === 0) return undefined;
    for (let k = 0; k < made.rows.length; k++) if (income[i + k] !== made.rows[k]) return undefined;
    i += made.rows.length;
    for (const tx of made.transactions) transactions.push(tx);
    for (const flag of made.flags) flags.push(flag);
  }
  return { transactions, flags };
}

/** A day's fall of a position: its subnet ended without paying (a negligible value claim), or unexplained. */
function fallFlag(
  row: IncomeRow,
  asset: string,
  stakes: ReadonlyMap<number, StakesAtBlock>,
  dayBlock: ReadonlyMap<string, number>,
): PackFlag {
  const end = dayBlock.get(row.date);
  const endRead = end === undefined ? undefined : stakes.get(end);
  const ended =
    row.position.netuid !== 0 &&
    endRead !== undefined &&
    (endRead.subnets.get(row.position.netuid)?.registeredAt ?? 0) !== row.registeredAt;
  return ended
    ? {
        date: row.date,
        kind: 'ended',
        text: `${row.date}: subnet ${row.position.netuid}${row.registeredAt > 0 ? ` (registered at block ${row.registeredAt})` : ''} ended and the chain paid nothing for the ${units(-row.alphaRao).toFixed()} ${asset} held on ${row.position.hotkey}: no disposal is booked (nothing was received). The pool of ${asset} stays; its owner may claim that it has become of negligible value (TCGA92 s24(2), HMRC CRYPTO22500: the claim is for the whole pool), a deemed disposal for nothing on the date of the claim.`,
      }
    : {
        date: row.date,
        kind: 'unexplained',
        text: `${row.date}: the stake of ${row.position.hotkey} on subnet ${row.position.netuid}${row.registeredAt > 0 ? ` (registered at block ${row.registeredAt})` : ''} fell by ${units(-row.alphaRao).toFixed()} with no event in the record to explain it: listed, not netted against income and not booked as a disposal. Check what happened to it.`,
      };
}

/** A same-day move of stake between keys (`netAcrossHotkeys`), with the key swap that explains it if any. */
function movedFlag(move: HoldingMove, actions: readonly EconomicAction[]): PackFlag {
  const named = actions.filter((a) => a.kind === 'key-swap' && ukDay(Date.parse(a.time)) === move.date);
  const by = named.length > 0 ? named.flatMap((a) => a.events.map(eventLabel)).join(', ') : null;
  return {
    date: move.date,
    kind: 'moved',
    text: `${move.date}: ${units(move.alphaRao).toFixed()} of the stake on subnet ${move.netuid} left ${move.from.join(', ')} and reached ${move.to.join(', ')} (coldkey/hotkey) the same day: a move of the same holding, neither income nor a disposal; the day's income is shown on ${move.from[0]}${by ? `. Explained by ${by}` : '. No chain event explains it'}.`,
  };
}

/**
 * A fee paid in alpha inside an exchange (an unstake, a move across subnets) is a disposal of that alpha at
 * its value (in the disposal's quantity and proceeds) and, as a cost of making the exchange, allowable: half
 * against the disposal, half on the cost of what was acquired, as BittyTax allocates a token fee on a
 * token-for-token trade by default, so that the pack's `bittytax.csv` gives BittyTax the pack's figures.
 */
function allowFeeInExchange(own: CgtTransaction[]): void {
  const disposal = own.find((tx) => tx.action === 'dispose' && tx.paidAsFee);
  const acquisition = own.find((tx) => tx.action === 'acquire' && tx.asset !== disposal?.asset);
  if (!disposal?.paidAsFee || !acquisition) return;
  const half = disposal.paidAsFee.gbp.div(2);
  disposal.fee = half;
  acquisition.gbp = acquisition.gbp.plus(disposal.paidAsFee.gbp.minus(half));
}

/** The change of a position the action's events state (a stake's alpha in, an unstake's out); null if none. */
function statedChange(action: EconomicAction, position: PositionRef): bigint | null {
  let total: bigint | null = null;
  for (const leg of action.legs) {
    if (leg.asset !== 'alpha' || leg.statedRao === null) continue;
    const h = leg.holding;
    if (
      h.coldkey !== position.coldkey ||
      h.netuid !== position.netuid ||
      (h.hotkey !== null && h.hotkey !== position.hotkey)
    )
      continue;
    total = (total ?? 0n) + (leg.side === 'acquire' ? leg.statedRao : -leg.statedRao);
  }
  return total;
}

/** The event that names an action in events.csv: a move's summary, else its stake event, else its first. */
function representative(action: EconomicAction): LedgerEvent {
  const pick = (kinds: string[]) => action.events.find((e) => kinds.includes(e.kind));
  return (
    pick(['StakeMoved', 'StakeSwapped', 'StakeTransferred']) ??
    pick(['ColdkeySwapped', 'HotkeySwapped', 'HotkeySwappedOnSubnet']) ??
    pick(['StakeAdded', 'StakeRemoved']) ??
    action.events.find((e) => e.kind !== 'Transfer' && e.kind !== 'TransactionFeePaid') ??
    action.events.find((e) => e.kind !== 'TransactionFeePaid') ??
    action.events[0]!
  );
}

/**
 * The engine refuses a disposal of more than is held. The chain can show holdings this record does not
 * explain (TAO fees, stake from before collection began): such a shortfall is added as an acquisition at the
 * disposal's own unit value on its day, and flagged, rather than failing the pack.
 */
export function coverShortfalls(
  transactions: CgtTransaction[],
  flags: PackFlag[],
  /** Called for a disposal that must not be covered (a buyer's own record): it throws its own refusal. */
  refuse?: (tx: CgtTransaction, held: Decimal, date: string) => void,
): CgtTransaction[] {
  const held = new Map<string, Decimal>();
  const out: CgtTransaction[] = [];
  // Per asset and UK day the engine counts the day's acquisitions before its disposals: so do we.
  const byDay = new Map<string, CgtTransaction[]>();
  for (const tx of transactions) {
    const key = ukDay(tx.at.getTime());
    const list = byDay.get(key);
    if (list) list.push(tx);
    else byDay.set(key, [tx]);
  }
  for (const [date, list] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const tx of list) {
      if (tx.action === 'acquire')
        held.set(tx.asset, (held.get(tx.asset) ?? new CgtDecimal(0)).add(tx.quantity));
    }
    for (const tx of list) {
      if (tx.action !== 'dispose') continue;
      const have = held.get(tx.asset) ?? new CgtDecimal(0);
      if (have.lt(tx.quantity)) {
        refuse?.(tx, have, date);
        const short = tx.quantity.sub(have);
        const gbp = tx.gbp.mul(short).div(tx.quantity).toDecimalPlaces(GBP_PLACES, Decimal.ROUND_HALF_EVEN);
        out.push({
          at: tx.at,
          asset: tx.asset,
          action: 'acquire',
          quantity: short,
          gbp,
          ref: `unexplained ${date}`,
          kind: 'unexplained',
        });
        flags.push({
          date,
          kind: 'unexplained',
          text: `${date}: ${short.toFixed()} ${tx.asset} disposed of that the collected record does not show being acquired; taken as acquired that day at the disposal's value.`,
        });
        held.set(tx.asset, tx.quantity);
      }
      held.set(tx.asset, (held.get(tx.asset) ?? new CgtDecimal(0)).sub(tx.quantity));
    }
  }
  // Keep the original order, with each added acquisition just before its disposal's day. Assets in
  // `localeCompare`'s order, each asset's place found once (a big record sorts 100,000 transactions of a few
  // hundred assets).
  const assetPlace = new Map<string, number>();
  for (const tx of transactions) assetPlace.set(tx.asset, 0);
  for (const tx of out) assetPlace.set(tx.asset, 0);
  const assets = [...assetPlace.keys()].sort((a, b) => a.localeCompare(b));
  assets.forEach((asset, i) => {
    // Two names the collation holds equal keep one place, as the comparison would keep them in order.
    const place = i > 0 && assets[i - 1]!.localeCompare(asset) === 0 ? assetPlace.get(assets[i - 1]!)! : i;
    assetPlace.set(asset, place);
  });
  const order = (a: CgtTransaction, b: CgtTransaction) =>
    a.at.getTime() - b.at.getTime() ||
    (a.action === b.action ? 0 : a.action === 'acquire' ? -1 : 1) ||
    assetPlace.get(a.asset)! - assetPlace.get(b.asset)!;
  // A big record's transactions are made in this order already: checked, they are kept as they are (the
  // sort would keep them so).
  let inOrder = out.length === 0;
  for (let i = 1; i < transactions.length && inOrder; i++)
    inOrder = order(transactions[i - 1]!, transactions[i]!) <= 0;
  return inOrder ? [...transactions] : [...out, ...transactions].sort(order);
}
