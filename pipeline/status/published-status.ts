/**
 * The store part of `sbm status`: the live burn run and the emissions watch's live run, each with the
 * freshness the gateway would serve now. The rule is the contract's (`freshnessOf` and its thresholds,
 * which the gateway's `burnsFreshnessRule` / `emissionsFreshnessRule` apply), read from the same
 * manifest members the gateway reads: `burns_checked_at` and `checked_at`.
 */
import { BURNS_STALE_AFTER_MS, EMISSIONS_STALE_AFTER_MS, freshnessOf } from '../contract/freshness.js';
import { EMISSIONS_NAMESPACE } from '../contract/snapshot-paths.js';
import { type Manifest, type ObjectStore, readManifest } from '../store/index.js';
import type { EmissionsStatus, PublishedStatus } from './status-report.js';

export async function readPublishedStatus(store: ObjectStore, nowMs: number): Promise<PublishedStatus> {
  const none = (state: 'none' | 'unreadable', message: string): PublishedStatus => ({
    store: store.description,
    state,
    message,
    version: null,
    created_at: null,
    age_seconds: null,
    burns_checked_at: null,
    freshness: null,
  });
  let manifest: Manifest | null;
  try {
    manifest = await readManifest(store, '');
  } catch (error) {
    return none('unreadable', messageOf(error));
  }
  if (manifest === null) return none('none', `nothing published in ${store.description}`);
  const checkedAt = stringOrNull(manifest['burns_checked_at']);
  return {
    store: store.description,
    state: 'ok',
    message: null,
    version: manifest.version,
    created_at: manifest.created_at,
    age_seconds: ageSeconds(manifest.created_at, nowMs),
    burns_checked_at: checkedAt,
    freshness: freshnessOf(timeOf(checkedAt), nowMs, BURNS_STALE_AFTER_MS),
  };
}

export async function readEmissionsStatus(store: ObjectStore, nowMs: number): Promise<EmissionsStatus> {
  const none = (state: 'none' | 'unreadable', message: string): EmissionsStatus => ({
    state,
    message,
    version: null,
    checked_at: null,
    age_seconds: null,
    freshness: null,
  });
  let manifest: Manifest | null;
  try {
    manifest = await readManifest(store, EMISSIONS_NAMESPACE);
  } catch (error) {
    return none('unreadable', messageOf(error));
  }
  if (manifest === null) return none('none', 'the emissions watch has not published');
  const checkedAt = stringOrNull(manifest['checked_at']);
  return {
    state: 'ok',
    message: null,
    version: manifest.version,
    checked_at: checkedAt,
    age_seconds: checkedAt === null ? null : ageSeconds(checkedAt, nowMs),
    freshness: freshnessOf(timeOf(checkedAt), nowMs, EMISSIONS_STALE_AFTER_MS),
  };
}

/** As the gateway reads a manifest time: a string is parsed (NaN reads as unknown), anything else is none. */
function timeOf(value: string | null): number | null {
  return value === null ? null : Date.parse(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function ageSeconds(iso: string, nowMs: number): number | null {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : Math.floor((nowMs - ms) / 1000);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
