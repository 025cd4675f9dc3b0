/**
 * Staking income per position and UK day. Bittensor emits no event per reward: a position's stake grows as
 * its hotkey's share pool grows. So a day's income is the stake growth that no event explains:
 *
 *   received = stake at the day's last block − stake at the previous day's last block
 *              − Σ over the blocks of that day with an event touching the position (stake after − before)
 *
 * in alpha RAO (TAO on root), exact. When the subnet's registration changes during the day (deregistered,
 * perhaps registered again), each registration gets its own row: the old one loses its stake (a negative
 * row, valued at its last pool price), the new one receives what it holds at the end less its events. The event blocks are measured on the chain (stake at the block and at
 * the block before), so a stake, unstake, move or transfer, whatever its amounts and rounding, never counts
 * as income. A day can be negative (stake that left for another hotkey, a subnet that ended): `netAcrossHotkeys`
 * nets it against the same coldkey's rises on that subnet and day; what is left stays negative, never booked.
 * Valued at receipt (HMRC CRYPTO21200): alpha × the subnet pool's price at the day's last block
 * (`SubnetTAO ÷ SubnetAlphaIn`, truncated to the RAO) × the TAO/GBP rate at the day's end (`gbp-prices.ts`).
 */
import { Decimal } from 'decimal.js';
import { poolReserves, valueInTaoRao } from '../../amounts/pool-price.js';
import type { HoldingMove, LedgerDay, UnexplainedChange } from '../chain-record/ledger-days.js';
import { type PositionRef, positionId, type StakesAtBlock } from '../chain-record/stake-at-blocks.js';
import { CgtDecimal, GBP_PLACES } from './cgt/cgt-decimal.js';
import type { GbpPrice, GbpPrices } from './gbp-prices.js';

/** A day's unexplained change of a position (`chain-record/ledger-days.ts`) valued at receipt. */
export interface IncomeRow extends UnexplainedChange {
  /** Its value in TAO RAO at the day's pool price; null when the subnet has no pool price that day. */
  taoRao: bigint | null;
  /** Its value in pounds; null without a pool price. */
  gbp: Decimal | null;
  /** The block whose pool price was used. */
  priceBlock: number;
  /** The TAO/GBP rate at the day's end (an older one, flagged, when that one is missing). */
  gbpPrice: GbpPrice;
}

const RAO_PER_UNIT = new CgtDecimal(1_000_000_000);

/** TAO RAO × pounds per TAO, to 8 decimal places (half to even). */
export function gbpOfTaoRao(taoRao: bigint, price: GbpPrice): Decimal {
  return new CgtDecimal(taoRao.toString())
    .div(RAO_PER_UNIT)
    .mul(price.gbp)
    .toDecimalPlaces(GBP_PLACES, Decimal.ROUND_HALF_EVEN);
}

/** The registration of a position's subnet at a block (0 on root, and when the chain records none). */
function registrationAt(stakes: StakesAtBlock, netuid: number): number {
  return netuid === 0 ? 0 : (stakes.subnets.get(netuid)?.registeredAt ?? 0);
}

/** Whether a block has the subnet's pool price (root always: its price is 1). */
function hasPoolPrice(stakes: StakesAtBlock, netuid: number): boolean {
  return taoRaoAt(stakes, netuid, 1n) !== null;
}

/** Alpha RAO in TAO RAO at a block's pool price (root: the same amount); null without a price. */
export function taoRaoAt(stakes: StakesAtBlock, netuid: number, alphaRao: bigint): bigint | null {
  if (netuid === 0) return alphaRao;
  const subnet = stakes.subnets.get(netuid);
  return valueInTaoRao(alphaRao, poolReserves(subnet?.taoRao ?? null, subnet?.alphaInRao ?? null));
}

/**
 * Income rows for every position and every day after `opening` (each day's start is the day before's end),
 * days with nothing received left out. `eventBlocks` lists, per position id, the blocks whose events touch it.
 * `workedOut` gives the rows of a day already computed the same way (while a pack's reads arrived), if any.
 */
