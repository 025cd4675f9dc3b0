/**
 * The other tokens whose daily prices are kept beside TAO's (`token_fx_daily`): the assets a buyer's exchange
 * records trade TAO against (USDT, USDC, BTC, ETH), each a token with its own pool in the tax pack, valued at
 * its daily GBP rate where an export gives no pounds. Fetched from the same CoinGecko-compatible API as TAO's
 * (`sbm prices fetch`), by the coin ids CoinGecko gives them, and published in `tax/fiat-prices.json` under
 * `assets`.
 */

import { insertRows } from '../warehouse/insert-rows.js';
import type { Warehouse } from '../warehouse/open-warehouse.js';
import type { Currency } from './fiat-prices.js';

export const PRICED_TOKENS: ReadonlyArray<{ asset: string; coin: string }> = [
  { asset: 'USDT', coin: 'tether' },
  { asset: 'USDC', coin: 'usd-coin' },
  { asset: 'BTC', coin: 'bitcoin' },
  { asset: 'ETH', coin: 'ethereum' },
];

export interface TokenFxRow {
  day: string;
  asset: string;
  currency: Currency;
  /** Decimal text with at most 8 decimals: kept exact into DECIMAL(20,8). */
  price: string;
  source: string;
}

export async function upsertTokenFx(warehouse: Warehouse, rows: readonly TokenFxRow[]): Promise<number> {
  await insertRows(
    warehouse,
    'INSERT OR REPLACE INTO',
    'token_fx_daily',
    ['day', 'asset', 'currency', 'price', 'source'],
    rows.map((row) => [row.day, row.asset, row.currency, row.price, row.source]),
  );
  return rows.length;
}
