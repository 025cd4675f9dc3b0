import type { Rng } from './random.js';

/** 1 TAO = 1 alpha = 10^9 RAO. */
export const RAO = 1_000_000_000n;
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

/** `value × numerator / denominator`, floored: the one way amounts are scaled. */
export function scale(value: bigint, numerator: bigint, denominator: bigint): bigint {
  return denominator === 0n ? 0n : (value * numerator) / denominator;
}