export function incomeLedger(
  positions: readonly PositionRef[],
  opening: LedgerDay,
  days: readonly LedgerDay[],
  stakes: ReadonlyMap<number, StakesAtBlock>,
  eventBlocks: ReadonlyMap<string, readonly number[]>,
  prices: GbpPrices,
  workedOut?: (date: string) => readonly IncomeRow[] | undefined,
): IncomeRow[] {
  const at = (block: number) => {
    const found = stakes.get(block);
    if (!found) throw new Error(`income ledger: no stake read at block ${block}`);
    return found;
  };
  const eventsByDay = eventBlocksByDay(opening, days, eventBlocks);
  const rows: IncomeRow[] = [];
  let previous = opening;
  for (let d = 0; d < days.length; d++) {
    const day = days[d]!;
    const ready = workedOut?.(day.date);
    if (ready) {
      for (const row of ready) rows.push(row);
      previous = day;
      continue;
    }
    const end = at(day.block);
    const start = at(previous.block);
    // Looked up only when the day has something to value: a day with no income needs no rate.
    let dayPrice: GbpPrice | undefined;
    const gbpPriceOfDay = () => {
      dayPrice ??= prices.on(day.date);
      return dayPrice;
    };
    for (const position of positions) {
      const id = positionId(position);
      const blocks = eventsByDay.get(id)?.get(d) ?? NO_BLOCKS;
      for (const row of positionDayRows(position, id, day, { start, end, blocks, at, gbpPriceOfDay }))
        rows.push(row);
    }
    previous = day;
  }
  return rows;
}

const NO_BLOCKS: readonly number[] = [];

/**
 * Each position's event blocks by the index of the day they fall in (after the day before's last block, up
 * to the day's own), in the order named: found once, where scanning a position's whole list for each of its
 * days cost days × events (a daily auto-stake names a block every day).
 */
function eventBlocksByDay(
  opening: LedgerDay,
  days: readonly LedgerDay[],
  eventBlocks: ReadonlyMap<string, readonly number[]>,
): Map<string, Map<number, number[]>> {
  const byPosition = new Map<string, Map<number, number[]>>();
  for (const [id, blocks] of eventBlocks) {
    const byDay = new Map<number, number[]>();
    for (const block of blocks) {
      const d = dayOf(block, opening, days);
      if (d < 0) continue;
      const list = byDay.get(d);
      if (list) list.push(block);
      else byDay.set(d, [block]);
    }
    byPosition.set(id, byDay);
  }
  return byPosition;
}

/** The index of the first day whose last block is at or after `block`; -1 outside the days. */
export function dayOf(block: number, opening: LedgerDay, days: readonly LedgerDay[]): number {
  if (block <= opening.block) return -1;
  let lo = 0;
  let hi = days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]!.block >= block) {
      found = mid;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return found;
}

/** One position's rows of one day: what it received per registration of its subnet (none when nothing). */
function positionDayRows(
  position: PositionRef,
  id: string,
  day: LedgerDay,
  read: {
    start: StakesAtBlock;
    end: StakesAtBlock;
    blocks: readonly number[];
    at: (block: number) => StakesAtBlock;
    gbpPriceOfDay: () => GbpPrice;
  },
): IncomeRow[] {
  // Per registration of the subnet: a netuid deregistered (and perhaps registered again) during the
  // day holds two assets, and the old one's stake is lost on the old one, never on its successor.
  const received = new Map<number, { rao: bigint; priceAt: StakesAtBlock }>();
  const add = (stakes: StakesAtBlock, rao: bigint) => {
    const registeredAt = registrationAt(stakes, position.netuid);
    const entry = received.get(registeredAt) ?? { rao: 0n, priceAt: stakes };
    entry.rao += rao;
    // Valued at the last block that still shows this registration with a pool (the day's end when it
    // survives). A subnet gone has no pool and reads as registered at 0, like one registered at genesis:
    // a block without a price never replaces one with a price.
    const later = stakes.block >= entry.priceAt.block || !hasPoolPrice(entry.priceAt, position.netuid);
    if (hasPoolPrice(stakes, position.netuid) && later) entry.priceAt = stakes;
    received.set(registeredAt, entry);
  };
  const { start, end, at } = read;
  add(start, -(start.stake.get(id) ?? 0n));
  for (const block of read.blocks) {
    const after = at(block);
    const before = at(block - 1);
    // The block before an action offers its price: the last one a dissolved subnet has.
    add(before, 0n);
    add(after, -((after.stake.get(id) ?? 0n) - (before.stake.get(id) ?? 0n)));
  }
  add(end, end.stake.get(id) ?? 0n);
  const rows: IncomeRow[] = [];
  for (const [registeredAt, { rao, priceAt }] of received) {
    if (rao === 0n) continue;
    const taoRao = taoRaoAt(priceAt, position.netuid, rao);
    const gbpPrice = read.gbpPriceOfDay();
    rows.push({
      date: day.date,
      position,
      registeredAt,
      alphaRao: rao,
      taoRao,
      gbp: taoRao === null ? null : gbpOfTaoRao(taoRao, gbpPrice),
      priceBlock: priceAt.block,
      gbpPrice,
    });
  }
  return rows;
}

