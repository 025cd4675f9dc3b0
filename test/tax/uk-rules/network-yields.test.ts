/** The network yield's arithmetic on hand-made pools, each expectation worked out by hand. */
import { describe, expect, it } from 'vitest';
import { safeFloatFromU64F64 } from '../../../pipeline/amounts/safe-float.js';
import type { SharePool } from '../../../pipeline/chain/share-pools.js';
import { TaxYields } from '../../../pipeline/contract/tax-published.js';
import {
  type NetworkYieldInputs,
  networkYields,
  type StartReserves,
  yieldWindow,
} from '../../../pipeline/tax/uk-rules/network-yields.js';

const ONE_SHARE = 1n << 64n;
const WINDOW = { from: '2026-03-01', to: '2026-03-08', days: 7 };
const AT = new Date('2026-03-09T00:30:00Z');

function pool(netuid: number, hotkey: string, alpha: bigint, shares: bigint, registeredAt = 0): SharePool {
  const totalSharesBits = shares * ONE_SHARE;
  return {
    netuid,
    registeredAt,
    hotkey,
    totalAlphaRao: alpha,
    totalShares: safeFloatFromU64F64(totalSharesBits),
    totalSharesBits,
  };
}

function reserves(
  netuid: number,
  tao: bigint | null,
  alphaIn: bigint | null,
  registeredAt = 0,
): StartReserves {
  return { netuid, registeredAt, subnetTaoRao: tao, subnetAlphaInRao: alphaIn };
}

function yields(partial: Partial<NetworkYieldInputs>) {
  const result = networkYields({
    window: WINDOW,
    start: [],
    end: [],
    startReserves: [],
    computedAt: AT,
    ...partial,
  });
  TaxYields.parse(result);
  return result;
}

const annual = (growth: number, days = 7) => (growth * 365) / days;

