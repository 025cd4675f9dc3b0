/**
 * Capital gains on tokens by HMRC's matching rules for individuals (Cryptoassets Manual CRYPTO22200 onwards,
 * TCGA 1992 s104, s105 and s106A), asset by asset:
 *
 * 1. All acquisitions of an asset on one UK day are one acquisition, all disposals one disposal (s105(1)).
 * 2. Same day: a day's disposal is matched first with that day's acquisition.
 * 3. 30 days ("bed and breakfast", s106A): what is left of it is matched with acquisitions on the 30 UK days
 *    after it, earliest first; earlier disposals take their pick before later ones (CRYPTO22253).
 * 4. Section 104 pool: the rest comes out of the pool at its average cost (cost × quantity / pool quantity).
 *
 * Only what an acquisition has left after rules 2 and 3 enters the pool, on its own day. Rule 3 can give a
 * disposal acquisitions made after it, so the matching runs in three passes over the whole history (same day
 * for every day, then 30 days for every disposal in date order, then the pool walk in date order): the pool
 * at a disposal holds the acquisitions before it minus those that later rules matched elsewhere, as in
 * CRYPTO22256 (the 6 August acquisition serves 31 July and 5 August before its rest joins the pool).
 *
 * Holdings are checked per UK day: the day's acquisitions count before its disposals, as s105 makes them one
 * acquisition. Amounts stay exact decimals (`CgtDecimal`); nothing is rounded.
 *
 * A negligible value claim (`claim`, TCGA 1992 s24(2)) is a deemed disposal and reacquisition at the claimed
 * value, outside the same-day and 30-day rules (as BittyTax books it): its disposal takes its cost from the
 * pool (a disposal of its own) and its reacquisition joins the pool, in time order with what the day's own
 * acquisition and disposal leave to the pool (each at the first time of its kind that day).
 */

import type { Decimal } from 'decimal.js';
import { ukDay } from '../../../time/uk-day.js';
import { ukTaxYear } from '../../../time/uk-tax-year.js';
import { addDays, HOUR_MS } from '../../../time/utc-day.js';
import { byAssetName } from './asset-order.js';
import { aboveZero, belowZero, CgtDecimal, plainDecimal } from './cgt-decimal.js';
import {
  type CgtDisposal,
  CgtInputError,
  type CgtMatch,
  type CgtPool,
  type CgtReport,
  type CgtTaxYear,
  type CgtTransaction,
  type CgtYearEnd,
} from './cgt-types.js';

/** How far the 30-day rule reaches: acquisitions on the 30 UK days after the disposal's day. */
export const BED_AND_BREAKFAST_DAYS = 30;

const ZERO = new CgtDecimal(0);

/** What is left of a quantity and its sterling amount while rules take parts of it. */
interface Remaining {
  quantity: Decimal;
  gbp: Decimal;
}

/** One asset's transactions on one UK day, summed. */
interface AssetDay {
  day: string;
  acquired: Remaining;
  disposed: { quantity: Decimal; proceeds: Decimal; fees: Decimal; refs: string[] };
  /** What the day's disposal still needs matched (after each rule). */
  unmatched: Decimal;
  matched: CgtMatch[];
  /** Negligible value claims of the day: each a disposal of its own, matched with the pool only. */
  claims: Array<{
    at: number;
    disposed: { quantity: Decimal; proceeds: Decimal; fees: Decimal; refs: string[] };
    matched: CgtMatch[];
  }>;
  /** The claims' reacquisitions, each joining the pool at its time. */
  reacquired: Array<Remaining & { at: number }>;
  /** The earliest time of the day's acquisitions and of its disposals (the pool takes them in time order). */
  acquiredAt: number;
  disposedAt: number;
}

interface Indexed {
  tx: CgtTransaction;
  index: number;
  day: string;
}

