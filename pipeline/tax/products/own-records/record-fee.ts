/**
 * The fee of a Koinly or BittyTax row, in pounds. A fee in pounds is its amount; a fee in TAO or alpha is
 * valued at the row's own price of that token (its value over its quantity: for the token sent in a trade,
 * the row's value over the quantity sent, which leaves the fee out in Koinly's template as in BittyTax's
 * Sell Quantity) when the token is one of the row's legs and that leg has a value: the price the buyer's
 * tool already used, not one the pack looks up. One trade has one price.
 * Otherwise the fee has no value the pack can stand behind, and the row is refused saying so.
 */
import type { Decimal } from 'decimal.js';
import type { OwnRecord } from './customer-inputs.js';
import { isFiat, pooledAsset, tokenCode, unknownAsset } from './record-asset.js';
import type { RecordRow } from './record-row.js';

export interface FeeLeg {
  asset: string;
  quantity: Decimal;
  gbp: Decimal | null;
}

export interface FeeColumns {
  quantity: string;
  asset: string;
  /** BittyTax gives the fee's value in its own column; Koinly does not. */
  gbp?: string;
}

/** The fee, null when none; undefined when refused (reported). */
export function readFee(
  row: RecordRow,
  columns: FeeColumns,
  legs: ReadonlyArray<FeeLeg>,
): OwnRecord['fee'] | undefined {
  const quantity = row.amount(columns.quantity, false);
  const assetText = row.text(columns.asset);
  const given = columns.gbp === undefined ? null : row.amount(columns.gbp, false);
  if (quantity === undefined || given === undefined) return undefined;
  if (quantity === null || quantity.isZero()) {
    if (given !== null && !given.isZero())
      row.problem(columns.quantity, 'is empty but the fee has a value: give its quantity');
    return row.failed ? undefined : null;
  }
  if (assetText === '') {
    row.problem(columns.asset, 'is empty: name the currency of the fee');
    return undefined;
  }
  const code = assetText.toUpperCase();
  if (code === 'GBP') return { asset: 'GBP', quantity, gbp: given ?? quantity };
  const pooled = pooledAsset(assetText) ?? tokenCode(assetText);
  if (pooled === null && !isFiat(assetText)) {
    row.problem(columns.asset, unknownAsset(assetText));
    return undefined;
  }
  const asset = pooled ?? code;
  if (given !== null) return { asset, quantity, gbp: given };
  const leg = legs.find((l) => l.asset === asset && l.gbp !== null);
  if (pooled === null || leg === undefined) {
    row.problem(
      columns.asset,
      `fee in ${asset} has no GBP value: ${columns.gbp ? `give ${row.columnName(columns.gbp)}` : 'give the fee in GBP'}, or the row's value of ${asset}`,
    );
    return undefined;
  }
  return { asset, quantity, gbp: quantity.times(leg.gbp!).dividedBy(leg.quantity) };
}
