/**
 * points.csv: the pack's points to check, one row a point, in the PDF's order (pounds at stake, largest
 * first), each with the action that settles it. The PDF lists the same points from the same rows
 * (`pack-points.ts`), so the two say the same.
 */
import { readCsv } from '../../../csv/read-csv.js';
import { fixedDecimal, GBP_PLACES } from '../../uk-rules/cgt/cgt-decimal.js';
import { csv } from './csv-text.js';
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
      point.gbp === null ? null : fixedDecimal(point.gbp, GBP_PLACES),
      point.text,
      point.action,
    ]),
  );
}

/** A point as points.csv gives it: the order page lists these (its text and pounds as the file writes them). */
export interface PointRow {
  rank: number;
  kind: string;
  counterparty: string;
  label: string;
  count: number;
  firstDate: string;
  lastDate: string;
  /** Pounds at stake as points.csv gives them (8 places); '' when the point has no single figure. */
  gbp: string;
  point: string;
  action: string;
}

/** The rows of a points.csv, in its order; null for a file that does not read as one. */
export function readPointsCsv(text: string): PointRow[] | null {
  const table = readCsv(text, ['rank', 'kind', 'counterparty', 'count', 'gbp', 'point', 'action']);
  if (table.problems.length > 0) return null;
  return table.records.map(({ values }) => ({
    rank: Number(values['rank']),
    kind: values['kind'] ?? '',
    counterparty: values['counterparty'] ?? '',
    label: values['label'] ?? '',
    count: Number(values['count']),
    firstDate: values['first_date'] ?? '',
    lastDate: values['last_date'] ?? '',
    gbp: values['gbp'] ?? '',
    point: values['point'] ?? '',
    action: values['action'] ?? '',
  }));
}
