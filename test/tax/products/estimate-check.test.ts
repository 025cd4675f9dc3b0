/**
 * The check's arithmetic on hand-made inputs whose figures are worked out here by hand: valuation at
 * pool price, value-weighted yields with their fallbacks and sources, the tax-year fraction (also
 * across the 6 April boundary in London time), the rounding of the rendered JSON, and what makes an
 * estimate impossible.
 */
import { describe, expect, it } from 'vitest';
import type { ColdkeyShard, TaxFiatPrices, TaxYields } from '../../../pipeline/contract/tax-published.js';
import { countTaxYearEvents } from '../../../pipeline/tax/chain-record/tax-year-events.js';
import {
  type CheckHoldings,
  type CheckInputs,
  EstimateUnavailableError,
  estimateCheck,
  renderCheck,
} from '../../../pipeline/tax/products/estimate-check.js';
import { latestTaoPrices } from '../../../pipeline/tax/uk-rules/latest-tao-price.js';
import { ukTaxYear, ukTaxYearOf } from '../../../pipeline/time/uk-tax-year.js';

const TAO = 1_000_000_000n;
const COLDKEY = '5CDvHBym6RLoxTdX9MS1acpaDbNxaFagqM5LpBiFGjWT6o1n';
const HOTKEY = '5C4hrfjw9DjXZTzV3MwzrrAr9P1MJhSrvWGWqi1eSuyUpnhM';
const DAY = 86_400_000;
/** 2025/26 runs 365 days from 2025-04-05T23:00Z; 73 days in is exactly a fifth of it. */
const FIFTH_OF_2025_26 = Date.parse('2025-04-05T23:00:00Z') + 73 * DAY;

const window = { from: '2025-06-10', to: '2025-06-17', days: 7 };
const source = 'chain:share-price:2025-06-10..2025-06-17';

function yields(overrides: Partial<TaxYields> = {}): TaxYields {
  return {
    computed_at: '2025-06-18T01:00:00.000Z',
    window,
    source,
    root: { yield: 0.05, stake_rao: '1000' },
    alpha: { yield: 0.2, stake_tao_rao: '1000' },
    subnets: [
      { netuid: 3, registered_at: 10, yield: 0.3, window, stake_rao: '1', stake_tao_rao: '1', source },
      { netuid: 5, registered_at: 20, yield: null, window, stake_rao: '1', stake_tao_rao: '1', source },
      { netuid: 7, registered_at: 30, yield: 0.9, window, stake_rao: '1', stake_tao_rao: '1', source },
    ],
    ...overrides,
  };
}

const prices = { gbp: { value: '300.5', date: '2025-06-17' }, usd: { value: '401.25', date: '2025-06-17' } };

/** 100 TAO on root; 50 alpha on netuid 3 at price 2 (100 TAO); 10 alpha on netuid 5 at 0.25 (2.5 TAO). */
const holdings: CheckHoldings = {
  positions: [
    { hotkey: HOTKEY, netuid: 0, stakeRao: 100n * TAO },
    { hotkey: HOTKEY, netuid: 3, stakeRao: 30n * TAO },
    { hotkey: COLDKEY, netuid: 3, stakeRao: 20n * TAO },
    { hotkey: HOTKEY, netuid: 5, stakeRao: 10n * TAO },
  ],
  freeRao: 1_234_567_891n,
  pools: new Map([
    [3, { netuid: 3, registeredAt: 10, taoRao: 2_000n * TAO, alphaInRao: 1_000n * TAO }],
    [5, { netuid: 5, registeredAt: 20, taoRao: 100n * TAO, alphaInRao: 400n * TAO }],
  ]),
};

function inputs(overrides: Partial<CheckInputs> = {}): CheckInputs {
  return {
    coldkey: COLDKEY,
    holdings,
    yields: yields(),
    prices,
    events: 4,
    coldkeyEvents: [],
    nowMs: FIFTH_OF_2025_26,
    recordFirstDay: '2025-03-01',
    ...overrides,
  };
}

