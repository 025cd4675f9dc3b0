import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDevnetOptions, type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';
import { taoPrice, tokenPrice } from '../../pipeline/devnet/price/price-series.js';
import { fetchFiatPrices, firstDayWithoutRate } from '../../pipeline/prices/fetch-fiat-prices.js';
import { PriceFeedError } from '../../pipeline/prices/fiat-prices.js';
import { eachDay } from '../../pipeline/time/utc-day.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { readTokenFiatDays } from '../../pipeline/warehouse/tax-queries.js';

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

  it("stores USDT's, USDC's, BTC's and ETH's daily quotes beside TAO's, for the tax pack's exchange rows", async () => {
    const path = join(dir, 'tokens.duckdb');
    const summary = await fetchFiatPrices({
      priceUrl: devnet.priceUrl,
      warehousePath: path,
      from: '2025-02-08',
      to: '2025-02-10',
      clock: () => new Date(NOW),
    });
    // 4 tokens × 2 currencies × 3 days.
    expect(summary.tokens.rows).toBe(24);
    expect(Object.values(summary.tokens.missing).flat()).toEqual([]);
    const wh = await openWarehouse(path);
    const rows = await wh.rows(
      `SELECT strftime(day, '%Y-%m-%d') AS day, price::VARCHAR AS price FROM token_fx_daily
        WHERE asset = 'USDT' AND currency = 'gbp' ORDER BY day`,
    );
    const published = (await readTokenFiatDays(wh)).get('USDT')?.map((d) => [d.date, d.gbp]);
    wh.close();
    const expected = ['2025-02-08', '2025-02-09', '2025-02-10'].map((day) => ({
      day,
      price: tokenPrice(SEED, 'tether', 'gbp', Date.parse(`${day}T00:00:00Z`)).toFixed(8),
    }));
    expect(rows).toEqual(expected);
    // A stablecoin in pounds: near the dollar's rate.
    for (const row of expected) expect(Number(row.price)).toBeGreaterThan(0.7);
    expect(published).toEqual(expected.map((r) => [r.day, r.price]));
  });

  it('starts at the first collected day without a rate and backfills it in ranges of at most 90 days', async () => {
    // 200 collected days; the last fetch (30 days, as before issue 26) left the first 170 without a rate.
    const path = join(dir, 'backfill.duckdb');
    const days = eachDay('2024-07-25', '2025-02-10');
    expect(days).toHaveLength(201);
    const wh = await openWarehouse(path);
    for (const day of days) {
      await wh.run(
        `INSERT INTO collected_days (day, first_block, last_block, last_block_time, complete, partial, run_id) VALUES ($day::DATE, 1, 2, TIMESTAMPTZ '2025-01-01 00:00:00+00', true, false, 'r')`,
        { day },
      );
    }
    wh.close();
    await fetchFiatPrices({
      priceUrl: devnet.priceUrl,
      warehousePath: path,
      from: '2025-01-12',
      clock: () => new Date(NOW),
    });
    const asked: { from: number; to: number }[] = [];
    const summary = await fetchFiatPrices({
      priceUrl: devnet.priceUrl,
      warehousePath: path,
      clock: () => new Date(NOW),
      fetch: (input, init) => {
        const url = new URL(String(input));
        // TAO's pieces (the other tokens are asked for in the same pieces).
        if (url.searchParams.get('vs_currency') === 'gbp' && url.pathname.includes('/coins/bittensor/')) {
          asked.push({ from: Number(url.searchParams.get('from')), to: Number(url.searchParams.get('to')) });
        }
        return fetch(input, init);
      },
    });
    expect(summary.from).toBe('2024-07-25');
    expect(summary.to).toBe('2025-02-10');
    expect(summary.missing).toEqual({ usd: [], gbp: [] });
    // Consecutive pieces covering the range, none longer than 90 days.
    expect(asked.length).toBe(3);
    expect(asked[0]!.from * 1000).toBe(Date.parse('2024-07-25T00:00:00Z'));
    for (const [i, piece] of asked.entries()) {
      expect(piece.to - piece.from).toBeLessThan(90 * 86_400);
      if (i > 0) expect(piece.from).toBe(asked[i - 1]!.to + 1);
    }
    const check = await openWarehouse(path);
    const counts = await check.rows(
      `SELECT currency, count(*)::INTEGER AS days, strftime(min(day), '%Y-%m-%d') AS first FROM fx_daily GROUP BY currency ORDER BY currency`,
    );
    expect(await firstDayWithoutRate(check)).toBeNull();
    check.close();
    expect(counts).toEqual([
      { currency: 'gbp', days: 201, first: '2024-07-25' },
      { currency: 'usd', days: 201, first: '2024-07-25' },
    ]);
  }, 180_000);

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