export function computeGains(transactions: readonly CgtTransaction[]): CgtReport {
  const calendar = ukCalendar();
  const indexed = transactions.map((given, index) => {
    const tx = inEngineDecimals(given);
    checkTransaction(tx);
    return { tx, index, day: calendar.day(tx.at.getTime()) };
  });
  checkHoldings(indexed);

  const byAsset = new Map<string, Indexed[]>();
  for (const item of indexed) {
    const list = byAsset.get(item.tx.asset) ?? [];
    list.push(item);
    byAsset.set(item.tx.asset, list);
  }

  const disposals: CgtDisposal[] = [];
  const poolHistory = new Map<string, PoolAfterDay[]>();
  for (const [asset, items] of byAsset) {
    const days = assetDays(items);
    matchSameDay(days);
    matchFollowingThirtyDays(days);
    poolHistory.set(asset, walkPool(asset, days));
    for (const day of days) {
      const taxYear = calendar.taxYear(day.day);
      for (const claim of day.claims) disposals.push(disposalOf(asset, { ...day, ...claim }, taxYear));
      if (aboveZero(day.disposed.quantity)) disposals.push(disposalOf(asset, day, taxYear));
    }
  }
  disposals.sort((a, b) => compare(a.date, b.date) || compare(a.asset, b.asset));

  // Pools in the order a reader looks for them: TAO and the tokens, then each subnet's alpha by netuid.
  const assets = [...byAsset.keys()].sort(byAssetName);
  const pools = assets.map((asset) => poolAt(asset, poolHistory.get(asset) ?? [], null));
  const days = indexed.map((item) => item.day).sort(compare);
  const spanned =
    days.length === 0 ? [] : yearsBetween(calendar.taxYear(days[0]!), calendar.taxYear(days.at(-1)!));
  return {
    disposals,
    pools,
    taxYears: taxYears(disposals, assets, poolHistory),
    yearEnds: spanned.map((taxYear) => yearEnd(taxYear, disposals, assets, poolHistory)),
  };
}

/**
 * The caller's amounts as `CgtDecimal`s (a Decimal of another precision is copied digit for digit; one
 * already of the engine's is kept, a decimal never changing once made). A transaction whose amounts all are
 * is kept as it is (the engine never changes one): a big record has tens of thousands.
 */
function inEngineDecimals(tx: CgtTransaction): CgtTransaction {
  // Its own constructor, not `instanceof`: every decimal.js clone shares one prototype.
  if (
    tx.quantity?.constructor === CgtDecimal &&
    tx.gbp?.constructor === CgtDecimal &&
    (tx.fee === undefined || tx.fee.constructor === CgtDecimal)
  )
    return tx;
  const decimal = (value: Decimal, name: string) => {
    if (value.constructor === CgtDecimal) return value;
    try {
      return new CgtDecimal(value);
    } catch {
      throw new CgtInputError(tx.ref, `${name} is not a number`);
    }
  };
  return {
    ...tx,
    quantity: decimal(tx.quantity, 'quantity'),
    gbp: decimal(tx.gbp, 'gbp'),
    ...(tx.fee === undefined ? {} : { fee: decimal(tx.fee, 'fee') }),
  };
}

// The refusal is made only when a check fails: no function is made for each of tens of thousands of rows.
function checkTransaction(tx: CgtTransaction): void {
  if (!(tx.at instanceof Date) || Number.isNaN(tx.at.getTime()))
    throw new CgtInputError(tx.ref, 'the date is not a valid instant');
  if (typeof tx.asset !== 'string' || tx.asset.trim() === '')
    throw new CgtInputError(tx.ref, 'the asset is empty');
  if (tx.action !== 'acquire' && tx.action !== 'dispose') {
    throw new CgtInputError(tx.ref, `unknown action "${String(tx.action)}" (expected acquire or dispose)`);
  }
  if (!tx.quantity.isFinite() || !aboveZero(tx.quantity)) {
    throw new CgtInputError(tx.ref, `quantity ${tx.quantity.toFixed()} must be greater than zero`);
  }
  if (!tx.gbp.isFinite() || belowZero(tx.gbp))
    throw new CgtInputError(tx.ref, `gbp ${tx.gbp.toFixed()} must not be negative`);
  if (tx.fee !== undefined) {
    if (tx.action !== 'dispose')
      throw new CgtInputError(
        tx.ref,
        'a fee is given with a disposal only (an acquisition counts it in gbp)',
      );
    if (!tx.fee.isFinite() || belowZero(tx.fee))
      throw new CgtInputError(tx.ref, `fee ${tx.fee.toFixed()} must not be negative`);
  }
}

/**
 * Refuses a disposal of more than is held. Per asset and UK day: holdings before the day, plus the day's
 * acquisitions, must cover the day's disposals; the first disposal (in time) that overdraws is named.
 */
function checkHoldings(indexed: readonly Indexed[]): void {
  const order = [...indexed].sort(
    (a, b) =>
      compare(a.day, b.day) ||
      (a.tx.action === b.tx.action ? 0 : a.tx.action === 'acquire' ? -1 : 1) ||
      a.tx.at.getTime() - b.tx.at.getTime() ||
      a.index - b.index,
  );
  const held = new Map<string, Decimal>();
  for (const { tx, day } of order) {
    const before = held.get(tx.asset) ?? ZERO;
    const after = tx.action === 'acquire' ? before.plus(tx.quantity) : before.minus(tx.quantity);
    if (belowZero(after)) {
      throw new CgtInputError(
        tx.ref,
        `disposal of ${plainDecimal(tx.quantity)} ${tx.asset} on ${day} is more than the ` +
          `${plainDecimal(before)} held that UK day`,
      );
    }
    held.set(tx.asset, after);
  }
}

