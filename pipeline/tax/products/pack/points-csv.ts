/**
 * points.csv: the pack's points to check, one row a point, in the PDF's order (pounds at stake, largest
 * first), each with the action that settles it. The PDF lists the same points from the same rows
 * (`pack-points.ts`), so the two say the same.
 */
import { Decimal } from 'decimal.js';
import { GBP_PLACES } from '../../uk-rules/income-ledger.js';
import { csv } from './pack-csv.js';
import { amountsCell, type PackPoint } from './pack-points.js';

export const POINTS_COLUMNS = [
  'rank',
  'kind',
  'counterparty',
  'label',
  'count',
  'days',
  'first_date',
  'last_date',
  'sent',
  'received',
  'gbp',
  'point',
  'action',
] as const;

/**
 * One row per point: rank (1 = most pounds at stake), kind, counterparty (the address it is about), label
 * (the buyer's name for it), count (transfers, flags or day rows it stands for), days (how many UK days),
 * first_date and last_date (UK), sent and received (`quantity asset` joined by `; `), gbp (pounds at stake,
 * 8 places; empty when the point has no single figure), point (what was found) and action (what settles it).
 */
export function pointsCsv(points: readonly PackPoint[]): string {
  return csv(
    POINTS_COLUMNS,
    points.map((point, index) => [
      index + 1,
      point.kind,
      point.counterparty,
      point.label,
      point.count,
      point.dates.length,
      point.dates[0] ?? '',
      point.dates.at(-1) ?? '',
      amountsCell(point.sent),
      amountsCell(point.received),
      point.gbp === null ? null : point.gbp.toFixed(GBP_PLACES, Decimal.ROUND_HALF_EVEN),
      point.text,
      point.action,
    ]),
  );
}
