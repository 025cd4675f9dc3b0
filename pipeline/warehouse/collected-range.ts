/** What the warehouse holds, day by day: the collected range and the days missing inside it. */
import type { Warehouse } from './open-warehouse.js';

export interface DayGap {
  /** First and last missing UTC day (`YYYY-MM-DD`), both included. */
  from: string;
  to: string;
  days: number;
}

export interface CollectedRange {
  firstDay: string;
  lastDay: string;
  /** Days with a `collected_days` row. */
  days: number;
  /** The latest day read to its end; null when only a partial day is there. */
  lastCompleteDay: string | null;
  /** The last day when it was read only up to the finalized head (today, as of the last run). */
  partialDay: string | null;
  /** Runs of days with no row between the first and the last day. */
  gaps: DayGap[];
  /** Days before the last one that were left partial (a later day was collected without them). */
  incomplete: string[];
}

/** Null when nothing has been collected. */
export async function readCollectedRange(warehouse: Warehouse): Promise<CollectedRange | null> {
  const [range] = await warehouse.rows(
    `SELECT strftime(min(day), '%Y-%m-%d') AS first_day, strftime(max(day), '%Y-%m-%d') AS last_day,
            count(*) AS days, strftime(max(day) FILTER (WHERE complete), '%Y-%m-%d') AS last_complete,
            strftime(max(day) FILTER (WHERE partial), '%Y-%m-%d') AS last_partial
       FROM collected_days`,
  );
  if (range === undefined || range['first_day'] === null) return null;
  const lastDay = String(range['last_day']);
  const gaps = await warehouse.rows(
    `SELECT strftime(previous + 1, '%Y-%m-%d') AS gap_from, strftime(day - 1, '%Y-%m-%d') AS gap_to,
            day - previous - 1 AS missing
       FROM (SELECT day, lag(day) OVER (ORDER BY day) AS previous FROM collected_days)
      WHERE day - previous > 1 ORDER BY day`,
  );
  const incomplete = await warehouse.rows(
    `SELECT strftime(day, '%Y-%m-%d') AS day FROM collected_days
      WHERE NOT complete AND day < (SELECT max(day) FROM collected_days) ORDER BY day`,
  );
  return {
    firstDay: String(range['first_day']),
    lastDay,
    days: Number(range['days']),
    lastCompleteDay: range['last_complete'] === null ? null : String(range['last_complete']),
    partialDay: range['last_partial'] === lastDay ? lastDay : null,
    gaps: gaps.map((gap) => ({
      from: String(gap['gap_from']),
      to: String(gap['gap_to']),
      days: Number(gap['missing']),
    })),
    incomplete: incomplete.map((row) => String(row['day'])),
  };
}