/**
 * Nets the order's unexplained rises and falls per subnet (netuid and registration) and UK day across its
 * hotkeys and coldkeys before anything is called income. A hotkey swap of a nominated validator moves the
 * nominators' stake to the new hotkey with no event of theirs (`HotkeySwapped` names the owner), and a coldkey
 * swap moves everything to the new coldkey: the old position falls and the new one rises, which would
 * otherwise be a loss and income. Each fall is matched with the rise on the same hotkey, else with the
 * largest rises; the matched part is a move, and what is left is the holding's income of the day, kept on the
 * position it was on when the day began. Other rows are left as they are.
 */
export function netAcrossHotkeys(rows: readonly IncomeRow[]): { rows: IncomeRow[]; moves: HoldingMove[] } {
  const groups = new Map<string, IncomeRow[]>();
  for (const row of rows) {
    const key = `${row.date}|${row.position.netuid}|${row.registeredAt}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const replaced = new Map<IncomeRow, IncomeRow | null>();
  const moves: HoldingMove[] = [];
  const label = (row: IncomeRow) => `${row.position.coldkey}/${row.position.hotkey}`;
  for (const group of groups.values()) {
    const falls = group.filter((row) => row.alphaRao < 0n);
    const rises = group.filter((row) => row.alphaRao > 0n);
    if (falls.length === 0 || rises.length === 0) continue; // Each fall is matched with the rise on the same hotkey (a coldkey swap), else with the largest rises
    // left (a hotkey swap moves the whole stake at once); other rises stay the income they are.
    const left = [...rises].sort((a, b) => (b.alphaRao > a.alphaRao ? 1 : -1));
    for (const fall of [...falls].sort((a, b) => (a.alphaRao < b.alphaRao ? -1 : 1))) {
      const matched: IncomeRow[] = [];
      const same = left.findIndex((r) => r.position.hotkey === fall.position.hotkey);
      if (same >= 0) matched.push(...left.splice(same, 1));
      let covered = matched.reduce((sum, r) => sum + r.alphaRao, 0n);
      while (covered < -fall.alphaRao && left.length > 0) {
        const next = left.shift()!;
        matched.push(next);
        covered += next.alphaRao;
      }
      if (matched.length === 0) continue;
      const net = covered + fall.alphaRao;
      const priced = matched[0]!;
      for (const row of matched) replaced.set(row, null);
      const taoRao = priced.taoRao === null ? null : (priced.taoRao * net) / priced.alphaRao;
      replaced.set(
        fall,
        net === 0n
          ? null
          : {
              ...fall,
              alphaRao: net,
              taoRao,
              gbp: taoRao === null || priced.gbpPrice === null ? null : gbpOfTaoRao(taoRao, priced.gbpPrice),
              priceBlock: priced.priceBlock,
              gbpPrice: priced.gbpPrice,
            },
      );
      moves.push({
        date: fall.date,
        coldkey: fall.position.coldkey,
        netuid: fall.position.netuid,
        registeredAt: fall.registeredAt,
        from: [label(fall)],
        to: matched.map(label),
        alphaRao: covered < -fall.alphaRao ? covered : -fall.alphaRao,
      });
    }
  }
  const out: IncomeRow[] = [];
  for (const row of rows) {
    if (!replaced.has(row)) out.push(row);
    else if (replaced.get(row)) out.push(replaced.get(row)!);
  }
  return { rows: out, moves };
}

/** A key swap's old and new position, and the UK day it happened. */
export interface SwapPair {
  date: string;
  from: PositionRef;
  to: PositionRef;
}

/**
 * A key swap's day shows the holding's income on the position it began the day on: the new position's row of
 * that day (what it received after the swap) is added to the old one's (what it received before), per
 * registration. Later days are the new position's own.
 */
export function mergeSwapDays(rows: readonly IncomeRow[], pairs: readonly SwapPair[]): IncomeRow[] {
  let out = [...rows];
  for (const pair of pairs) {
    const fromId = positionId(pair.from);
    const toId = positionId(pair.to);
    const moving = out.filter((row) => row.date === pair.date && positionId(row.position) === toId);
    if (moving.length === 0) continue;
    out = out.filter((row) => !moving.includes(row));
    for (const row of moving) {
      const index = out.findIndex(
        (r) =>
          r.date === pair.date && positionId(r.position) === fromId && r.registeredAt === row.registeredAt,
      );
      if (index < 0) {
        out.push({ ...row, position: pair.from });
        continue;
      }
      const home = out[index]!;
      const alphaRao = home.alphaRao + row.alphaRao;
      const taoRao = home.taoRao === null || row.taoRao === null ? null : home.taoRao + row.taoRao;
      const gbpPrice = home.gbpPrice ?? row.gbpPrice;
      out[index] = {
        ...home,
        alphaRao,
        taoRao,
        gbp: taoRao === null || gbpPrice === null ? null : gbpOfTaoRao(taoRao, gbpPrice),
      };
    }
  }
  return out.filter((row) => row.alphaRao !== 0n);
}