function assetDays(items: readonly Indexed[]): AssetDay[] {
  const byDay = new Map<string, AssetDay>();
  for (const { tx, day } of items) {
    let entry = byDay.get(day);
    if (!entry) {
      entry = {
        day,
        acquired: { quantity: ZERO, gbp: ZERO },
        disposed: { quantity: ZERO, proceeds: ZERO, fees: ZERO, refs: [] },
        unmatched: ZERO,
        matched: [],
        claims: [],
        reacquired: [],
        acquiredAt: Number.POSITIVE_INFINITY,
        disposedAt: Number.POSITIVE_INFINITY,
      };
      byDay.set(day, entry);
    }
    const ms = tx.at.getTime();
    if (tx.claim) {
      if (tx.action === 'acquire') {
        entry.reacquired.push({ at: ms, quantity: tx.quantity, gbp: tx.gbp });
      } else {
        entry.claims.push({
          at: ms,
          disposed: {
            quantity: tx.quantity,
            proceeds: tx.gbp,
            fees: tx.fee ?? ZERO,
            refs: tx.ref === undefined ? [] : [tx.ref],
          },
          matched: [],
        });
      }
    } else if (tx.action === 'acquire') {
      entry.acquiredAt = Math.min(entry.acquiredAt, ms);
      entry.acquired = {
        quantity: entry.acquired.quantity.plus(tx.quantity),
        gbp: entry.acquired.gbp.plus(tx.gbp),
      };
    } else {
      entry.disposedAt = Math.min(entry.disposedAt, ms);
      entry.disposed.quantity = entry.disposed.quantity.plus(tx.quantity);
      entry.disposed.proceeds = entry.disposed.proceeds.plus(tx.gbp);
      if (tx.fee) entry.disposed.fees = entry.disposed.fees.plus(tx.fee);
      if (tx.ref !== undefined) entry.disposed.refs.push(tx.ref);
      entry.unmatched = entry.disposed.quantity;
    }
  }
  return [...byDay.values()].sort((a, b) => compare(a.day, b.day));
}

/** Rule 2: each day's disposal against the same day's acquisition. */
function matchSameDay(days: readonly AssetDay[]): void {
  for (const day of days) {
    if (aboveZero(day.unmatched) && aboveZero(day.acquired.quantity)) take(day, day, 'same-day');
  }
}

/** Rule 3: disposals in date order, each against the next 30 UK days' acquisitions, earliest first. */
function matchFollowingThirtyDays(days: readonly AssetDay[]): void {
  for (const [i, disposal] of days.entries()) {
    if (!aboveZero(disposal.unmatched)) continue;
    const lastDay = addDays(disposal.day, BED_AND_BREAKFAST_DAYS);
    for (let j = i + 1; j < days.length && aboveZero(disposal.unmatched); j++) {
      const later = days[j];
      if (!later || later.day > lastDay) break;
      if (aboveZero(later.acquired.quantity)) take(disposal, later, '30-day');
    }
  }
}

/** Matches as much of `disposal` as `acquisition`'s day has left, at that acquisition's cost per token. */
function take(disposal: AssetDay, acquisition: AssetDay, rule: CgtMatch['rule']): void {
  const quantity = CgtDecimal.min(disposal.unmatched, acquisition.acquired.quantity);
  const part = takePart(acquisition.acquired, quantity);
  acquisition.acquired = part.left;
  disposal.unmatched = disposal.unmatched.minus(quantity);
  disposal.matched.push({ rule, date: acquisition.day, quantity, cost: part.gbp });
}

/** `quantity` of `from` at its average price; taking all of it takes all of its amount, to the penny. */
function takePart(from: Remaining, quantity: Decimal): { gbp: Decimal; left: Remaining } {
  const gbp = quantity.eq(from.quantity) ? from.gbp : from.gbp.times(quantity).dividedBy(from.quantity);
  return { gbp, left: { quantity: from.quantity.minus(quantity), gbp: from.gbp.minus(gbp) } };
}

interface PoolAfterDay {
  day: string;
  pool: Remaining;
}

