/**
 * The chain record of an order's coldkeys as capital gains transactions (`computeGains`' input). HMRC's
 * Cryptoassets Manual treats each token as its own asset, pooled per person across wallets (CRYPTO22200):
 * TAO is one asset and each subnet's alpha another, named `alpha:<netuid>:<registered_at>` so that a netuid
 * reused by a new subnet is a new asset. What counts:
 *
 * - staking TAO into a subnet (`StakeAdded`, netuid ≠ 0): a disposal of TAO and an acquisition of alpha
 *   (token for token, CRYPTO22100): proceeds the value of the alpha received (the TAO staked less the
 *   fee: the fee is deducted once, here), the alpha's cost that same value; on root nothing (TAO stays TAO);
 * - unstaking (`StakeRemoved`, netuid ≠ 0): a disposal of alpha for the TAO received (after the fee) and an
 *   acquisition of that TAO at its value;
 * - a move or swap to another subnet: a disposal of one alpha and an acquisition of the other at the TAO
 *   value the event carries; between hotkeys on one subnet, or within root, nothing;
 * - a stake transfer or TAO transfer to a coldkey outside the order: a disposal at market value (flagged);
 *   from outside: an acquisition at market value (flagged); between the order's coldkeys nothing (one
 *   person), unless the subnet changes;
 * - income (per UK day and asset) is an acquisition at its value when received (CRYPTO21200); a negative day
 *   is a disposal for nothing (flagged);
 * - what the coldkeys hold when the tax year's record opens enters the pools at its market value that day
 *   (an assumption, stated in the pack).
 *
 * Quantities moved by an event are measured on the chain (stake after its block − before), so the pools
 * hold exactly what the chain shows. Pounds are rounded to 8 decimal places, the figures `cgt-input.csv`
 * carries, so that `sbm tax cgt` on that file gives the pack's gains exactly.
 */
import { Decimal } from 'decimal.js';
import type { ColdkeyEvent } from '../contract/tax-published.js';
import { ukDay } from '../time/uk-day.js';
import { CgtDecimal } from './cgt/cgt-decimal.js';
import type { CgtTransaction } from './cgt/cgt-types.js';
import type { GbpPrices } from './gbp-prices.js';
import { GBP_PLACES, gbpOfTaoRao, type IncomeRow, type LedgerDay, taoRaoAt } from './income-ledger.js';
import { type PositionRef, positionId, type StakesAtBlock } from './stake-at-blocks.js';

export const TAO_ASSET = 'TAO';

export function alphaAsset(netuid: number, registeredAt: number): string {
  return netuid === 0 ? TAO_ASSET : `alpha:${netuid}:${registeredAt}`;
}

/** A staking event with the coldkey of the order whose record it is in. */
export interface LedgerEvent extends ColdkeyEvent {
  coldkey: string;
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
    | 'opening'
    | 'calendar'
    | 'stale-rate'
    | 'provisional';
  text: string;
}

/** What the pack did with one event: the events.csv row's treatment. */
export interface EventTreatment {
  event: LedgerEvent;
  date: string;
  treatment: string;
  transactions: CgtTransaction[];
}

export interface CgtMapping {
  transactions: CgtTransaction[];
  events: EventTreatment[];
  flags: PackFlag[];
}

export interface CgtMappingInput {
  coldkeys: ReadonlySet<string>;
  opening: LedgerDay;
  events: readonly LedgerEvent[];
  income: readonly IncomeRow[];
  days: readonly LedgerDay[];
  positions: readonly PositionRef[];
  stakes: ReadonlyMap<number, StakesAtBlock>;
  prices: GbpPrices;
}

const RAO = new CgtDecimal(1_000_000_000);
const units = (rao: bigint) => new CgtDecimal(rao.toString()).div(RAO);
const gbp8 = (value: Decimal) => value.toDecimalPlaces(GBP_PLACES, Decimal.ROUND_HALF_EVEN);

