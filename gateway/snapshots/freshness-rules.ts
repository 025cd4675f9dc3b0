import {
  BURNS_STALE_AFTER_MS,
  EMISSIONS_STALE_AFTER_MS,
  freshnessOf,
} from '../../pipeline/contract/freshness.js';
import type { Manifest } from '../../pipeline/store/index.js';
import type { FreshnessRule } from './snapshot-cache.js';

/** Burn snapshots: from the manifest's `burns_checked_at`. */
export const burnsFreshnessRule: FreshnessRule = (manifest: Manifest) => {
  const checkedAtMs = timeOf(manifest['burns_checked_at']);
  return (nowMs) => freshnessOf(checkedAtMs, nowMs, BURNS_STALE_AFTER_MS);
};

/** Emissions snapshots: from the manifest's `checked_at` (when the latest sample was taken). */
export const emissionsFreshnessRule: FreshnessRule = (manifest: Manifest) => {
  const checkedAtMs = timeOf(manifest['checked_at']);
  return (nowMs) => freshnessOf(checkedAtMs, nowMs, EMISSIONS_STALE_AFTER_MS);
};

function timeOf(value: unknown): number | null {
  return typeof value === 'string' ? Date.parse(value) : null;
}
