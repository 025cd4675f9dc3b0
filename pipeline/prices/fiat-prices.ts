/**
 * TAO in USD and GBP per UTC day, from a CoinGecko-compatible API or a CSV file, upserted into `fx_daily`.
 * The day's price is the first quote at or after 00:00 UTC of that day (CoinGecko's daily points sit at
 * midnight, and its `/history` endpoint answers the same instant).
 */
import { formatUtcDay } from '../time/utc-day.js';
import { insertRows } from '../warehouse/insert-rows.js';
import type { Warehouse } from '../warehouse/open-warehouse.js';

export const CURRENCIES = ['usd', 'gbp'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface FxRow {
  day: string;
  currency: Currency;
  /** Decimal text with at most 8 decimals: kept exact into DECIMAL(20,8). */
  taoPrice: string;
  source: string;
}

export class PriceFeedError extends Error {
  override name = 'PriceFeedError';
}

/** The first quote of each UTC day in `[fromDay, toDay]`. */
export function dailyPrices(
  points: ReadonlyArray<readonly [number, number]>,
  fromDay: string,
  toDay: string,
) {
  const byDay = new Map<string, { at: number; price: number }>();
  for (const [at, price] of points) {
    if (!Number.isFinite(at) || !Number.isFinite(price) || price <= 0) continue;
    const day = formatUtcDay(at);
    if (day < fromDay || day > toDay) continue;
    const seen = byDay.get(day);
    if (!seen || at < seen.at) byDay.set(day, { at, price });
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, { price }]) => ({ day, price }));
}

/** A JSON float as decimal text with 8 decimals at most (the column's scale). */
export function priceText(price: number): string {
  return price.toFixed(8);
}

export async function upsertFx(warehouse: Warehouse, rows: readonly FxRow[]): Promise<number> {
  await insertRows(
    warehouse,
    'INSERT OR REPLACE INTO',
    'fx_daily',
    ['day', 'currency', 'tao_price', 'source'],
    rows.map((row) => [row.day, row.currency, row.taoPrice, row.source]),
  );
  return rows.length;
}
