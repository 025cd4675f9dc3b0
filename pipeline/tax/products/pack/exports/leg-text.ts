/**
 * A record leg's quantity and pounds as the tools' CSVs write them, each formatted once: bittytax.csv and
 * koinly.csv write the same legs (tens of thousands of them for a big coldkey), and formatting a decimal is
 * most of the cost of writing a row.
 */
import { Decimal } from 'decimal.js';
import { GBP_PLACES, plainDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { ExportLeg } from './export-records.js';

const quantities = new WeakMap<ExportLeg, string>();
const pounds = new WeakMap<ExportLeg, string>();

/** The leg's quantity: plain decimal, exact. */
export function legQuantityText(leg: ExportLeg): string {
  let text = quantities.get(leg);
  if (text === undefined) {
    text = plainDecimal(leg.quantity);
    quantities.set(leg, text);
  }
  return text;
}

/** The leg's value: pounds to 8 decimal places, half to even (as the ledger rounds its values). */
export function legPoundsText(leg: ExportLeg): string {
  let text = pounds.get(leg);
  if (text === undefined) {
    text = leg.gbp.toFixed(GBP_PLACES, Decimal.ROUND_HALF_EVEN);
    pounds.set(leg, text);
  }
  return text;
}
