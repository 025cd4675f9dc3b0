import { RAO_PER_UNIT } from '../../amounts/rao.js';
import type { Rng } from './random.js';

export const TWO_POW_53 = 2n ** 53n;

/**
 * A burn amount in alpha RAO: mostly log-spread from 0.0001 to ~10 million alpha, and about one in a
 * hundred above 2^53 RAO so that any code holding RAO in a JS number is caught. Integer maths only,
 * so every platform draws the same amounts.
 */
export function burnAmount(random: Rng): bigint {
  if (random.chance(0.01)) return TWO_POW_53 + random.bigint(1n, 4n * TWO_POW_53);
  const mantissa = BigInt(random.int(1, 9_999));
  return mantissa * 10n ** BigInt(random.int(5, 12));
}

/**
 * The mainnet world's burns: each subnet has a daily budget of alpha (drawn once per registration), spread
 * over the day's burns with ±50 % noise. Most budgets are tens to hundreds of alpha; a few subnets (about
 * one daily burner in eight) burn 4,000 to 25,000 alpha a day and make most of the network's burns
 * (docs/sandbox.md). Integer maths only.
 */
export function mainnetDailyBudget(random: Rng, profile: 'daily' | 'occasional' | 'rare'): bigint {
  if (profile === 'daily' && random.chance(0.12)) return random.bigint(4_000n, 25_000n) * RAO_PER_UNIT;
  const bands =
    profile === 'daily'
      ? [10n, 10n, 10n, 100n, 100n]
      : profile === 'occasional'
        ? [1n, 10n, 100n]
        : [1n, 10n];
  const low = random.pick(bands);
  return random.bigint(low * 100n, low * 1_000n) * (RAO_PER_UNIT / 100n);
}

/** One burn of a mainnet-world day: the day's budget over `count` burns, each within ±50 %. */
export function mainnetBurnAmount(random: Rng, budget: bigint, count: number): bigint {
  const share = budget / BigInt(Math.max(1, count));
  return (share * BigInt(random.int(50, 150))) / 100n + 1n;
}

/** `value × numerator / denominator`, floored: the one way amounts are scaled. */
export function scale(value: bigint, numerator: bigint, denominator: bigint): bigint {
  return denominator === 0n ? 0n : (value * numerator) / denominator;
}
