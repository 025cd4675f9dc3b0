/** `sbm prices fetch`: TAO in USD and GBP per day from the price API into `fx_daily`. */
import { addDays, DAY_MS, eachDay, formatUtcDay, parseUtcDay } from '../time/utc-day.js';
import { openWarehouse } from '../warehouse/open-warehouse.js';
import { fetchPriceRange, type PriceApiOptions } from './coingecko-client.js';
import { CURRENCIES, dailyPrices, type FxRow, priceText, upsertFx } from './fiat-prices.js';

export interface FetchFiatOptions extends PriceApiOptions {
  warehousePath: string;
  /** First day; default: the day after the last day already in `fx_daily` for both currencies, or 30 days ago. */
  from?: string;
  /** Last day; default today (UTC). */
  to?: string;
  clock?: () => Date;
}

export interface FetchFiatSummary {
  from: string;
  to: string;
  rows: number;
  /** Days in the range without a quote, per currency. */
  missing: Record<string, string[]>;
}

export async function fetchFiatPrices(options: FetchFiatOptions): Promise<FetchFiatSummary> {
  const today = formatUtcDay((options.clock ?? (() => new Date()))().getTime());
  const to = options.to ?? today;
  const from = options.from ?? (await defaultFrom(options.warehousePath, today));
  const fromMs = parseUtcDay(from);
  const toMs = parseUtcDay(to) + DAY_MS - 1;
  const rows: FxRow[] = [];
  const missing: Record<string, string[]> = {};
  const source = new URL(options.priceUrl).host;
  for (const currency of CURRENCIES) {
    const points = await fetchPriceRange(options, currency, fromMs, toMs);
    const daily = dailyPrices(points, from, to);
    const seen = new Set(daily.map((d) => d.day));
    missing[currency] = eachDay(from, to).filter((d) => !seen.has(d));
    for (const { day, price } of daily) rows.push({ day, currency, taoPrice: priceText(price), source });
  }
  const warehouse = await openWarehouse(options.warehousePath);
  try {
    await upsertFx(warehouse, rows);
  } finally {
    warehouse.close();
  }
  return { from, to, rows: rows.length, missing };
}

async function defaultFrom(warehousePath: string, today: string): Promise<string> {
  const warehouse = await openWarehouse(warehousePath);
  try {
    const result = await warehouse.rows(
      `SELECT strftime(min(last), '%Y-%m-%d') AS day FROM
         (SELECT currency, max(day) AS last FROM fx_daily GROUP BY currency HAVING count(*) > 0)`,
    );
    const last = result[0]?.['day'];
    // The last stored day is fetched again: it may have been today, with an early quote.
    if (typeof last === 'string') return last;
    return addDays(today, -30);
  } finally {
    warehouse.close();
  }
}
