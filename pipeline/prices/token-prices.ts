/**
 * The other tokens whose daily prices are kept beside TAO's (`token_fx_daily`): the assets a buyer's exchange
 * records trade TAO against (USDT, USDC, BTC, ETH), each a token with its own pool in the tax pack, valued at
 * its daily GBP rate where an export gives no pounds. Fetched from the same CoinGecko-compatible API as TAO's
 * (`sbm prices fetch`), by the coin ids CoinGecko gives them, and published in `tax/fiat-prices.json` under
 * `assets`.
 */
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
  if (rows.length === 0) return 0;
  await warehouse.transaction(async () => {
    for (const row of rows) {
      await warehouse.run(
        `INSERT OR REPLACE INTO token_fx_daily VALUES ($day::DATE, $asset, $currency, $price::DECIMAL(20, 8), $source)`,
        { day: row.day, asset: row.asset, currency: row.currency, price: row.price, source: row.source },
      );
    }
  });
  return rows.length;
}