/** Rule 4, in date order: each day's unmatched acquisition joins the pool, its unmatched disposal leaves it. */
function walkPool(asset: string, days: readonly AssetDay[]): PoolAfterDay[] {
  let pool: Remaining = { quantity: ZERO, gbp: ZERO };
  const history: PoolAfterDay[] = [];
  for (const day of days) {
    // After rules 2 and 3 a day has an acquisition left or a disposal unmatched, never both: rule 2 matched
    // them with each other as far as either went. Claims (outside rules 2 and 3) take their place in time
    // order: the day's acquisition at its first time, its disposal at its first.
    const steps: Array<{ at: number; order: number; run: () => void }> = [];
    if (aboveZero(day.acquired.quantity)) {
      const acquired = day.acquired;
      steps.push({
        at: day.acquiredAt,
        order: 0,
        run: () => {
          pool = { quantity: pool.quantity.plus(acquired.quantity), gbp: pool.gbp.plus(acquired.gbp) };
        },
      });
    }
    for (const claim of day.claims) {
      steps.push({
        at: claim.at,
        order: 1,
        run: () => {
          if (claim.disposed.quantity.gt(pool.quantity)) {
            throw new CgtInputError(
              claim.disposed.refs[0],
              `negligible value claim of ${plainDecimal(claim.disposed.quantity)} ${asset} on ${day.day} is more than the pool holds`,
            );
          }
          const part = takePart(pool, claim.disposed.quantity);
          claim.matched.push({ rule: 's104', quantity: claim.disposed.quantity, cost: part.gbp });
          pool = part.left;
        },
      });
    }
    for (const back of day.reacquired) {
      steps.push({
        at: back.at,
        order: 2,
        run: () => {
          pool = { quantity: pool.quantity.plus(back.quantity), gbp: pool.gbp.plus(back.gbp) };
        },
      });
    }
    if (aboveZero(day.unmatched)) {
      steps.push({
        at: day.disposedAt,
        order: 3,
        run: () => {
          if (day.unmatched.gt(pool.quantity)) {
            // checkHoldings makes this unreachable: the pool holds at least what is held.
            throw new CgtInputError(
              day.disposed.refs[0],
              `disposal of ${plainDecimal(day.unmatched)} ${asset} on ${day.day} is more than the pool holds`,
            );
          }
          const part = takePart(pool, day.unmatched);
          day.matched.push({ rule: 's104', quantity: day.unmatched, cost: part.gbp });
          day.unmatched = ZERO;
          pool = part.left;
        },
      });
    }
    steps.sort((a, b) => a.at - b.at || a.order - b.order);
    for (const step of steps) step.run();
    history.push({ day: day.day, pool });
  }
  return history;
}

function disposalOf(
  asset: string,
  day: Pick<AssetDay, 'day' | 'disposed' | 'matched'>,
  taxYear: string,
): CgtDisposal {
  const cost = day.matched.reduce((sum, part) => sum.plus(part.cost), day.disposed.fees);
  return {
    date: day.day,
    taxYear,
    asset,
    quantity: day.disposed.quantity,
    proceeds: day.disposed.proceeds,
    cost,
    fees: day.disposed.fees,
    gain: day.disposed.proceeds.minus(cost),
    refs: day.disposed.refs,
    matched: day.matched.map((part) => (part.rule === 's104' ? omitDate(part) : part)),
  };
}

function omitDate({ rule, quantity, cost }: CgtMatch): CgtMatch {
  return { rule, quantity, cost };
}

/** The pool after the last day on or before `lastDay` (null: after everything); empty before any day. */
function poolAt(asset: string, history: readonly PoolAfterDay[], lastDay: string | null): CgtPool {
  let pool: Remaining = { quantity: ZERO, gbp: ZERO };
  for (const entry of history) {
    if (lastDay !== null && entry.day > lastDay) break;
    pool = entry.pool;
  }
  return { asset, quantity: pool.quantity, cost: pool.gbp };
}

/** Whether the pool changed on a day from `firstDay` to `lastDay`. */
function activeIn(history: readonly PoolAfterDay[], firstDay: string, lastDay: string): boolean {
  return history.some((entry) => entry.day >= firstDay && entry.day <= lastDay);
}

