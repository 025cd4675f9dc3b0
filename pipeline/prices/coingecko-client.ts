/**
 * Reads a coin's price history (TAO's: `bittensor`; the tokens of `token-prices.ts` by their CoinGecko ids)
 * from a CoinGecko-compatible API:
 * `GET {base}/coins/<id>/market_chart/range?vs_currency=usd&from=<unix s>&to=<unix s>` answering
 * `{"prices": [[ms, price], ...]}`. Transient failures (network, 429, 5xx) are retried with backoff.
 */
import { type Currency, PriceFeedError } from './fiat-prices.js';

export interface PriceApiOptions {
  /** API base including its version path, e.g. `https://api.coingecko.com/api/v3`. */
  priceUrl: string;
  fetch?: typeof fetch;
  attempts?: number;
  /** Extra headers (an API key header for a paid plan). */
  headers?: Record<string, string>;
}

export async function fetchPriceRange(
  options: PriceApiOptions,
  currency: Currency,
  fromMs: number,
  toMs: number,
  coin = 'bittensor',
): Promise<Array<[number, number]>> {
  const url = new URL(`${options.priceUrl.replace(/\/+$/, '')}/coins/${coin}/market_chart/range`);
  url.searchParams.set('vs_currency', currency);
  url.searchParams.set('from', String(Math.floor(fromMs / 1000)));
  url.searchParams.set('to', String(Math.floor(toMs / 1000)));
  const doFetch = options.fetch ?? fetch;
  const attempts = options.attempts ?? 5;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** (attempt - 2)));
    let response: Response;
    try {
      response = await doFetch(url, { headers: { accept: 'application/json', ...options.headers } });
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
      continue;
    }
    if (response.status === 429 || response.status >= 500) {
      last = `HTTP ${response.status}`;
      continue;
    }
    if (!response.ok) throw new PriceFeedError(`${url.origin}${url.pathname}: HTTP ${response.status}`);
    const body = (await response.json()) as { prices?: unknown };
    if (!Array.isArray(body.prices))
      throw new PriceFeedError(`${url.pathname}: no "prices" array in the answer`);
    return body.prices.filter(
      (p): p is [number, number] => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number',
    );
  }
  throw new PriceFeedError(
    `${url.origin}${url.pathname} (${currency}) failed after ${attempts} attempts: ${last}`,
  );
}
