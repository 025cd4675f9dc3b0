/**
 * `sbm tax cgt --json`: the report with every amount and quantity as an unrounded decimal string (plain
 * notation, no exponent), `gain` negative for a loss; `gains` and `losses` are the SA108 totals (losses a
 * positive figure). Field names and order are part of the command's interface (README "Capital gains").
 */
import { plainDecimal } from './cgt-decimal.js';
import type { CgtReport } from './cgt-types.js';

export interface CgtJson {
  disposals: Array<{
    date: string;
    asset: string;
    quantity: string;
    proceeds: string;
    cost: string;
    /** Fees paid to make the disposal (in `cost`), when any. */
    fees?: string;
    gain: string;
    matched: Array<{ rule: string; date?: string; quantity: string; cost: string }>;
  }>;
  pools: Array<{ asset: string; quantity: string; cost: string }>;
  tax_years: Array<{
    tax_year: string;
    disposals: number;
    proceeds: string;
    costs: string;
    gains: string;
    losses: string;
  }>;
  /**
   * Every tax year from the first transaction's to the last one's: its closing pools at 5 April and the
   * acquisitions after that day its disposals took under the 30-day rule (a pack's pools.csv rows).
   */
  year_ends: Array<{
    tax_year: string;
    as_at: string;
    pools: Array<{ asset: string; quantity: string; cost: string }>;
    matched_ahead: Array<{ asset: string; day: string; quantity: string; cost: string }>;
  }>;
}

export function cgtJson(report: CgtReport): CgtJson {
  return {
    disposals: report.disposals.map((d) => ({
      date: d.date,
      asset: d.asset,
      quantity: plainDecimal(d.quantity),
      proceeds: plainDecimal(d.proceeds),
      cost: plainDecimal(d.cost),
      ...(d.fees.gt(0) ? { fees: plainDecimal(d.fees) } : {}),
      gain: plainDecimal(d.gain),
      matched: d.matched.map((m) => ({
        rule: m.rule,
        ...(m.date === undefined ? {} : { date: m.date }),
        quantity: plainDecimal(m.quantity),
        cost: plainDecimal(m.cost),
      })),
    })),
    pools: report.pools.map((p) => ({
      asset: p.asset,
      quantity: plainDecimal(p.quantity),
      cost: plainDecimal(p.cost),
    })),
    tax_years: report.taxYears.map((y) => ({
      tax_year: y.taxYear,
      disposals: y.disposals,
      proceeds: plainDecimal(y.proceeds),
      costs: plainDecimal(y.costs),
      gains: plainDecimal(y.gains),
      losses: plainDecimal(y.losses),
    })),
    year_ends: report.yearEnds.map((y) => ({
      tax_year: y.taxYear,
      as_at: y.asAt,
      pools: y.pools.map((p) => ({
        asset: p.asset,
        quantity: plainDecimal(p.quantity),
        cost: plainDecimal(p.cost),
      })),
      matched_ahead: y.matchedAhead.map((m) => ({
        asset: m.asset,
        day: m.day,
        quantity: plainDecimal(m.quantity),
        cost: plainDecimal(m.cost),
      })),
    })),
  };
}