describe('estimateCheck', () => {
  it('values, weights, blends and projects as the method says', () => {
    const body = JSON.parse(renderCheck(estimateCheck(inputs())));
    // yield_alpha = (100 × 0.3 + 2.5 × 0.2) / 102.5 = 0.29756097560975609756…;
    // yield = (100 × 0.05 + 30.5) / 202.5 = 0.17530864197530864197…;
    // income = 202.5 × yield × 0.2 = 35.5 × 0.2 = 7.1 TAO; at £300.5: £2,133.55.
    expect(body).toEqual({
      state: 'ok',
      coldkey: COLDKEY,
      staked_tao: 202.5,
      root_tao: 100,
      alpha_as_tao: 102.5,
      free_tao: 1.234567891,
      events: 4,
      tax_year: '2025/26',
      yield: 0.175308641975309,
      yield_root: 0.05,
      yield_alpha: 0.297560975609756,
      yield_source: source,
      alpha_yield_source: `${source}+all-subnets`,
      tao_gbp: 300.5,
      tao_gbp_at: '2025-06-17T00:00:00Z',
      tao_usd: 401.25,
      income_tao: 7.1,
      income_gbp: 2133.55,
      income_basis: 'current_price_estimate',
      income_window: { from: '2025-04-06', to: '2025-06-18' },
      yield_window: { from: '2025-06-10', to: '2025-06-17' },
      tax40: 853.42,
      tax42: 896.091,
      tax45: 960.0975,
      tax48: 1024.104,
      staked_gbp: 60851.25,
      mechanisms: [],
      mechanism_window: { from: '2025-03-01', to: '2025-06-18' },
    });
  });

  it('extrapolates from the end of the record’s first day when the record starts after 6 April', () => {
    // The record starts on 17 May 2025 (London, BST): its end, 23:00Z, opens the window, as it opens the
    // pack's record. 73 days into the year less the 41 days up to then: 32 days of 365.
    const body = JSON.parse(renderCheck(estimateCheck(inputs({ recordFirstDay: '2025-05-16' }))));
    expect(body.income_window).toEqual({ from: '2025-05-17', to: '2025-06-18' });
    expect(body.income_tao).toBeCloseTo((35.5 * 32) / 365, 12);
    expect(body.tax48).toBeCloseTo(((35.5 * 32) / 365) * 300.5 * 0.48, 9);
    // A record from an earlier year, or none published: the window is the whole year so far.
    for (const recordFirstDay of ['2024-01-01', null]) {
      const whole = JSON.parse(renderCheck(estimateCheck(inputs({ recordFirstDay }))));
      expect(whole.income_window.from).toBe('2025-04-06');
      expect(whole.income_tao).toBe(7.1);
    }
  });

  it('renders chain amounts exactly to the RAO and computed figures to 15 significant digits', () => {
    const big = {
      ...holdings,
      positions: [{ hotkey: HOTKEY, netuid: 0, stakeRao: 123_456_789_123_456_789n }],
    };
    const text = renderCheck(estimateCheck(inputs({ holdings: big })));
    // 18 significant digits of stake survive in the bytes (a double would keep about 16).
    expect(text).toContain('"root_tao":123456789.123456789,');
    // 123456789.123456789 × 0.05 × 0.2 = 1234567.89123456789 → 15 digits, half to even.
    expect(text).toContain('"income_tao":1234567.89123457,');
  });

  it('takes the all-subnet alpha yield for a held netuid now registered to a later subnet', () => {
    const reused = new Map(holdings.pools);
    reused.set(3, { ...reused.get(3)!, registeredAt: 11 });
    const body = JSON.parse(renderCheck(estimateCheck(inputs({ holdings: { ...holdings, pools: reused } }))));
    // Both held subnets fall back: (100 × 0.2 + 2.5 × 0.2) / 102.5.
    expect(body.yield_alpha).toBe(0.2);
    expect(body.alpha_yield_source).toBe(`${source}+all-subnets`);
  });

  it('names only the subnets’ source when every held subnet has its own yield', () => {
    const only3 = { ...holdings, positions: holdings.positions.filter((p) => p.netuid !== 5) };
    const body = JSON.parse(renderCheck(estimateCheck(inputs({ holdings: only3 }))));
    expect(body.yield_alpha).toBe(0.3);
    expect(body.alpha_yield_source).toBe(source);
  });

  it('uses the network figures for a coldkey that holds nothing, and says it is empty', () => {
    const none: CheckHoldings = { positions: [], freeRao: 0n, pools: new Map() };
    const body = JSON.parse(renderCheck(estimateCheck(inputs({ holdings: none, events: 0 }))));
    expect(body).toMatchObject({
      state: 'empty',
      staked_tao: 0,
      root_tao: 0,
      alpha_as_tao: 0,
      free_tao: 0,
      yield: 0.05,
      yield_root: 0.05,
      yield_alpha: 0.2,
      alpha_yield_source: `${source}:all-subnets`,
      income_tao: 0,
      income_gbp: 0,
      tax40: 0,
      tax42: 0,
      tax45: 0,
      tax48: 0,
      staked_gbp: 0,
    });
    const freeOnly = JSON.parse(renderCheck(estimateCheck(inputs({ holdings: { ...none, freeRao: 1n } }))));
    expect(freeOnly.state).toBe('ok');
  });

  it('values alpha in a subnet without a pool at 0', () => {
    const noPool = new Map(holdings.pools);
    noPool.set(5, { netuid: 5, registeredAt: 20, taoRao: null, alphaInRao: null });
    const body = JSON.parse(renderCheck(estimateCheck(inputs({ holdings: { ...holdings, pools: noPool } }))));
    expect(body.alpha_as_tao).toBe(100);
    expect(body.yield_alpha).toBe(0.3);
  });

  it('places 5 April 23:30 and 6 April 00:30 (London, BST) in different tax years', () => {
    const before = Date.parse('2026-04-05T22:30:00Z');
    const after = Date.parse('2026-04-05T23:30:00Z');
    const start = Date.parse('2025-04-05T23:00:00Z');
    const end = Date.parse('2026-04-05T23:00:00Z');
    const late = JSON.parse(renderCheck(estimateCheck(inputs({ nowMs: before }))));
    const early = JSON.parse(renderCheck(estimateCheck(inputs({ nowMs: after }))));
    expect(late.tax_year).toBe('2025/26');
    expect(early.tax_year).toBe('2026/27');
    // 35.5 TAO a year of value-weighted yield, times the fraction elapsed.
    expect(late.income_tao).toBeCloseTo((35.5 * (before - start)) / (end - start), 12);
    const nextEnd = Date.parse('2027-04-05T23:00:00Z');
    expect(early.income_tao).toBeCloseTo((35.5 * (after - end)) / (nextEnd - end), 12);
    expect(early.income_tao).toBeLessThan(0.01);
  });

  it('refuses when the network yields or the prices are not published', () => {
    expect(() =>
      estimateCheck(inputs({ yields: yields({ root: { yield: null, stake_rao: '0' } }) })),
    ).toThrow(EstimateUnavailableError);
    expect(() =>
      estimateCheck(inputs({ yields: yields({ alpha: { yield: null, stake_tao_rao: '0' } }) })),
    ).toThrow(EstimateUnavailableError);
    expect(() => estimateCheck(inputs({ prices: { gbp: null, usd: prices.usd } }))).toThrow(
      /No TAO price has been published/,
    );
  });
});

