/**
 * The build time the order page and `orders show` estimate, held to the builds measured by the pack bench
 * (docs/benchmarks.md, "Packs of 10, 50 and 200 positions", full-year 2025/26 packs at 20 ms a read on the
 * shared two-core machine), each with the size its worker recorded: every one within 2x of its estimate.
 */
import { describe, expect, it } from 'vitest';
import { estimatedBuildSeconds, isBigPack } from '../../../gateway/orders/build-progress.js';

/** Each pack's size as its build recorded it (positions, the record's days, the chain blocks read) and its time. */
const MEASURED = [
  { coldkey: 'demo', positions: 18, days: 369, blocks: 1654, seconds: 8.4 },
  { coldkey: 'validator', positions: 49, days: 369, blocks: 373, seconds: 4.8 },
  { coldkey: 'staker in 100 subnets', positions: 200, days: 369, blocks: 1106, seconds: 17.3 },
  {
    coldkey: 'staker in 100 subnets, bought and fulfilled',
    positions: 200,
    days: 372,
    blocks: 1106,
    seconds: 19,
  },
];

const progress = (positions: number, days: number, blocks: number) => ({
  phase: 'reading-chain' as const,
  positions,
  days,
  blocksRead: 0,
  blocks,
  startedAt: '2026-11-29T00:00:00Z',
  updatedAt: '2026-11-29T00:00:00Z',
});

describe('the estimated build time', () => {
  for (const build of MEASURED) {
    it(`is within 2x of the ${build.coldkey}'s measured ${build.seconds} s, and not under it`, () => {
      const estimate = estimatedBuildSeconds(build);
      expect(estimate / build.seconds).toBeGreaterThanOrEqual(1);
      expect(estimate / build.seconds).toBeLessThanOrEqual(2);
    });
  }

  it('counts a build whose blocks are not yet counted at the most blocks a day measured', () => {
    const demo = MEASURED[0]!;
    expect(estimatedBuildSeconds({ ...demo, blocks: 0 })).toBeGreaterThanOrEqual(estimatedBuildSeconds(demo));
  });

  it('calls none of those packs big: each is within the "minute or two" the page says', () => {
    for (const build of MEASURED)
      expect(isBigPack(progress(build.positions, build.days, build.blocks))).toBe(false);
    // Several big coldkeys in one order, 2,000 positions over a year and its eve: past two minutes.
    expect(isBigPack(progress(2000, 396, 1800))).toBe(true);
  });
});
