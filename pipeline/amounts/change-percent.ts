import { ExactDecimal } from './exact-json.js';
import { fixedToText } from './rao.js';

/** 100 × (current − previous) / previous, rounded half away from zero to 2 decimals; null when previous is 0. */
export function changePercent(current: bigint, previous: bigint): ExactDecimal | null {
  if (previous === 0n) return null;
  const scaled = ((current - previous) * 100n * 100n * 2n) / previous; // hundredths of a percent, ×2
  const rounded = scaled >= 0n ? (scaled + 1n) / 2n : (scaled - 1n) / 2n;
  return new ExactDecimal(fixedToText(rounded, 2));
}
