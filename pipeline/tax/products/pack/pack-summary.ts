/**
 * The figures the PDF shows, summed from the ledger: income by month and by subnet (TAO and pounds), per
 * coldkey and for the order, the SA108 figures of the tax year, and the closing pools. Sums are exact
 * (bigint RAO, decimals); rounding to pence happens when the PDF writes them.
 */
import type { Decimal } from 'decimal.js';
import { fixedToText } from '../../../amounts/rao.js';
import { CgtDecimal, pounds } from '../../uk-rules/cgt/cgt-decimal.js';
import type { CgtTaxYear } from '../../uk-rules/cgt/cgt-types.js';
import type { IncomeRow } from '../../uk-rules/income-ledger.js';
import type { TaxYearLedger } from '../compute-tax-year.js';
import { INCOME_SOURCES, type IncomeItem, type IncomeSource } from './income-sources.js';

export interface IncomeTotal {
  /** Received: TAO RAO of the days with income above zero (valued rows only). */
  taoRao: bigint;
  /** Received: pounds of the days with income above zero. This is the income; losses are not netted. */
  gbp: Decimal;
  /** Days × positions with income below zero. */
  negativeDays: number;
  /** What those days lost, as a positive figure: TAO RAO and pounds at their prices (shown, not deducted). */
  lostTaoRao: bigint;
  lostGbp: Decimal;
}

export interface IncomeGroup extends IncomeTotal {
  key: string;
  label: string;
  /** The bar chart's label when it is not the label's first three letters. */
  chartLabel?: string;
  /** A month wholly outside the record's UK days (the year not over, the record opened later): not known, not £0. */
  outsideRecord?: boolean;
}

