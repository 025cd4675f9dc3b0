/**
 * The year's income by where it came from, as income.csv and the PDF show it:
 *   - staking: each position's daily growth that no event explains (`uk-rules/income-ledger.ts`);
 *   - lease dividends: alpha a subnet lease paid onto a contributor's stake, announced from spec 361 by
 *     `SubnetLeaseDividendsDistributed`. It reaches the position like staking rewards do, so it is inside that
 *     position's row of its day; its part is the event's alpha, valued at that row's prices;
 *   - liquidity fees: the fees paid out with a user liquidity position, income when received (CRYPTO61213,
 *     CRYPTO61214), their own rows (`uk-rules/cgt/liquidity-fee-income.ts`).
 * The three add up to the income total: a lease dividend's part is taken out of its row's staking figure,
 * never counted twice.
 */
import type { Decimal } from 'decimal.js';
import { positionId } from '../../chain-record/stake-at-blocks.js';
import { CgtDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import type { LiquidityFeeIncome } from '../../uk-rules/cgt/liquidity-fee-income.js';
import { gbpOfTaoRao, type IncomeRow } from '../../uk-rules/income-ledger.js';
import type { TaxYearLedger } from '../compute-tax-year.js';

export type IncomeSource = 'staking' | 'lease dividends' | 'liquidity fees';
export const INCOME_SOURCES: readonly IncomeSource[] = ['staking', 'lease dividends', 'liquidity fees'];

/** One amount of income (or, negative, a day's fall) the summary sums. */
export interface IncomeItem {
  date: string;
  coldkey: string;
  netuid: number;
  registeredAt: number;
  /** A negative day (stake fell): shown apart, never deducted. */
  negative: boolean;
  /** Its value in TAO (RAO); null when not valued (no pool price). */
  taoRao: bigint | null;
  gbp: Decimal | null;
  source: IncomeSource;
}

/** The lease dividends inside one income row: the events' alpha (RAO). */
export interface RowDividends {
  alphaRao: bigint;
  /** Their part of the row's value (the row's prices). */
  taoRao: bigint | null;
  gbp: Decimal | null;
}

const key = (date: string, coldkey: string, hotkey: string | null, netuid: number) =>
  `${date}|${positionId({ coldkey, hotkey: hotkey ?? '', netuid })}`;

/**
 * The lease dividends the year's events announce, per UK day and position: alpha RAO. The event names the
 * contributor and the alpha, not where it went: the stake moved onto the contributor in the same block
 * (`StakeAdded` of that coldkey, its hotkey and subnet) says which position.
 */
function announcedDividends(ledger: TaxYearLedger): Map<string, bigint> {
  const coldkeys = new Set(ledger.coldkeys);
  const found = new Map<string, bigint>();
  // Each of an action's events is treated on its own: the action's events are read once.
  const seen = new Set<TaxYearLedger['mapping']['events'][number]['action']>();
  for (const treated of ledger.mapping.events) {
    if (seen.has(treated.action)) continue;
    seen.add(treated.action);
    for (const e of treated.action.events) {
      if (e.kind !== 'SubnetLeaseDividendsDistributed' || !coldkeys.has(e.coldkey)) continue;
      const onto =
        e.netuid !== null
          ? e
          : treated.action.events.find(
              (x) => x.kind === 'StakeAdded' && x.coldkey === e.coldkey && x.netuid !== null,
            );
      if (!onto || onto.netuid === null) continue;
      const at = key(treated.date, e.coldkey, onto.hotkey, onto.netuid);
      found.set(at, (found.get(at) ?? 0n) + BigInt(e.alpha_rao ?? '0'));
    }
  }
  return found;
}

// Made once per ledger: income.csv and the income items (the PDF, the README) both read them.
const dividendsOfLedger = new WeakMap<TaxYearLedger, Map<IncomeRow, RowDividends>>();

/**
 * Per income row that holds lease dividends, their part of it: at most the row's own alpha (a row is what
 * the position grew by that day), valued at the row's pool price and TAO/GBP rate.
 */
export function dividendsByRow(ledger: TaxYearLedger): ReadonlyMap<IncomeRow, RowDividends> {
  const made = dividendsOfLedger.get(ledger);
  if (made) return made;
  const parts = new Map<IncomeRow, RowDividends>();
  dividendsOfLedger.set(ledger, parts);
  const announced = announcedDividends(ledger);
  if (announced.size === 0) return parts;
  for (const row of ledger.income) {
    if (row.alphaRao <= 0n) continue;
    const at = key(row.date, row.position.coldkey, row.position.hotkey, row.position.netuid);
    const dividend = announced.get(at);
    if (!dividend) continue;
    const alphaRao = dividend < row.alphaRao ? dividend : row.alphaRao;
    announced.set(at, dividend - alphaRao);
    const taoRao = row.taoRao === null ? null : (row.taoRao * alphaRao) / row.alphaRao;
    const gbp =
      row.gbp === null || taoRao === null
        ? null
        : alphaRao === row.alphaRao
          ? row.gbp
          : CgtDecimal.min(gbpOfTaoRao(taoRao, row.gbpPrice), row.gbp);
    parts.set(row, { alphaRao, taoRao, gbp });
  }
  return parts;
}

/** The year's liquidity fee receipts, in order. */
export function liquidityFeeIncome(ledger: TaxYearLedger): LiquidityFeeIncome[] {
  return ledger.mapping.events.flatMap((treated) => (treated.feeIncome ? [treated.feeIncome] : []));
}

/** A fee receipt's value in TAO: the TAO received and the alpha's value at the pool price. */
export const feeValueTaoRao = (fee: LiquidityFeeIncome) => fee.taoRao + fee.alphaValueTaoRao;

// The items of a ledger, made once: the PDF's totals, each coldkey's pages and the README all read them
// (a big pack's year is tens of thousands of rows).
const itemsOfLedger = new WeakMap<TaxYearLedger, Map<string, readonly IncomeItem[]>>();

/** Every income amount of the year (of one coldkey when given), by source, for the PDF's totals. */
export function incomeItems(ledger: TaxYearLedger, coldkey?: string): readonly IncomeItem[] {
  const made = itemsOfLedger.get(ledger) ?? new Map<string, readonly IncomeItem[]>();
  itemsOfLedger.set(ledger, made);
  // A coldkey's items are the ledger's when every amount is that coldkey's (an order of one coldkey).
  const key = coldkey === undefined || onlyColdkey(ledger) === coldkey ? '' : coldkey;
  const known = made.get(key);
  if (known) return known;
  const items = makeIncomeItems(ledger, key === '' ? undefined : key);
  made.set(key, items);
  return items;
}

function onlyColdkey(ledger: TaxYearLedger): string | null {
  const first = ledger.income[0]?.position.coldkey ?? liquidityFeeIncome(ledger)[0]?.coldkey;
  if (first === undefined) return null;
  const all =
    ledger.income.every((row) => row.position.coldkey === first) &&
    liquidityFeeIncome(ledger).every((fee) => fee.coldkey === first);
  return all ? first : null;
}

/** One item of a row (tens of thousands in a big year): made whole, not spread from a base object. */
function incomeItem(
  row: IncomeRow,
  negative: boolean,
  taoRao: bigint | null,
  gbp: Decimal | null,
  source: IncomeSource,
): IncomeItem {
  return {
    date: row.date,
    coldkey: row.position.coldkey,
    netuid: row.position.netuid,
    registeredAt: row.registeredAt,
    negative,
    taoRao,
    gbp,
    source,
  };
}

function makeIncomeItems(ledger: TaxYearLedger, coldkey: string | undefined): IncomeItem[] {
  const dividends = dividendsByRow(ledger);
  const items: IncomeItem[] = [];
  for (const row of ledger.income) {
    if (coldkey !== undefined && row.position.coldkey !== coldkey) continue;
    const part = dividends.get(row);
    if (!part) {
      items.push(incomeItem(row, row.alphaRao < 0n, row.taoRao, row.gbp, 'staking'));
      continue;
    }
    items.push(incomeItem(row, false, part.taoRao, part.gbp, 'lease dividends'));
    const rest = row.alphaRao - part.alphaRao;
    if (rest > 0n) {
      items.push(
        incomeItem(
          row,
          false,
          row.taoRao === null || part.taoRao === null ? row.taoRao : row.taoRao - part.taoRao,
          row.gbp === null || part.gbp === null ? row.gbp : row.gbp.sub(part.gbp),
          'staking',
        ),
      );
    }
  }
  for (const fee of liquidityFeeIncome(ledger)) {
    if (coldkey !== undefined && fee.coldkey !== coldkey) continue;
    items.push({
      date: fee.date,
      coldkey: fee.coldkey,
      netuid: fee.netuid,
      registeredAt: fee.registeredAt,
      negative: false,
      taoRao: feeValueTaoRao(fee),
      gbp: fee.gbp,
      source: 'liquidity fees',
    });
  }
  return items.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