export function cgtTransactions(input: CgtMappingInput): CgtMapping {
  const flags: PackFlag[] = [];
  const transactions: CgtTransaction[] = [];
  const stakesAt = (block: number) => {
    const found = input.stakes.get(block);
    if (!found) throw new Error(`cgt mapping: no stake read at block ${block}`);
    return found;
  };
  // At the rate of the UK day's end; a day with no rate near enough stops the pack (never £0).
  const gbpOf = (date: string, taoRao: bigint) => gbpOfTaoRao(taoRao, input.prices.on(date));
  const add = (list: CgtTransaction[], tx: Omit<CgtTransaction, 'quantity'> & { rao: bigint }) => {
    if (tx.rao <= 0n) return;
    const { rao, ...rest } = tx;
    list.push({ ...rest, quantity: units(rao) });
  };

  // Opening holdings: every position, and the free TAO, at the opening block's market value.
  const open = stakesAt(input.opening.block);
  const openingByAsset = new Map<string, { rao: bigint; taoRao: bigint }>();
  const hold = (asset: string, rao: bigint, taoRao: bigint) => {
    const entry = openingByAsset.get(asset) ?? { rao: 0n, taoRao: 0n };
    entry.rao += rao;
    entry.taoRao += taoRao;
    openingByAsset.set(asset, entry);
  };
  for (const position of input.positions) {
    const rao = open.stake.get(positionId(position)) ?? 0n;
    if (rao === 0n) continue;
    const asset = alphaAsset(position.netuid, open.subnets.get(position.netuid)?.registeredAt ?? 0);
    hold(asset, rao, taoRaoAt(open, position.netuid, rao) ?? 0n);
  }
  for (const coldkey of input.coldkeys) {
    const free = open.free.get(coldkey) ?? 0n;
    if (free > 0n) hold(TAO_ASSET, free, free);
  }
  const openingAt = new Date(input.opening.timeMs);
  for (const [asset, { rao, taoRao }] of [...openingByAsset].sort(([a], [b]) => (a < b ? -1 : 1))) {
    add(transactions, {
      at: openingAt,
      asset,
      action: 'acquire',
      rao,
      gbp: gbpOf(input.opening.date, taoRao),
      ref: `opening ${input.opening.date}`,
    });
  }
  if (openingByAsset.size > 0) {
    const openingList = [...openingByAsset]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([asset, { rao, taoRao }]) =>
          `${asset} ${units(rao).toFixed()} at £${gbpOf(input.opening.date, taoRao).toFixed(2)}`,
      )
      .join('; ');
    flags.push({
      date: input.opening.date,
      kind: 'opening',
      text: `The record opens at the end of ${input.opening.date} (block ${input.opening.block}), the earliest day the service collected: the holdings then (${openingList}) enter the pools at their market value that day, since their real cost is not in the chain record. Every later pool, across tax years, follows from them.`,
    });
  }

  // Events, measured: per block, the change of every position an event of that block touches.
  const events: EventTreatment[] = [];
  const byBlock = new Map<number, LedgerEvent[]>();
  for (const event of input.events) byBlock.set(event.block, [...(byBlock.get(event.block) ?? []), event]);
  for (const [block, blockEvents] of byBlock) {
    const after = stakesAt(block);
    const before = stakesAt(block - 1);
    const remaining = new Map<string, bigint>();
    const touches = (event: LedgerEvent) => positionsOf(event, input.coldkeys);
    // The change an event states for its own position: a stake's alpha in, an unstake's alpha out; null for
    // moves, swaps and transfers, whose alpha only the chain's before and after show.
    const stated = (event: LedgerEvent): bigint | null => {
      if (event.alpha_rao === null) return null;
      if (event.kind === 'StakeAdded') return BigInt(event.alpha_rao);
      if (event.kind === 'StakeRemoved') return -BigInt(event.alpha_rao);
      return null;
    };
    /**
     * Several events on one position in one block share its measured change: each takes the amount it
     * states; one that states none takes what is left after the later events' stated amounts; the last
     * takes what is left (so the rounding of stated amounts never leaves stake unaccounted for).
     */
    const delta = (position: PositionRef, index: number): bigint => {
      const id = positionId(position);
      if (!remaining.has(id)) {
        remaining.set(id, (after.stake.get(id) ?? 0n) - (before.stake.get(id) ?? 0n));
      }
      const left = remaining.get(id)!;
      const later = blockEvents
        .slice(index + 1)
        .filter((next) => touches(next).some((p) => positionId(p) === id));
      const own = stated(blockEvents[index]!);
      const take =
        later.length === 0
          ? left
          : own !== null
            ? own
            : later.reduce((rest, next) => rest - (stated(next) ?? 0n), left);
      remaining.set(id, left - take);
      return take;
    };
    blockEvents.forEach((event, i) => {
      const date = ukDay(Date.parse(event.time));
      const at = new Date(event.time);
      const ref = `event ${event.block}/${event.event_index}`;
      const own: CgtTransaction[] = [];
      const assetOf = (netuid: number) => alphaAsset(netuid, after.subnets.get(netuid)?.registeredAt ?? 0);
      const tao = BigInt(event.tao_rao ?? '0');
      const fee = BigInt(event.fee_rao ?? '0');
      const mine = input.coldkeys.has(event.coldkey) && event.role === 'origin';
      const otherInOrder =
        event.counterpart_coldkey !== null && input.coldkeys.has(event.counterpart_coldkey);
      const [from, to] = touches(event);
      let treatment = 'not a disposal';
      switch (event.kind) {
        case 'StakeAdded': {
          const gained = delta(from!, i);
          if (event.netuid === 0) {
            treatment = 'stake on root: TAO stays TAO, not a disposal';
            break;
          }
          const value = gbpOf(date, tao - fee);
          add(own, { at, asset: TAO_ASSET, action: 'dispose', rao: tao, gbp: value, ref });
          add(own, { at, asset: assetOf(event.netuid!), action: 'acquire', rao: gained, gbp: value, ref });
          treatment = 'TAO exchanged for alpha: disposal of TAO, acquisition of alpha';
          break;
        }
        case 'StakeRemoved': {
          const lost = -delta(from!, i);
          if (event.netuid === 0) {
            treatment = 'unstake from root: TAO stays TAO, not a disposal';
            break;
          }
          const value = gbpOf(date, tao);
          add(own, { at, asset: assetOf(event.netuid!), action: 'dispose', rao: lost, gbp: value, ref });
          add(own, { at, asset: TAO_ASSET, action: 'acquire', rao: tao, gbp: value, ref });
          treatment = 'alpha exchanged for TAO: disposal of alpha, acquisition of TAO';
          break;
        }
        case 'StakeMoved':
        case 'StakeSwapped':
        case 'StakeTransferred': {
          const value = gbpOf(date, tao);
          if (event.role === 'destination') {
            // From a coldkey outside the order (one inside would have its origin record kept instead).
            const gained = delta(from!, i);
            add(own, { at, asset: assetOf(event.netuid!), action: 'acquire', rao: gained, gbp: value, ref });
            treatment = 'stake received from a coldkey outside the order: acquisition at market value';
            flags.push({
              date,
              kind: 'transfer-in',
              text: `${event.kind} ${event.block}/${event.event_index}: stake received from ${event.counterpart_coldkey} (outside this order), taken as acquired at its market value.`,
            });
            break;
          }
          const lost = -delta(from!, i);
          if (!mine) break;
          if (event.kind === 'StakeTransferred' && !otherInOrder) {
            add(own, { at, asset: assetOf(event.netuid!), action: 'dispose', rao: lost, gbp: value, ref });
            treatment = 'stake transferred to a coldkey outside the order: disposal at market value';
            flags.push({
              date,
              kind: 'transfer-out',
              text: `StakeTransferred ${event.block}/${event.event_index}: stake sent to ${event.counterpart_coldkey} (outside this order), taken as disposed of at its market value.`,
            });
            break;
          }
          const gained = to ? delta(to, i) : 0n;
          const source = assetOf(event.netuid!);
          const target = assetOf(event.counterpart_netuid!);
          if (source === target) {
            treatment =
              event.counterpart_coldkey === event.coldkey
                ? 'moved between hotkeys on one subnet: not a disposal'
                : 'moved between coldkeys of this order: not a disposal';
            break;
          }
          add(own, { at, asset: source, action: 'dispose', rao: lost, gbp: value, ref });
          add(own, { at, asset: target, action: 'acquire', rao: gained, gbp: value, ref });
          treatment = 'one token exchanged for another: disposal and acquisition';
          break;
        }
        case 'Transfer': {
          const value = gbpOf(date, tao);
          const sender = event.role === 'origin' && input.coldkeys.has(event.coldkey);
          const receiverInOrder =
            event.role === 'destination' || (event.counterpart_coldkey !== null && otherInOrder);
          if (sender && receiverInOrder) {
            treatment = 'TAO sent between coldkeys of this order: not a disposal';
          } else if (sender) {
            add(own, { at, asset: TAO_ASSET, action: 'dispose', rao: tao, gbp: value, ref });
            treatment = 'TAO sent to a coldkey outside the order: disposal at market value';
            flags.push({
              date,
              kind: 'transfer-out',
              text: `Transfer ${event.block}/${event.event_index}: TAO sent to ${event.counterpart_coldkey} (outside this order), taken as disposed of at its market value.`,
            });
          } else {
            add(own, { at, asset: TAO_ASSET, action: 'acquire', rao: tao, gbp: value, ref });
            treatment = 'TAO received from a coldkey outside the order: acquisition at market value';
            flags.push({
              date,
              kind: 'transfer-in',
              text: `Transfer ${event.block}/${event.event_index}: TAO received from ${event.counterpart_coldkey} (outside this order), taken as acquired at its market value.`,
            });
          }
          break;
        }
      }
      transactions.push(...own);
      events.push({ event, date, treatment, transactions: own });
    });
  }

  // Income: one acquisition per asset and UK day of what was received; what positions lost that day (negative
  // rows) one disposal for nothing, kept apart: a slash on one position never nets against another's income.
  const dayTime = new Map(input.days.map((day) => [day.date, day.timeMs]));
  const incomeByDay = new Map<string, { date: string; asset: string; rao: bigint; gbp: Decimal }>();
  for (const row of input.income) {
    const asset = alphaAsset(row.position.netuid, row.registeredAt);
    const key = `${row.date}|${asset}|${row.alphaRao < 0n ? 'lost' : 'received'}`;
    const entry = incomeByDay.get(key) ?? { date: row.date, asset, rao: 0n, gbp: new CgtDecimal(0) };
    entry.rao += row.alphaRao;
    entry.gbp = entry.gbp.add(row.gbp ?? 0);
    incomeByDay.set(key, entry);
    if (row.alphaRao < 0n) {
      flags.push({
        date: row.date,
        kind: 'negative-income',
        text: `${row.date}: the stake of ${row.position.hotkey} on subnet ${row.position.netuid}${row.registeredAt > 0 ? ` (registered at block ${row.registeredAt})` : ''} fell by ${units(-row.alphaRao).toFixed()} with no event to explain it (a deregistration or a slash?); listed as a negative day, not netted, and taken as a disposal for nothing.`,
      });
    } else if (row.gbp === null) {
      flags.push({
        date: row.date,
        kind: 'unpriced',
        text: `${row.date}: income on subnet ${row.position.netuid} has no pool price that day (the subnet's pool held no reserves); valued at £0.`,
      });
    }
  }
  for (const entry of incomeByDay.values()) {
    const at = new Date(dayTime.get(entry.date) ?? 0);
    const ref = `income ${entry.date}`;
    if (entry.rao > 0n) {
      add(transactions, {
        at,
        asset: entry.asset,
        action: 'acquire',
        rao: entry.rao,
        gbp: gbp8(entry.gbp),
        ref,
      });
    } else {
      add(transactions, {
        at,
        asset: entry.asset,
        action: 'dispose',
        rao: -entry.rao,
        gbp: new CgtDecimal(0),
        ref: `stake lost ${entry.date}`,
      });
    }
  }

  const ordered = transactions.sort(
    (a, b) =>
      a.at.getTime() - b.at.getTime() ||
      a.asset.localeCompare(b.asset) ||
      (a.action < b.action ? -1 : a.action > b.action ? 1 : 0),
  );
  return { transactions: coverShortfalls(ordered, flags), events, flags };
}

