import { burnsFreshness } from '../../pipeline/snapshots/freshness.js';
import type { Manifest } from '../../pipeline/store/index.js';
import type { FreshnessRule } from './snapshot-cache.js';

/** Burn snapshots: from the manifest's `burns_checked_at` (26 hours of grace). */
export const burnsFreshnessRule: FreshnessRule = (manifest: Manifest, nowMs: number) => {
  const checked = manifest['burns_checked_at'];
  return burnsFreshness(typeof checked === 'string' ? Date.parse(checked) : null, nowMs);
};

/** The emissions watch samples every five minutes: current while the last sample is under 15 minutes old. */
export const EMISSIONS_STALE_AFTER_MS = 15 * 60_000;

export const emissionsFreshnessRule: FreshnessRule = (manifest: Manifest, nowMs: number) => {
  const checked = manifest['checked_at'];
  if (typeof checked !== 'string') return 'unknown';
  return nowMs - Date.parse(checked) < EMISSIONS_STALE_AFTER_MS ? 'current' : 'stale';
};
