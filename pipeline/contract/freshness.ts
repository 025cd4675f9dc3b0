import { HOUR_MS } from '../time/utc-day.js';
import type { Freshness } from './envelope.js';

/**
 * The freshness rules (the interface leaves the transitions to us). They depend on the time of the request,
 * so the pipeline stamps them at publication and the gateway recomputes them per request, both from here.
 */
/** Burn data is collected daily: a day and two hours of slack before it counts as stale. */
export const BURNS_STALE_AFTER_MS = 26 * HOUR_MS;
/** The emissions watch samples every five minutes: three missed samples make it stale. */
export const EMISSIONS_STALE_AFTER_MS = 15 * 60_000;

/** `unknown` without a time; `current` while younger than `staleAfterMs`; `stale` after. */
export function freshnessOf(checkedAtMs: number | null, nowMs: number, staleAfterMs: number): Freshness {
  if (checkedAtMs === null || Number.isNaN(checkedAtMs)) return 'unknown';
  return nowMs - checkedAtMs < staleAfterMs ? 'current' : 'stale';
}
