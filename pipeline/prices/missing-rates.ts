/**
 * Collected days without a fiat rate. A pack values each day's income and each event at that day's TAO/GBP
 * rate (the USD rate feeds the tax check's quote and the explorer): a collected day without one has no
 * value, so `sbm status` names these days until `sbm daily` or `sbm prices fetch` fills them.
 */
import { addDays } from '../time/utc-day.js';
import type { DayGap } from '../warehouse/collected-range.js';
import type { Warehouse } from '../warehouse/open-warehouse.js';
import { CURRENCIES, type Currency } from './fiat-prices.js';

/** Per currency, the runs of consecutive collected UTC days (read to their end) without a rate. */
export async function daysWithoutRate(warehouse: Warehouse): Promise<Record<Currency, DayGap[]>> {
  const rows = await warehouse.rows(
    `SELECT strftime(c.day, '%Y-%m-%d') AS day, cur.currency
       FROM collected_days c CROSS JOIN (VALUES ('usd'), ('gbp')) AS cur(currency)
      WHERE c.complete
        AND NOT EXISTS (SELECT 1 FROM fx_daily f WHERE f.day = c.day AND f.currency = cur.currency)
      ORDER BY cur.currency, c.day`,
  );
  const out = Object.fromEntries(CURRENCIES.map((currency) => [currency, [] as DayGap[]])) as Record<
    Currency,
    DayGap[]
  >;
  for (const row of rows) {
    const day = String(row['day']);
    const spans = out[String(row['currency']) as Currency];
    const last = spans.at(-1);
    if (last && addDays(last.to, 1) === day) {
      last.to = day;
      last.days += 1;
    } else spans.push({ from: day, to: day, days: 1 });
  }
  return out;
}

/** `2026-03-01..2026-03-04, 2026-03-09` */
export function describeSpans(spans: readonly DayGap[]): string {
  return spans.map((span) => (span.from === span.to ? span.from : `${span.from}..${span.to}`)).join(', ');
}
