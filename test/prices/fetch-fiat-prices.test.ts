import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDevnetOptions, type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';
import { taoPrice } from '../../pipeline/devnet/price/price-series.js';
import { fetchFiatPrices } from '../../pipeline/prices/fetch-fiat-prices.js';
import { PriceFeedError } from '../../pipeline/prices/fiat-prices.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';

const NOW = Date.parse('2025-02-10T15:30:00Z');
const SEED = 'fx-test';
let devnet: RunningDevnet;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-fxfetch-'));
  devnet = await startDevnet({
    ...defaultDevnetOptions,
    seed: SEED,
    historyDays: 2,
    now: () => NOW,
    port: 0,
    pricePort: 0,
  });
});
afterAll(async () => {
  await devnet?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('sbm prices fetch', () => {
  it('stores the first quote of each UTC day in USD and GBP, exactly as the API served it', async () => {
    const path = join(dir, 'w.duckdb');
    const summary = await fetchFiatPrices({
      priceUrl: devnet.priceUrl,
      warehousePath: path,
      from: '2025-02-05',
      to: '2025-02-10',
      clock: () => new Date(NOW),
    });
    expect(summary.rows).toBe(12);
    expect(summary.missing).toEqual({ usd: [], gbp: [] });
    const wh = await openWarehouse(path);
    const rows = await wh.rows(
      `SELECT strftime(day, '%Y-%m-%d') AS day, currency, tao_price::VARCHAR AS price FROM fx_daily ORDER BY ALL`,
    );
    wh.close();
    const expected = ['2025-02-05', '2025-02-06', '2025-02-07', '2025-02-08', '2025-02-09', '2025-02-10']
      .flatMap((day) =>
        (['gbp', 'usd'] as const).map((currency) => ({
          day,
          currency,
          price: taoPrice(SEED, currency, Date.parse(`${day}T00:00:00Z`)).toFixed(8),
        })),
      )
      .sort((a, b) => a.day.localeCompare(b.day) || a.currency.localeCompare(b.currency));
    expect(rows).toEqual(expected);
  });

  it('reports an API that does not answer the CoinGecko shape as a typed error', async () => {
    await expect(
      fetchFiatPrices({
        priceUrl: `${devnet.priceUrl}/nowhere`,
        warehousePath: join(dir, 'x.duckdb'),
        from: '2025-02-09',
        to: '2025-02-10',
        attempts: 1,
      }),
    ).rejects.toBeInstanceOf(PriceFeedError);
  });
});
