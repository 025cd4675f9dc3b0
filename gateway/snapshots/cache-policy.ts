/**
 * How long a shared cache (the shipped nginx, a CDN, a browser) may hand out a public snapshot answer without
 * asking the gateway again, derived from the published run: never past the moment its `freshness` field would
 * read differently, never past the moment the next publication can appear, and never longer than the
 * five-minute polling interval the interface documents (callers poll no more often).
 *
 * - `max-age` = the least of 300 s, the seconds until the run's freshness changes (current → stale) and
 *   the seconds until its next publication is due; once that is due (or unknown), 30 s, so a publication
 *   that arrives late still shows within half a minute.
 * - `stale-while-revalidate` only covers time in which nothing can change: at most 60 s, and never past
 *   the next freshness change or the next publication; 0 when `max-age` already ends at either.
 * So every answer a cache may hand out, fresh or while revalidating, has the right `freshness`.
 */
import { DAY_MS } from '../../pipeline/time/utc-day.js';

/** Callers poll no more often than every five minutes; no answer is kept longer. */
export const MAX_AGE_CAP_S = 300;
/** Once the next publication is due, caches ask again this often. */
export const DUE_MAX_AGE_S = 30;
/** The longest a cache may serve an expired answer while it revalidates it in the background. */
export const STALE_WHILE_REVALIDATE_CAP_S = 60;

/** The moments a published run's answers can change, in epoch milliseconds (null: never, or unknown). */
export interface RunChanges {
  /** When the run's `freshness` changes next (current → stale); null when it never changes by itself. */
  freshnessChangeMs: number | null;
  /** The earliest the next scheduled publication can appear; null when unknown (treated as due). */
  nextPublicationMs: number | null;
}

/** The public `Cache-Control` of an answer from a run with these change times, given at `nowMs`. */
export function publicCacheControl(changes: RunChanges, nowMs: number): string {
  const secondsUntil = (ms: number | null) =>
    ms === null || ms <= nowMs ? null : Math.floor((ms - nowMs) / 1000);
  const untilChange = secondsUntil(changes.freshnessChangeMs) ?? Number.POSITIVE_INFINITY;
  const untilPublication = secondsUntil(changes.nextPublicationMs);
  const due = untilPublication === null;
  const maxAge = Math.min(MAX_AGE_CAP_S, untilChange, due ? DUE_MAX_AGE_S : untilPublication);
  const quiet = due ? 0 : Math.min(untilChange, untilPublication) - maxAge;
  const swr = Math.max(0, Math.min(STALE_WHILE_REVALIDATE_CAP_S, quiet));
  return `public, max-age=${maxAge}, stale-while-revalidate=${swr}`;
}

/**
 * The same string for every request within one second, made once: the public answer's headers are
 * built once per representation and value (`snapshot-response.ts`), and a changed string is what
 * tells them to rebuild.
 */
export function memoisedCacheControl(changes: RunChanges): (nowMs: number) => string {
  let second = Number.NaN;
  let value = '';
  return (nowMs) => {
    const at = Math.floor(nowMs / 1000);
    if (at !== second) {
      const next = publicCacheControl(changes, nowMs);
      if (next !== value) value = next;
      second = at;
    }
    return value;
  };
}

/** The UTC midnight after `ms`: burn data is collected by UTC day, so the daily run publishes after one. */
export function nextUtcMidnight(ms: number): number {
  return (Math.floor(ms / DAY_MS) + 1) * DAY_MS;
}

/**
 * Answers that carry a credential's data (a key's or a session's) may be kept only by the caller's own
 * cache, and revalidated on every use: each use is counted against the allowance (a 304 is a success),
 * and a revoked key is refused on its next request.
 */
export const CREDENTIAL_CACHE_CONTROL = 'private, no-cache';
/** Answers about one person or account (usage, account pages, orders, the tax check): never stored. */
export const PRIVATE_NO_STORE = 'private, no-store';