function taxYears(
  disposals: readonly CgtDisposal[],
  assets: readonly string[],
  poolHistory: ReadonlyMap<string, PoolAfterDay[]>,
): CgtTaxYear[] {
  const years = new Map<string, CgtDisposal[]>();
  for (const disposal of disposals) {
    const list = years.get(disposal.taxYear) ?? [];
    list.push(disposal);
    years.set(disposal.taxYear, list);
  }
  return [...years.keys()].sort(compare).map((taxYear) => {
    const list = years.get(taxYear) ?? [];
    const sum = (pick: (d: CgtDisposal) => Decimal) => list.reduce((total, d) => total.plus(pick(d)), ZERO);
    return {
      taxYear,
      disposals: list.length,
      proceeds: sum((d) => d.proceeds),
      costs: sum((d) => d.cost),
      gains: sum((d) => (aboveZero(d.gain) ? d.gain : ZERO)),
      losses: sum((d) => (belowZero(d.gain) ? d.gain.negated() : ZERO)),
      closingPools: closingPools(taxYear, assets, poolHistory),
    };
  });
}

/** The first and last UK day of a tax year label: 6 April to 5 April. */
function yearDays(taxYear: string): { firstDay: string; lastDay: string } {
  const start = Number(taxYear.slice(0, 4));
  return { firstDay: `${start}-04-06`, lastDay: `${start + 1}-04-05` };
}

/** The labels from `first` to `last`, each year once. */
function yearsBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let start = Number(first.slice(0, 4)); start <= Number(last.slice(0, 4)); start++) {
    out.push(ukTaxYear(start).label);
  }
  return out;
}

/** The section 104 pools as they stand at the end of the tax year (5 April), every asset seen by then. */
function closingPools(
  taxYear: string,
  assets: readonly string[],
  poolHistory: ReadonlyMap<string, PoolAfterDay[]>,
): CgtPool[] {
  const { firstDay, lastDay } = yearDays(taxYear);
  // A pool emptied before the year began is not one of its pools: carried to next year through pools.csv
  // it could not be opened (a pool of nothing), so listing it would part the two computations.
  return assets
    .filter((asset) => (poolHistory.get(asset)?.[0]?.day ?? '9999') <= lastDay)
    .map((asset) => poolAt(asset, poolHistory.get(asset) ?? [], lastDay))
    .filter(
      (pool) => aboveZero(pool.quantity) || activeIn(poolHistory.get(pool.asset) ?? [], firstDay, lastDay),
    );
}

/**
 * The year's closing pools and the acquisitions after its 5 April that its disposals took under the 30-day
 * rule, summed per asset and UK day, by day then asset.
 */
function yearEnd(
  taxYear: string,
  disposals: readonly CgtDisposal[],
  assets: readonly string[],
  poolHistory: ReadonlyMap<string, PoolAfterDay[]>,
): CgtYearEnd {
  const { lastDay } = yearDays(taxYear);
  const ahead = new Map<string, CgtYearEnd['matchedAhead'][number]>();
  for (const disposal of disposals) {
    if (disposal.taxYear !== taxYear) continue;
    for (const part of disposal.matched) {
      if (part.rule !== '30-day' || part.date === undefined || part.date <= lastDay) continue;
      const key = `${part.date}\u0000${disposal.asset}`;
      const entry = ahead.get(key) ?? { asset: disposal.asset, day: part.date, quantity: ZERO, cost: ZERO };
      ahead.set(key, {
        ...entry,
        quantity: entry.quantity.plus(part.quantity),
        cost: entry.cost.plus(part.cost),
      });
    }
  }
  return {
    taxYear,
    asAt: lastDay,
    pools: closingPools(taxYear, assets, poolHistory),
    matchedAhead: [...ahead.keys()].sort(compare).map((key) => ahead.get(key)!),
  };
}

/**
 * UK days and tax years for many instants. London's offset changes only on the hour, so every instant of a UTC
 * hour has the same UK day: the zone lookup (an Intl formatting) runs once per hour seen, not per transaction.
 */
function ukCalendar(): { day: (ms: number) => string; taxYear: (day: string) => string } {
  const dayByHour = new Map<number, string>();
  const labelByStartYear = new Map<number, string>();
  return {
    day(ms) {
      const hour = Math.floor(ms / HOUR_MS);
      let day = dayByHour.get(hour);
      if (day === undefined) {
        day = ukDay(hour * HOUR_MS);
        dayByHour.set(hour, day);
      }
      return day;
    },
    // A UK day's tax year starts on the 6 April on or before it (`2025-04-05` is in 2024/25).
    taxYear(day) {
      const year = Number(day.slice(0, 4));
      const startYear = day.slice(5) >= '04-06' ? year : year - 1;
      let label = labelByStartYear.get(startYear);
      if (label === undefined) {
        label = ukTaxYear(startYear).label;
        labelByStartYear.set(startYear, label);
      }
      return label;
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