/**
 * The positions an event touches, of the order's coldkeys: [where the stake was, where it went]. An
 * event from outside the order (its destination record) touches only where the stake arrived.
 */
export function positionsOf(event: LedgerEvent, coldkeys: ReadonlySet<string>): PositionRef[] {
  if (event.hotkey === null || event.netuid === null) return [];
  const here = { coldkey: event.coldkey, hotkey: event.hotkey, netuid: event.netuid };
  if (event.role === 'destination') return [here];
  const there =
    event.counterpart_coldkey !== null &&
    event.counterpart_hotkey !== null &&
    event.counterpart_netuid !== null &&
    coldkeys.has(event.counterpart_coldkey)
      ? {
          coldkey: event.counterpart_coldkey,
          hotkey: event.counterpart_hotkey,
          netuid: event.counterpart_netuid,
        }
      : null;
  return there ? [here, there] : [here];
}

/**
 * The engine refuses a disposal of more than is held. The chain can show holdings this record does not
 * explain (TAO fees, stake from before collection began): such a shortfall is added as an acquisition at the
 * disposal's own unit value on its day, and flagged, rather than failing the pack.
 */
function coverShortfalls(transactions: CgtTransaction[], flags: PackFlag[]): CgtTransaction[] {
  const held = new Map<string, Decimal>();
  const out: CgtTransaction[] = [];
  // Per asset and UK day the engine counts the day's acquisitions before its disposals: so do we.
  const byDay = new Map<string, CgtTransaction[]>();
  for (const tx of transactions) {
    const key = ukDay(tx.at.getTime());
    byDay.set(key, [...(byDay.get(key) ?? []), tx]);
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
        const short = tx.quantity.sub(have);
        const gbp = tx.gbp.mul(short).div(tx.quantity).toDecimalPlaces(GBP_PLACES, Decimal.ROUND_HALF_EVEN);
        out.push({
          at: tx.at,
          asset: tx.asset,
          action: 'acquire',
          quantity: short,
          gbp,
          ref: `unexplained ${date}`,
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
  // Keep the original order, with each added acquisition just before its disposal's day.
  return [...out, ...transactions].sort(
    (a, b) =>
      a.at.getTime() - b.at.getTime() ||
      (a.action === b.action ? 0 : a.action === 'acquire' ? -1 : 1) ||
      a.asset.localeCompare(b.asset),
  );
}
