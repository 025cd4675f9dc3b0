/**
 * The build time the order page and `orders show` estimate, held to the builds measured by the pack bench
 * (docs/benchmarks.md, "Packs of 10, 50 and 200 positions", full-year 2025/26 packs at 20 ms a read on the
 * shared two-core machine): every one within 2x of its estimate, the staker in 100 subnets' too.
 */
import { describe, expect, it } from 'vitest';
import { estimatedBuildSeconds, isBigPack } from '../../../gateway/orders/build-progress.js';

/** Each pack's positions and the days one was held on average (their product its position-days), and its time. */
const MEASURED = [
  { coldkey: 'demo', positions: 18, days: 284, seconds: 12.5 }, // 5,115 position-days
  { coldkey: 'validator', positions: 49, days: 365, seconds: 8.5 }, // 17,885
  { coldkey: 'staker in 100 subnets', positions: 200, days: 365, seconds: 42 }, // 73,000
  { coldkey: 'staker in 100 subnets, bought and fulfilled', positions: 200, days: 366, seconds: 44 }, // 73,200
];

describe('the estimated build time', () => {
  for (const build of MEASURED) {
    it(`is within 2x of the ${build.coldkey}'s measured ${build.seconds} s`, () => {
      const estimate = estimatedBuildSeconds(build.positions, build.days);
      expect(estimate / build.seconds).toBeGreaterThanOrEqual(0.5);
      expect(estimate / build.seconds).toBeLessThanOrEqual(2);
    });
  }

  it('calls none of those packs big: each is within the "minute or two" the page says', () => {
    const progress = (positions: number, days: number) => ({
      phase: 'reading-chain' as const,
      positions,
      days,
      blocksRead: 0,
      blocks: 0,
      startedAt: '2026-11-29T00:00:00Z',
      updatedAt: '2026-11-29T00:00:00Z',
    });
    for (const build of MEASURED) expect(isBigPack(progress(build.positions, build.days))).toBe(false);
    // Several big coldkeys in one order, 700 positions over a year and its eve: past two minutes.
    expect(isBigPack(progress(700, 396))).toBe(true);
  });
});
