/** `cgt-input.csv`: the chain record's transactions, as `sbm tax cgt` reads them. */
import { plainDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { CgtTransaction } from '../../../uk-rules/cgt/cgt-types.js';
import { csv, type Field, rowsOf } from '../csv-text.js';

export const CGT_INPUT_COLUMNS = [
  'datetime',
  'asset',
  'action',
  'quantity',
  'gbp',
  'fee_gbp',
  'kind',
  'counterparty',
] as const;

/**
 * Exactly what `sbm tax cgt` reads: the chain record's transactions. Rerunning it gives the pack's
 * disposals (those of the tax year) and its closing pools (the year's); with the buyer's own files
 * (`--records`, `--addresses`, `--opening`) it combines them as the pack did. `kind` and `counterparty`
 * say which rows a buyer's files can change: the opening, and the transfers across the order's edge.
 * It runs on up to 30 days past the year for the 30-day rule.
 */
export function cgtInputCsv(transactions: readonly CgtTransaction[], openingAt: Date): string {
  // Coldkeys that held nothing when the record opens have no opening row: a marker row (quantity 0) keeps
  // the instant, where a buyer's opening pools stand.
  const marker = transactions.some((tx) => tx.kind === 'opening')
    ? []
    : [[openingAt.toISOString(), 'TAO', 'acquire', '0', '0', null, 'opening', null]];
  // A day's income transactions share their instant: each instant's text is made once.
  const instants = new Map<number, string>();
  const instant = (at: Date) => {
    let text = instants.get(at.getTime());
    if (text === undefined) {
      text = at.toISOString();
      instants.set(at.getTime(), text);
    }
    return text;
  };
  function* rows(): Iterable<readonly Field[]> {
    yield* marker;
    yield* rowsOf(transactions, (tx) => [
      instant(tx.at),
      tx.asset,
      tx.action,
      plainDecimal(tx.quantity),
      plainDecimal(tx.gbp),
      tx.fee ? plainDecimal(tx.fee) : null,
      tx.kind ?? null,
      tx.counterparty ?? null,
    ]);
  }
  return csv(CGT_INPUT_COLUMNS, rows());
}
