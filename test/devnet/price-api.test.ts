/** The CoinGecko-style price API over real HTTP: documented shape, granularity, determinism, errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDevnetOptions, type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';

const NOW = Date.parse('2025-06-10T12:34:00Z');
let devnet: RunningDevnet;

beforeAll(async () => {
  devnet = await startDevnet({
    ...defaultDevnetOptions,
    seed: 'price-test',
    historyDays: 1,
    now: () => NOW,
    port: 0,
    pricePort: 0,
  });
});

afterAll(async () => {
  await devnet?.stop();
});

async function range(currency: string, from: number, to: number) {
  const url = `${devnet.priceUrl}/coins/bittensor/market_chart/range?vs_currency=${currency}&from=${from}&to=${to}`;
  return fetch(url);
}

describe('market_chart/range', () => {
  it('answers hourly [ms, price] points for a 30-day range, in USD and GBP', async () => {
    const to = Math.floor(NOW / 1000);
    const from = to - 30 * 86_400;
    const usd = (await (await range('usd', from, to)).json()) as { prices: Array<[number, number]> };
    const gbp = (await (await range('gbp', from, to)).json()) as { prices: Array<[number, number]> };
    expect(usd.prices.length).toBe(720);
    expect(usd.prices[1]![0] - usd.prices[0]![0]).toBe(3_600_000);
    expect(usd.prices.every(([t, p]) => t >= from * 1000 && t <= to * 1000 && p > 0)).toBe(true);
    expect(gbp.prices.map(([t]) => t)).toEqual(usd.prices.map(([t]) => t));
    expect(gbp.prices[0]![1]).toBeLessThan(usd.prices[0]![1]);
    // Deterministic: the same question, the same answer.
    expect(await (await range('usd', from, to)).json()).toEqual(usd);
  });

  it('uses 5-minute points within a day and daily points beyond 90 days, never after now', async () => {
    const to = Math.floor(NOW / 1000);
    const day = (await (await range('usd', to - 86_400, to)).json()) as { prices: Array<[number, number]> };
    expect(day.prices[1]![0] - day.prices[0]![0]).toBe(300_000);
    const year = (await (await range('usd', to - 365 * 86_400, to + 10 * 86_400)).json()) as {
      prices: Array<[number, number]>;
    };
    expect(year.prices[1]![0] - year.prices[0]![0]).toBe(86_400_000);
    expect(year.prices.at(-1)![0]).toBeLessThanOrEqual(NOW);
  });

  it("answers the other tokens' ranges (tether, usd-coin, bitcoin, ethereum) in the same shape, offline", async () => {
    const to = Math.floor(NOW / 1000);
    const from = to - 3 * 86_400;
    const chart = async (coin: string, currency: string) => {
      const url = `${devnet.priceUrl}/coins/${coin}/market_chart/range?vs_currency=${currency}&from=${from}&to=${to}`;
      const answer = await fetch(url);
      expect(answer.status, coin).toBe(200);
      return ((await answer.json()) as { prices: Array<[number, number]> }).prices;
    };
    const tether = await chart('tether', 'gbp');
    expect(tether.length).toBe(72);
    // A stablecoin: a dollar's worth of pounds, whatever TAO does.
    for (const [, p] of tether) expect(p).toBeGreaterThan(0.7);
    for (const [, p] of tether) expect(p).toBeLessThan(0.85);
    expect((await chart('usd-coin', 'usd')).every(([, p]) => Math.abs(p - 1) < 0.01)).toBe(true);
    expect((await chart('bitcoin', 'usd'))[0]![1]).toBeGreaterThan(50_000);
    expect((await chart('ethereum', 'gbp'))[0]![1]).toBeGreaterThan(1_000);
  });

  it('rejects an unknown currency or a missing range with 400', async () => {
    expect((await range('eur', 1, 2)).status).toBe(400);
    expect(
      (await fetch(`${devnet.priceUrl}/coins/bittensor/market_chart/range?vs_currency=usd`)).status,
    ).toBe(400);
    expect((await fetch(`${devnet.priceUrl}/coins/dogecoin/market_chart/range`)).status).toBe(404);
  });

  it('answers simple/price for the current USD and GBP price', async () => {
    const body = (await (
      await fetch(`${devnet.priceUrl}/simple/price?ids=bittensor&vs_currencies=usd,gbp`)
    ).json()) as {
      bittensor: { usd: number; gbp: number };
    };
    expect(body.bittensor.usd).toBeGreaterThan(0);
    expect(body.bittensor.gbp).toBeGreaterThan(0);
  });
});
