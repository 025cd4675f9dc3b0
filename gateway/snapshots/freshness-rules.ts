import {
  BURNS_STALE_AFTER_MS,
  EMISSIONS_STALE_AFTER_MS,
  freshnessOf,
} from '../../pipeline/contract/freshness.js';
import type { Manifest } from '../../pipeline/store/index.js';
import { nextUtcMidnight, type RunChanges } from './cache-policy.js';
import type { FreshnessRule } from './snapshot-cache.js';

/** The emissions watch samples (and publishes) every five minutes. */
export const EMISSIONS_PUBLISHED_EVERY_MS = 5 * 60_000;

/**
 * Burn snapshots: freshness from the manifest's `burns_checked_at`; the daily run publishes once a UTC
 * day has closed, so the next publication can appear from the UTC midnight after this run was made.
 */
export const burnsFreshnessRule: FreshnessRule = (manifest: Manifest) => {
  const checkedAtMs = timeOf(manifest['burns_checked_at']);
  const createdAtMs = timeOf(manifest.created_at);
  return {
    freshnessAt: (nowMs) => freshnessOf(checkedAtMs, nowMs, BURNS_STALE_AFTER_MS),
    changes: {
      freshnessChangeMs: staleFrom(checkedAtMs, BURNS_STALE_AFTER_MS),
      nextPublicationMs: createdAtMs === null ? null : nextUtcMidnight(createdAtMs),
    },
  };
};

/**
 * Emissions snapshots: freshness from the manifest's `checked_at` (when the latest sample was taken);
 * the next sample is published five minutes after it.
 */
export const emissionsFreshnessRule: FreshnessRule = (manifest: Manifest) => {
  const checkedAtMs = timeOf(manifest['checked_at']);
  return {
    freshnessAt: (nowMs) => freshnessOf(checkedAtMs, nowMs, EMISSIONS_STALE_AFTER_MS),
    changes: {
      freshnessChangeMs: staleFrom(checkedAtMs, EMISSIONS_STALE_AFTER_MS),
      nextPublicationMs: checkedAtMs === null ? null : checkedAtMs + EMISSIONS_PUBLISHED_EVERY_MS,
    },
  };
};

/** When `current` turns `stale` (null: the run has no time, its freshness stays `unknown`). */
function staleFrom(checkedAtMs: number | null, staleAfterMs: number): RunChanges['freshnessChangeMs'] {
  return checkedAtMs === null ? null : checkedAtMs + staleAfterMs;
}

function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}
