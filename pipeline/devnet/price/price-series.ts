import { DAY_MS, HOUR_MS } from '../../time/utc-day.js';
import { hashString } from '../world/random.js';

export type Currency = 'usd' | 'gbp';

/**
 * A synthetic TAO price, deterministic per seed: slow waves plus hourly noise, in USD, and GBP through a
 * slowly moving exchange rate. Not market data; it only has the shape of CoinGecko's answers.
 */
export function taoPrice(seed: string, currency: Currency, ms: number): number {
  const phase = (hashString(`${seed}/price`) % 1000) / 1000;
  const days = ms / DAY_MS;
  const hour = Math.floor(ms / HOUR_MS);
  const noise = ((hashString(`${seed}/price/${hour}`) % 2001) - 1000) / 1000;
  const usd =
    380 *
    (1 +
      0.22 * Math.sin(2 * Math.PI * (days / 41 + phase)) +
      0.08 * Math.sin(2 * Math.PI * (days / 9.5 + 2 * phase)) +
      0.012 * noise);
  const value = currency === 'usd' ? usd : usd * (0.79 + 0.02 * Math.sin(2 * Math.PI * (days / 60 + phase)));
  return Math.round(value * 1e4) / 1e4;
}

/**
 * Points of `/market_chart/range` with CoinGecko's automatic granularity: 5-minutely within one day,
 * hourly up to 90 days, daily (00:00 UTC) beyond.
 */
export function priceSeries(
  seed: string,
  currency: Currency,
  fromMs: number,
  toMs: number,
): Array<[number, number]> {
  const span = toMs - fromMs;
  const step = span <= DAY_MS ? 300_000 : span <= 90 * DAY_MS ? HOUR_MS : DAY_MS;
  const points: Array<[number, number]> = [];
  for (let t = Math.ceil(fromMs / step) * step; t <= toMs; t += step)
    points.push([t, taoPrice(seed, currency, t)]);
  return points;
}

/**
 * The synthetic daily-moving price of another token the sandbox serves (`tether`, `usd-coin`, `bitcoin`,
 * `ethereum`), deterministic per seed: a stablecoin near one dollar, BTC and ETH near round levels with slow
 * waves, in GBP through the same moving exchange rate as TAO's. Not market data.
 */
export const SANDBOX_TOKENS: Readonly<Record<string, number>> = {
  tether: 1,
  'usd-coin': 1,
  bitcoin: 95_000,
  ethereum: 3_400,
};

export function tokenPrice(seed: string, coin: string, currency: Currency, ms: number): number {
  const level = SANDBOX_TOKENS[coin];
  if (level === undefined) throw new Error(`no sandbox price for ${coin}`);
  const phase = (hashString(`${seed}/${coin}`) % 1000) / 1000;
  const taoPhase = (hashString(`${seed}/price`) % 1000) / 1000;
  const days = ms / DAY_MS;
  const swing = level === 1 ? 0.002 : 0.15;
  const usd = level * (1 + swing * Math.sin(2 * Math.PI * (days / 37 + phase)));
  const value =
    currency === 'usd' ? usd : usd * (0.79 + 0.02 * Math.sin(2 * Math.PI * (days / 60 + taoPhase)));
  return Math.round(value * 1e6) / 1e6;
}

/** `priceSeries` for another token. */
export function tokenSeries(
  seed: string,
  coin: string,
  currency: Currency,
  fromMs: number,
  toMs: number,
): Array<[number, number]> {
  const span = toMs - fromMs;
  const step = span <= DAY_MS ? 300_000 : span <= 90 * DAY_MS ? HOUR_MS : DAY_MS;
  const points: Array<[number, number]> = [];
  for (let t = Math.ceil(fromMs / step) * step; t <= toMs; t += step)
    points.push([t, tokenPrice(seed, coin, currency, t)]);
  return points;
}
