/**
 * A record leg's quantity and pounds as the tools' CSVs write them, each formatted once and kept on the leg:
 * bittytax.csv and koinly.csv write the same legs (tens of thousands of them for a big coldkey), and
 * formatting a decimal is most of the cost of writing a row. Kept in WeakMaps instead, the staker in 100
 * subnets' 150,000 texts took the thread 0.4 s longer (a WeakMap's entries are costly to add and to collect).
 */
import { fixedDecimal, GBP_PLACES, plainDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { ExportLeg } from './export-records.js';

/** The leg's quantity: plain decimal, exact. */
export function legQuantityText(leg: ExportLeg): string {
  leg.quantityText ??= plainDecimal(leg.quantity);
  return leg.quantityText;
}

/** The leg's value: pounds to 8 decimal places, half to even (as the ledger rounds its values). */
export function legPoundsText(leg: ExportLeg): string {
  leg.poundsText ??= fixedDecimal(leg.gbp, GBP_PLACES);
  return leg.poundsText;
}