export interface IncomeSummary {
  total: IncomeTotal;
  /** Staking, lease dividends and liquidity fees: what each gave of the total (received only). */
  bySource: Array<{ source: IncomeSource; taoRao: bigint; gbp: Decimal }>;
  byMonth: IncomeGroup[];
  bySubnet: IncomeGroup[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function emptyTotal(): IncomeTotal {
  return { taoRao: 0n, gbp: new CgtDecimal(0), negativeDays: 0, lostTaoRao: 0n, lostGbp: new CgtDecimal(0) };
}

/**
 * Income is what was received (HMRC CRYPTO21200); stake lost on a negative day (a fall nothing explains, a subnet ended)
 * is no negative income but a disposal for nothing in the capital gains, so it is counted apart.
 */
function addRow(total: IncomeTotal, row: IncomeItem): void {
  if (row.negative) {
    total.negativeDays += 1;
    total.lostTaoRao -= row.taoRao ?? 0n;
    total.lostGbp = total.lostGbp.sub(row.gbp ?? 0);
    return;
  }
  total.taoRao += row.taoRao ?? 0n;
  total.gbp = total.gbp.add(row.gbp ?? 0);
}

/** Adds a sum of rows to a total. */
function addTotal(total: IncomeTotal, sum: IncomeTotal): void {
  total.taoRao += sum.taoRao;
  total.gbp = total.gbp.add(sum.gbp);
  total.negativeDays += sum.negativeDays;
  total.lostTaoRao += sum.lostTaoRao;
  total.lostGbp = total.lostGbp.add(sum.lostGbp);
}

/** The rows of one month, subnet registration and source, summed. */
interface IncomeCell {
  month: string;
  netuid: number;
  registeredAt: number;
  source: IncomeSource;
  sum: IncomeTotal;
}

// The cells of a list of rows, made once: a pack sums its year three times (the PDF's totals, its coldkey's
// pages, the README), tens of thousands of rows each for a big coldkey, and a list is never changed once made.
const cellsOfRows = new WeakMap<readonly (IncomeRow | IncomeItem)[], IncomeCell[]>();

/**
 * The rows summed per month, subnet registration and source, in the order each first appears: the summary's
 * totals add a few hundred cells instead of every row four times. The sums are exact (bigint RAO, 50-digit
 * decimals of 8 places), so the order they are added in changes nothing.
 */
function incomeCells(given: readonly (IncomeRow | IncomeItem)[]): IncomeCell[] {
  const known = cellsOfRows.get(given);
  if (known) return known;
  const cells = new Map<string, IncomeCell>();
  for (const entry of given) {
    // An income row alone is staking income (income-sources.ts splits out lease dividends and adds fees).
    const row: IncomeItem =
      'source' in entry
        ? entry
        : {
            date: entry.date,
            coldkey: entry.position.coldkey,
            netuid: entry.position.netuid,
            registeredAt: entry.registeredAt,
            negative: entry.alphaRao < 0n,
            taoRao: entry.taoRao,
            gbp: entry.gbp,
            source: 'staking' as const,
          };
    const month = row.date.slice(0, 7);
    const key = `${month}|${row.netuid}|${row.registeredAt}|${row.source}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        month,
        netuid: row.netuid,
        registeredAt: row.registeredAt,
        source: row.source,
        sum: emptyTotal(),
      };
      cells.set(key, cell);
    }
    addRow(cell.sum, row);
  }
  const made = [...cells.values()];
  cellsOfRows.set(given, made);
  return made;
}

/**
 * The twelve months of the tax year (April to March), each present even with no income, then 1 to 5 April.
 * A month wholly before `record.firstDay` or after `record.lastDay` (UK days, YYYY-MM-DD) is marked `outsideRecord`.
 */
export function incomeSummary(
  given: readonly (IncomeRow | IncomeItem)[],
  startYear: number,
  names: ReadonlyMap<number, string>,
  record?: { firstDay: string; lastDay: string },
): IncomeSummary {
  const total = emptyTotal();
  const sources = new Map(INCOME_SOURCES.map((source) => [source, emptyTotal()]));
  const months = new Map<string, IncomeGroup>();
  for (let i = 0; i < 12; i++) {
    const month = ((3 + i) % 12) + 1;
    const year = startYear + (month < 4 ? 1 : 0);
    const key = `${year}-${String(month).padStart(2, '0')}`;
    const outsideRecord =
      record !== undefined && (key > record.lastDay.slice(0, 7) || key < record.firstDay.slice(0, 7));
    months.set(key, {
      key,
      label: `${MONTHS[month - 1]} ${year}`,
      ...(outsideRecord ? { outsideRecord } : {}),
      ...emptyTotal(),
    });
  }
  // The tax year ends on 5 April: 1 to 5 April of the next calendar year are a thirteenth, short month,
  // listed when it has income (a finished year always has) so that the months sum to the total.
  const lastApril = `${startYear + 1}-04`;
  const subnets = new Map<string, IncomeGroup>();
  for (const cell of incomeCells(given)) {
    addTotal(total, cell.sum);
    addTotal(sources.get(cell.source)!, cell.sum);
    let month = months.get(cell.month);
    if (!month && cell.month === lastApril) {
      month = {
        key: cell.month,
        label: `Apr ${startYear + 1} (1st to 5th)`,
        chartLabel: 'Apr 1-5',
        ...emptyTotal(),
      };
      months.set(cell.month, month);
    }
    if (month) addTotal(month, cell.sum);
    const netuid = cell.netuid;
    const key = `${String(netuid).padStart(5, '0')}:${cell.registeredAt}`;
    let subnet = subnets.get(key);
    if (!subnet) {
      // A netuid missing from the published run's subnet list is no longer registered (dissolved, say).
      const name = netuid === 0 ? 'root (TAO)' : (names.get(netuid) ?? '(no longer registered)');
      const label = `${netuid}${cell.registeredAt > 0 ? ` (reg. ${cell.registeredAt})` : ''}${name ? ` ${name}` : ''}`;
      subnet = { key, label, ...emptyTotal() };
      subnets.set(key, subnet);
    }
    addTotal(subnet, cell.sum);
  }
  return {
    total,
    bySource: INCOME_SOURCES.map((source) => ({
      source,
      taoRao: sources.get(source)!.taoRao,
      gbp: sources.get(source)!.gbp,
    })),
    byMonth: [...months.values()],
    bySubnet: [...subnets.values()].sort((a, b) => (a.key < b.key ? -1 : 1)),
  };
}

/** How README.txt and the PDF name each source of income. */
export const INCOME_SOURCE_LABELS: Record<IncomeSource, string> = {
  staking: 'Staking rewards (stake growth)',
  'lease dividends': 'Lease dividends (SubnetLeaseDividendsDistributed)',
  'liquidity fees': 'Liquidity fees (paid out with user liquidity positions)',
};

/** README.txt's income: the total and each source's, exact TAO and pounds to the penny (as the PDF). */
export function incomeTotalLines(summary: IncomeSummary): string[] {
  const figure = (taoRao: bigint, gbp: Decimal) => `${fixedToText(taoRao, 9)} TAO, £${pounds(gbp)}`;
  return [
    `Total: ${figure(summary.total.taoRao, summary.total.gbp)} (income.csv, its rows received)`,
    ...summary.bySource.map(
      ({ source, taoRao, gbp }) => `  ${INCOME_SOURCE_LABELS[source]}: ${figure(taoRao, gbp)}`,
    ),
  ];
}

/** The SA108 figures of the pack's tax year: zeros when it has no disposal. */
export function sa108Of(ledger: TaxYearLedger, label: string): CgtTaxYear {
  return (
    ledger.gains.taxYears.find((year) => year.taxYear === label) ?? {
      taxYear: label,
      disposals: 0,
      proceeds: new CgtDecimal(0),
      costs: new CgtDecimal(0),
      gains: new CgtDecimal(0),
      losses: new CgtDecimal(0),
      closingPools: ledger.closingPools,
    }
  );
}