describe('networkYields', () => {
  it('a pool whose share price doubles over 7 days yields 100% ÷ 7 × 365', () => {
    const result = yields({
      start: [pool(1, 'h1', 100n, 100n)],
      end: [pool(1, 'h1', 200n, 100n)],
      startReserves: [reserves(1, 50n, 100n)],
    });
    expect(result.subnets).toHaveLength(1);
    expect(result.subnets[0]).toEqual({
      netuid: 1,
      registered_at: 0,
      yield: annual(1),
      window: WINDOW,
      stake_rao: '100',
      stake_tao_rao: '50',
      source: 'chain:share-price:2026-03-01..2026-03-08',
    });
    expect(result.window).toEqual(WINDOW);
    expect(result.source).toBe('chain:share-price:2026-03-01..2026-03-08');
    expect(result.computed_at).toBe(AT.toISOString());
  });

  it('counts the growth of the start shares, not new stake: shares issued later do not add to it', () => {
    // Price 1 → 2; someone staked 100 alpha at price 2 (50 new shares): 300 alpha, 150 shares.
    const result = yields({
      start: [pool(1, 'h1', 100n, 100n)],
      end: [pool(1, 'h1', 300n, 150n)],
      startReserves: [reserves(1, 1n, 1n)],
    });
    expect(result.subnets[0]!.yield).toBe(annual(1));
  });

  it('reads a V2 (SafeFloat) denominator, and compares a V1 start with a V2 end', () => {
    // 150 shares as SafeFloat 1.5 × 10^2 (mantissa normalised to 21 digits): h1 starts in V1 at 150 alpha,
    // ends in V2 at 180 alpha (+20 %); h2 is V2 at both ends, 0.5 shares (5 × 10^-1) worth 50 → 75 alpha (+50 %).
    const v2 = (hotkey: string, alpha: bigint, mantissa: bigint, exponent: bigint): SharePool => ({
      netuid: 1,
      registeredAt: 0,
      hotkey,
      totalAlphaRao: alpha,
      totalShares: { mantissa, exponent },
      totalSharesBits: null,
    });
    const result = yields({
      start: [pool(1, 'h1', 150n, 150n), v2('h2', 50n, 500_000_000_000_000_000_000n, -21n)],
      end: [
        v2('h1', 180n, 150_000_000_000_000_000_000n, -18n),
        v2('h2', 75n, 500_000_000_000_000_000_000n, -21n),
      ],
      startReserves: [reserves(1, 1n, 1n)],
    });
    // (30 + 25) ÷ (150 + 50) = 27.5 %.
    expect(result.subnets[0]!.yield).toBe((55 * 365) / (200 * 7));
    expect(result.subnets[0]!.stake_rao).toBe('200');
  });

  it('weights pools by their alpha at the start', () => {
    // h1: 100 alpha doubles (+100); h2: 300 alpha, no growth. 100 / 400 = 25 %.
    const result = yields({
      start: [pool(1, 'h1', 100n, 100n), pool(1, 'h2', 300n, 300n)],
      end: [pool(1, 'h1', 200n, 100n), pool(1, 'h2', 300n, 300n)],
      startReserves: [reserves(1, 1n, 1n)],
    });
    expect(result.subnets[0]!.yield).toBeCloseTo(annual(0.25), 12);
    expect(result.subnets[0]!.stake_rao).toBe('400');
  });

  it('leaves out a pool absent at either end, or without shares', () => {
    const base = {
      start: [pool(1, 'h1', 100n, 100n), pool(1, 'gone', 1_000n, 1_000n), pool(1, 'empty', 500n, 0n)],
      end: [pool(1, 'h1', 150n, 100n), pool(1, 'new', 9_000n, 10n), pool(1, 'empty', 900n, 0n)],
      startReserves: [reserves(1, 1n, 1n)],
    };
    const result = yields(base);
    expect(result.subnets[0]!.yield).toBeCloseTo(annual(0.5), 12);
    expect(result.subnets[0]!.stake_rao).toBe('100');
  });

  it('computes root in TAO and keeps it out of the alpha figure', () => {
    const result = yields({
      start: [pool(0, 'r1', 1_000n, 1_000n), pool(1, 'h1', 100n, 100n)],
      end: [pool(0, 'r1', 1_010n, 1_000n), pool(1, 'h1', 110n, 100n)],
      startReserves: [reserves(0, 7n, 7n), reserves(1, 3n, 1n)],
    });
    expect(result.root).toEqual({ yield: annual(0.01), stake_rao: '1000' });
    const rootRow = result.subnets.find((s) => s.netuid === 0)!;
    expect(rootRow.stake_tao_rao).toBe('1000');
    expect(result.alpha).toEqual({ yield: annual(0.1), stake_tao_rao: '300' });
  });

  it('weights subnets by their start stake valued in TAO at the start price', () => {
    // Subnet 1: 25 % on 400 alpha at 0.5 TAO (200 TAO); subnet 2: 10 % on 1,000 alpha at 2 TAO (2,000 TAO).
    const result = yields({
      start: [pool(1, 'a', 100n, 100n), pool(1, 'b', 300n, 300n), pool(2, 'c', 1_000n, 1_000n)],
      end: [pool(1, 'a', 200n, 100n), pool(1, 'b', 300n, 300n), pool(2, 'c', 1_100n, 1_000n)],
      startReserves: [reserves(1, 1n, 2n), reserves(2, 2n, 1n)],
    });
    expect(result.subnets.map((s) => s.stake_tao_rao)).toEqual(['200', '2000']);
    expect(result.alpha.stake_tao_rao).toBe('2200');
    expect(result.alpha.yield).toBeCloseTo(annual((0.25 * 200 + 0.1 * 2_000) / 2_200), 12);
    expect(result.root).toEqual({ yield: null, stake_rao: '0' });
  });

  it('leaves a subnet without a start price out of the alpha figure', () => {
    const result = yields({
      start: [pool(1, 'a', 100n, 100n), pool(2, 'b', 100n, 100n)],
      end: [pool(1, 'a', 110n, 100n), pool(2, 'b', 500n, 100n)],
      startReserves: [reserves(1, 1n, 1n), reserves(2, null, null)],
    });
    expect(result.subnets.map((s) => [s.netuid, s.stake_tao_rao])).toEqual([
      [1, '100'],
      [2, '0'],
    ]);
    expect(result.subnets[1]!.yield).toBeCloseTo(annual(4), 12);
    expect(result.alpha.yield).toBeCloseTo(annual(0.1), 12);
  });

  it('does not compare pools across a re-registration of the netuid', () => {
    const result = yields({
      start: [pool(5, 'h', 100n, 100n, 10)],
      end: [pool(5, 'h', 400n, 100n, 900)],
      startReserves: [reserves(5, 1n, 1n, 10)],
    });
    expect(result.subnets).toEqual([
      expect.objectContaining({ netuid: 5, registered_at: 900, yield: null, stake_rao: '0' }),
    ]);
    expect(result.alpha.yield).toBeNull();
  });

  it('is exact with pools above 2^64 RAO and a growth a double cannot see', () => {
    // 2^70 RAO growing by 3 RAO: the share price changes by 3 / 2^70 ≈ 2.5e-21 of itself.
    const big = 1n << 70n;
    const shares = (1n << 58n) + 12_345n; // shares ≠ alpha: a price that is not 1
    const result = yields({
      start: [pool(1, 'h', big, shares), pool(1, 'k', big * 3n, shares * 3n)],
      end: [pool(1, 'h', big + 3n, shares), pool(1, 'k', big * 3n, shares * 3n)],
      startReserves: [reserves(1, 1n, 1n)],
    });
    const expected = (3 / (4 * 2 ** 70) / 7) * 365;
    expect(result.subnets[0]!.yield).not.toBe(0);
    expect(Math.abs(result.subnets[0]!.yield! / expected - 1)).toBeLessThan(1e-12);
    expect(result.subnets[0]!.stake_rao).toBe((big * 4n).toString());
  });

  it('chains the days: a hotkey swap inside the window (the stake re-issued on a new hotkey) keeps the days around it', () => {
    // Day 1 → 2: the old hotkey's pool +10 %. Day 2 → 3: the swap, no pool on both days. Day 3 → 4: the new
    // hotkey's pool (its shares issued anew at the swap) +10 %. Growth 1.1 × 1.1 − 1 = 21 % over the 2 days
    // that had a factor.
    const result = yields({
      window: { from: '2026-03-01', to: '2026-03-04', days: 3 },
      start: [pool(1, 'old', 100n, 100n)],
      between: [
        { date: '2026-03-02', pools: [pool(1, 'old', 110n, 100n)] },
        { date: '2026-03-03', pools: [pool(1, 'new', 200n, 200n)] },
      ],
      end: [pool(1, 'new', 220n, 200n)],
      startReserves: [reserves(1, 1n, 1n)],
    });
    expect(result.subnets[0]!.yield).toBe((21 * 365) / (100 * 2));
    // Its start stake (the pools that go on to the next day) weights the alpha figure.
    expect(result.subnets[0]!.stake_rao).toBe('100');
    expect(result.alpha.yield).toBe(result.subnets[0]!.yield);
  });

  it('has null yields over a window of 0 days', () => {
    const result = yields({
      window: { from: '2026-03-08', to: '2026-03-08', days: 0 },
      start: [pool(0, 'r', 100n, 100n), pool(1, 'h', 100n, 100n)],
      end: [pool(0, 'r', 100n, 100n), pool(1, 'h', 100n, 100n)],
      startReserves: [reserves(1, 1n, 1n)],
    });
    expect(result.root.yield).toBeNull();
    expect(result.alpha.yield).toBeNull();
    expect(result.subnets.every((s) => s.yield === null)).toBe(true);
    expect(result.root.stake_rao).toBe('100');
  });
});

describe('yieldWindow', () => {
  const day = (n: number) => `2026-03-${String(n).padStart(2, '0')}`;
  it('spans the last 7 days of the days read', () => {
    const days = Array.from({ length: 12 }, (_, i) => day(i + 1));
    expect(yieldWindow(days)).toEqual({ from: day(5), to: day(12), days: 7 });
  });
  it('starts at the first day read when fewer are there, or at the first one inside a gap', () => {
    expect(yieldWindow([day(3), day(1), day(2)])).toEqual({ from: day(1), to: day(3), days: 2 });
    expect(yieldWindow([day(1), day(6), day(12)])).toEqual({ from: day(6), to: day(12), days: 6 });
    expect(yieldWindow([day(4)])).toEqual({ from: day(4), to: day(4), days: 0 });
    expect(yieldWindow([])).toBeNull();
  });
});
