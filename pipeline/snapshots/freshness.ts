import type { z } from 'zod';
import type { Freshness as FreshnessSchema } from '../contract/envelope.js';

export type Freshness = z.infer<typeof FreshnessSchema>;

/** Burn data is collected daily; a day and two hours of slack before it counts as stale. */
export const BURNS_STALE_AFTER_MS = 26 * 3_600_000;

export function burnsFreshness(burnsCheckedAtMs: number | null, nowMs: number): Freshness {
  if (burnsCheckedAtMs === null) return 'unknown';
  return nowMs - burnsCheckedAtMs < BURNS_STALE_AFTER_MS ? 'current' : 'stale';
}
