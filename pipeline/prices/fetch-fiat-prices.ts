/**
 * `sbm prices fetch` (and the price step of `sbm daily` and `make demo`): TAO in USD and GBP per day from the
 * price API into `fx_daily`, and the same days of the other tokens a buyer's exchange records trade TAO
 * against (`token-prices.ts`: USDT, USDC, BTC, ETH) into `token_fx_daily`. Without `--from` it starts at the first collected day that lacks a rate in
 * either currency, so a record collected further back than the last fetch (a backfill, a first demo) gets a
 * rate for every day: a day without one would be valued at nothing. Long ranges are asked for in pieces of
 * at most 90 days, the longest range CoinGecko answers with hourly points.
 */
import { addDays, DAY_MS, eachDay, formatUtcDay, parseUtcDay } from '../time/utc-day.js';
import { openWarehouse, type Warehouse } from '../warehouse/open-warehouse.js';
import { fetchPriceRange, type PriceApiOptions } from './coingecko-client.js';
import { CURRENCIES, dailyPrices, type FxRow, PriceFeedError, priceText, upsertFx } from './fiat-prices.js';
import { PRICED_TOKENS, type TokenFxRow, upsertTokenFx } from './token-prices.js';

export interface FetchFiatOptions extends PriceApiOptions {
  warehousePath: string;
  /**
   * First day; default: the first collected day without a rate in either currency, else the last day already
   * in `fx_daily` (fetched again: it may have had an early quote), else 30 days ago.
   */
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
  /** The other tokens' prices stored, and their days without a quote per `ASSET/currency`. */
  tokens: { rows: number; missing: Record<string, string[]> };
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
  // A piece the API refuses (CoinGecko's free plan answers only the past 365 days) does not stop the
  // others: the recent days are stored whatever happens to a backfill, and the refusal is reported after.
  const failed: string[] = [];
  for (const currency of CURRENCIES) {
    const points: Array<[number, number]> = [];
    for (const [start, end] of rangePieces(fromMs, toMs)) {
      try {
        points.push(...(await fetchPriceRange(options, currency, start, end)));
      } catch (error) {
        if (!(error instanceof PriceFeedError)) throw error;
        failed.push(`${currency} ${formatUtcDay(start)}..${formatUtcDay(end)}: ${error.message}`);
      }
    }
    const daily = dailyPrices(points, from, to);
    const seen = new Set(daily.map((d) => d.day));
    missing[currency] = eachDay(from, to).filter((d) => !seen.has(d));
    for (const { day, price } of daily) rows.push({ day, currency, taoPrice: priceText(price), source });
  }
  const tokenRows: TokenFxRow[] = [];
  const tokenMissing: Record<string, string[]> = {};
  for (const { asset, coin } of PRICED_TOKENS) {
    for (const currency of CURRENCIES) {
      const points: Array<[number, number]> = [];
      for (const [start, end] of rangePieces(fromMs, toMs)) {
        try {
          points.push(...(await fetchPriceRange(options, currency, start, end, coin)));
        } catch (error) {
          if (!(error instanceof PriceFeedError)) throw error;
          failed.push(`${asset} ${currency} ${formatUtcDay(start)}..${formatUtcDay(end)}: ${error.message}`);
        }
      }
      const daily = dailyPrices(points, from, to);
      const seen = new Set(daily.map((d) => d.day));
      tokenMissing[`${asset}/${currency}`] = eachDay(from, to).filter((d) => !seen.has(d));
      for (const { day, price } of daily)
        tokenRows.push({ day, asset, currency, price: priceText(price), source });
    }
  }
  const warehouse = await openWarehouse(options.warehousePath);
  try {
    await upsertFx(warehouse, rows);
    await upsertTokenFx(warehouse, tokenRows);
  } finally {
    warehouse.close();
  }
  if (failed.length > 0) {
    throw new PriceFeedError(
      `stored ${rows.length} prices, but ${failed.length} range(s) failed: ${failed[0]}${failed.length > 1 ? ' (and more)' : ''}`,
    );
  }
  return { from, to, rows: rows.length, missing, tokens: { rows: tokenRows.length, missing: tokenMissing } };
}

/** The longest range asked for at once: CoinGecko answers up to 90 days with hourly points. */
export const MAX_RANGE_DAYS = 90;

/** `[fromMs, toMs]` cut into consecutive pieces of at most MAX_RANGE_DAYS days, oldest first. */
export function rangePieces(fromMs: number, toMs: number): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  for (let start = fromMs; start <= toMs; start += MAX_RANGE_DAYS * DAY_MS) {
    pieces.push([start, Math.min(toMs, start + MAX_RANGE_DAYS * DAY_MS - 1)]);
  }
  return pieces;
}

async function defaultFrom(warehousePath: string, today: string): Promise<string> {
  const warehouse = await openWarehouse(warehousePath);
  try {
    const unpriced = await firstDayWithoutRate(warehouse);
    const result = await warehouse.rows(
      `SELECT strftime(min(last), '%Y-%m-%d') AS day FROM
         (SELECT currency, max(day) AS last FROM fx_daily GROUP BY currency HAVING count(*) > 0)`,
    );
    const last = result[0]?.['day'];
    // The last stored day is fetched again: it may have been today, with an early quote.
    const again = typeof last === 'string' ? last : null;
    if (unpriced !== null && (again === null || unpriced < again)) return unpriced;
    return again ?? addDays(today, -30);
  } finally {
    warehouse.close();
  }
}

/** The first collected UTC day lacking a TAO/USD or a TAO/GBP rate; null when every one has both. */
export async function firstDayWithoutRate(warehouse: Warehouse): Promise<string | null> {
  const rows = await warehouse.rows(
    `SELECT strftime(min(c.day), '%Y-%m-%d') AS day FROM collected_days c
      WHERE (SELECT count(DISTINCT f.currency) FROM fx_daily f
              WHERE f.day = c.day AND f.currency IN ('usd', 'gbp')) < 2`,
  );
  const day = rows[0]?.['day'];
  return typeof day === 'string' ? day : null;
}
