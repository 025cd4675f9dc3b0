/**
 * What the capital gains engine takes and gives (`computeGains`). The engine knows nothing of Bittensor: an
 * asset is an opaque name (`TAO`, `SN12@r123`), and each asset is matched and pooled on its own.
 */
import type { Decimal } from 'decimal.js';

export interface CgtTransaction {
  /** The instant; its UK day (Europe/London) decides the same-day and 30-day rules and the tax year. */
  at: Date;
  /** Opaque to the engine: each distinct name is its own asset with its own section 104 pool. */
  asset: string;
  action: 'acquire' | 'dispose';
  /** Greater than zero. */
  quantity: Decimal;
  /** Acquire: the allowable cost (fees included). Dispose: the proceeds, before any fee. >= 0. */
  gbp: Decimal;
  /** Dispose: fees paid to make it (an allowable cost, TCGA 1992 s38(1)(c)), added to the disposal's cost. */
  fee?: Decimal;
  /** Dispose: the part of `quantity` and `gbp` that was a fee paid in this token (the exports' Fee columns). */
  paidAsFee?: { quantity: Decimal; gbp: Decimal };
  /** The caller's reference (a CSV line, an event id): carried into the disposals and into errors. */
  ref?: string;
  /**
   * What the row stands for, for the pack's exports and for combining it with a buyer's own records (the
   * engine ignores it): the holdings when the record opens, a day's income, tokens that crossed the
   * order's edge to or from `counterparty`, holdings the record does not explain, a buyer's record.
   */
  kind?: CgtRowKind;
  /** The address on the other side of a transfer (`transfer-in`, `transfer-out`). */
  counterparty?: string;
  /**
   * Part of a negligible value claim (TCGA 1992 s24(2), CRYPTO22400, CRYPTO22500): the deemed disposal at
   * the claimed value and the reacquisition at that value at once. Neither is matched under the same-day or
   * 30-day rules: the disposal takes its cost from the section 104 pool and the reacquisition joins it.
   */
  claim?: true;
}

export type CgtRowKind = 'opening' | 'income' | 'transfer-in' | 'transfer-out' | 'unexplained' | 'record';
export const CGT_ROW_KINDS: readonly CgtRowKind[] = [
  'opening',
  'income',
  'transfer-in',
  'transfer-out',
  'unexplained',
  'record',
];

export type CgtRule = 'same-day' | '30-day' | 's104';

/** The part of a disposal matched under one rule (and, for the first two, with one UK day's acquisitions). */
export interface CgtMatch {
  rule: CgtRule;
  /** The UK day of the acquisitions matched: the disposal's own day for same-day, a later one for 30-day. */
  date?: string;
  quantity: Decimal;
  /** The allowable cost those tokens bring. */
  cost: Decimal;
}

/** All disposals of one asset on one UK day: one disposal (TCGA 1992 s105(1)). */
export interface CgtDisposal {
  /** The UK day, `YYYY-MM-DD`. */
  date: string;
  /** The tax year of that day, `2024/25`. */
  taxYear: string;
  asset: string;
  quantity: Decimal;
  proceeds: Decimal;
  /** The sum of the matched parts' costs and of the fees paid to make the disposal. */
  cost: Decimal;
  /** The fees of the disposal (in `cost`): zero when none. */
  fees: Decimal;
  /** proceeds − cost: negative for a loss. */
  gain: Decimal;
  /** The refs of the transactions this disposal groups, in input order. */
  refs: string[];
  matched: CgtMatch[];
}

export interface CgtPool {
  asset: string;
  quantity: Decimal;
  cost: Decimal;
}

/** The SA108 figures of one tax year: its disposals' count, proceeds, allowable costs, gains and losses. */
export interface CgtTaxYear {
  taxYear: string;
  disposals: number;
  proceeds: Decimal;
  costs: Decimal;
  /** The sum of the gains of disposals that made a gain (before losses). */
  gains: Decimal;
  /** The sum of the losses of disposals that made a loss, as a positive figure. */
  losses: Decimal;
  /** The section 104 pools as they stand at the end of the tax year (5 April), every asset seen by then. */
  closingPools: CgtPool[];
}

/**
 * Acquisitions after a tax year's end that its disposals took under the 30-day rule (summed per asset and UK
 * day): next year's computation leaves them out of that day's acquisitions (a pack's pools.csv
 * `matched-ahead` rows).
 */
export interface CgtMatchedAhead {
  asset: string;
  /** The UK day of the acquisitions, after the year's 5 April. */
  day: string;
  quantity: Decimal;
  cost: Decimal;
}

/**
 * Where one tax year leaves the next: its closing pools at 5 April (as `CgtTaxYear.closingPools`, and for a
 * year without disposals every pool held then) and its matched-ahead acquisitions. What a pack's pools.csv
 * carries, so a rerun of its cgt-input.csv gives that file's rows.
 */
export interface CgtYearEnd {
  taxYear: string;
  /** The year's last UK day, 5 April. */
  asAt: string;
  pools: CgtPool[];
  matchedAhead: CgtMatchedAhead[];
}

export interface CgtReport {
  /** By date, then asset. */
  disposals: CgtDisposal[];
  /** The section 104 pools after the last transaction, one per asset in the input, by asset. */
  pools: CgtPool[];
  /** The tax years that have disposals, in order. */
  taxYears: CgtTaxYear[];
  /** Every tax year from the first transaction's to the last one's, in order. */
  yearEnds: CgtYearEnd[];
}

/** Input the engine refuses: `ref` names the transaction (a CSV line, an event id) when there is one. */
export class CgtInputError extends Error {
  override name = 'CgtInputError';
  constructor(
    readonly ref: string | undefined,
    readonly problem: string,
  ) {
    super(ref === undefined ? problem : `${ref}: ${problem}`);
  }
}
