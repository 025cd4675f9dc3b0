/**
 * The other tokens whose daily prices are kept beside TAO's (`token_fx_daily`): the assets a buyer's exchange
 * records trade TAO against (USDT, USDC, BTC, ETH), each a token with its own pool in the tax pack, valued at
 * its daily GBP rate where an export gives no pounds. Fetched from the same CoinGecko-compatible API as TAO's
 * (`sbm prices fetch`), by the coin ids CoinGecko gives them, and published in `tax/fiat-prices.json` under
 * `assets`.
 */
import type { Warehouse } from '../warehouse/open-warehouse.js';
import { upsertRows } from '../warehouse/upsert-rows.js';
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

export function upsertTokenFx(warehouse: Warehouse, rows: readonly TokenFxRow[]): Promise<number> {
  return upsertRows(
    warehouse,
    'token_fx_daily',
    [
      { cast: 'DATE', value: (row) => row.day },
      { value: (row) => row.asset },
      { value: (row) => row.currency },
      { cast: 'DECIMAL(20, 8)', value: (row) => row.price },
      { value: (row) => row.source },
    ],
    rows,
  );
}