describe('latestTaoPrices', () => {
  it('takes each currency from the newest day that has it', () => {
    const published: TaxFiatPrices = {
      days: [
        { date: '2025-06-15', usd: '400', gbp: '300', source: 'coingecko' },
        { date: '2025-06-16', usd: '410', gbp: null, source: 'coingecko' },
        { date: '2025-06-17', usd: null, gbp: null, source: 'coingecko' },
      ],
    };
    expect(latestTaoPrices(published)).toEqual({
      gbp: { value: '300', date: '2025-06-15' },
      usd: { value: '410', date: '2025-06-16' },
    });
    expect(latestTaoPrices({ days: [] })).toEqual({ gbp: null, usd: null });
  });
});

describe('countTaxYearEvents', () => {
  it('counts the coldkey’s events from 6 April 00:00 London time, both roles', () => {
    const event = (time: string, role: 'origin' | 'destination') => ({
      block: Date.parse(time) / 1000,
      event_index: 0,
      time,
      kind: 'StakeAdded' as const,
      role,
      hotkey: HOTKEY,
      netuid: 1,
      tao_rao: '1',
      alpha_rao: '1',
      fee_rao: null,
      counterpart_coldkey: null,
      counterpart_hotkey: null,
      counterpart_netuid: null,
    });
    const shard: ColdkeyShard = {
      shard: 'ab',
      coldkeys: {
        [COLDKEY]: [
          event('2026-04-05T22:59:59.000Z', 'origin'),
          event('2026-04-05T23:00:00.000Z', 'origin'),
          event('2026-06-01T10:00:00.000Z', 'destination'),
          event('2027-04-05T23:00:00.000Z', 'origin'),
        ],
        [HOTKEY]: [event('2026-06-01T10:00:00.000Z', 'origin')],
      },
    };
    expect(countTaxYearEvents(shard, COLDKEY, ukTaxYear(2026))).toBe(2);
    expect(countTaxYearEvents(shard, COLDKEY, ukTaxYear(2025))).toBe(1);
    expect(countTaxYearEvents(shard, COLDKEY, ukTaxYearOf(Date.parse('2026-04-05T23:30:00Z')))).toBe(2);
    expect(countTaxYearEvents(null, COLDKEY, ukTaxYear(2026))).toBe(0);
  });

  it('counts a current-runtime stake once (not its transfer to the subnet account), income events not at all', () => {
    const base = {
      block: 7,
      time: '2026-06-01T10:00:00.000Z',
      role: 'origin' as const,
      hotkey: HOTKEY,
      netuid: 1,
      tao_rao: '1',
      alpha_rao: '1',
      fee_rao: null,
      counterpart_coldkey: null,
      counterpart_hotkey: null,
      counterpart_netuid: null,
    };
    const shard: ColdkeyShard = {
      shard: 'ab',
      coldkeys: {
        [COLDKEY]: [
          // A stake: its TAO transfer to the subnet account and its StakeAdded, one extrinsic.
          { ...base, event_index: 3, extrinsic_index: 2, kind: 'Transfer' as const, to_subnet: 1 },
          { ...base, event_index: 4, extrinsic_index: 2, kind: 'StakeAdded' as const },
          { ...base, event_index: 1, extrinsic_index: null, kind: 'AutoStakeAdded' as const },
        ],
      },
    };
    expect(countTaxYearEvents(shard, COLDKEY, ukTaxYear(2026))).toBe(1);
  });
});
