/**
 * The public `Cache-Control` of snapshot answers (gateway/snapshots/cache-policy.ts): derived from when
 * the run's freshness changes and when its next publication can appear, never over five minutes, and
 * stale-while-revalidate only over time in which nothing can change.
 */
import { describe, expect, it } from 'vitest';
import {
  memoisedCacheControl,
  nextUtcMidnight,
  publicCacheControl,
  type RunChanges,
} from '../../gateway/snapshots/cache-policy.js';
import { burnsFreshnessRule, emissionsFreshnessRule } from '../../gateway/snapshots/freshness-rules.js';
import { freshnessOf } from '../../pipeline/contract/freshness.js';
import type { Manifest } from '../../pipeline/store/index.js';

const T = Date.parse('2026-03-02T12:00:00Z');
const S = 1_000;
const parse = (value: string) => {
  const match = /^public, max-age=(\d+), stale-while-revalidate=(\d+)$/.exec(value);
  if (!match) throw new Error(`unexpected Cache-Control: ${value}`);
  return { maxAge: Number(match[1]), swr: Number(match[2]) };
};

function manifest(extra: Record<string, unknown>, createdAt = '2026-03-02T00:20:00Z'): Manifest {
  return { version: 'v', created_at: createdAt, objects: [], ...extra };
}

describe('publicCacheControl', () => {
  it('is capped at the five-minute polling interval, with a minute of stale-while-revalidate', () => {
    const far = { freshnessChangeMs: T + 10 * 3_600 * S, nextPublicationMs: T + 5 * 3_600 * S };
    expect(publicCacheControl(far, T)).toBe('public, max-age=300, stale-while-revalidate=60');
  });

  it('ends at the freshness change, and serves nothing stale past it', () => {
    const changes = { freshnessChangeMs: T + 90_500, nextPublicationMs: T + 3_600 * S };
    expect(publicCacheControl(changes, T)).toBe('public, max-age=90, stale-while-revalidate=0');
    // 320 s before: 300 s fresh, then at most the 20 s left before the change.
    expect(publicCacheControl({ ...changes, freshnessChangeMs: T + 320 * S }, T)).toBe(
      'public, max-age=300, stale-while-revalidate=20',
    );
  });

  it('ends when the next publication can appear; once it is due, 30 s and nothing stale', () => {
    const changes = { freshnessChangeMs: null, nextPublicationMs: T + 42 * S };
    expect(publicCacheControl(changes, T)).toBe('public, max-age=42, stale-while-revalidate=0');
    expect(publicCacheControl(changes, T + 43 * S)).toBe('public, max-age=30, stale-while-revalidate=0');
    expect(publicCacheControl({ freshnessChangeMs: null, nextPublicationMs: null }, T)).toBe(
      'public, max-age=30, stale-while-revalidate=0',
    );
  });

  it('no answer a cache may hand out carries a freshness that has changed since, at any moment', () => {
    const checkedAt = T - 26 * 3_600 * S + 400 * S;
    const changes: RunChanges = { freshnessChangeMs: checkedAt + 26 * 3_600 * S, nextPublicationMs: null };
    for (let now = T; now < T + 500 * S; now += 7_300) {
      const { maxAge, swr } = parse(publicCacheControl(changes, now));
      expect(maxAge).toBeLessThanOrEqual(300);
      const served = freshnessOf(checkedAt, now, 26 * 3_600 * S);
      const lastHandedOut = now + (maxAge + swr) * S;
      expect(freshnessOf(checkedAt, lastHandedOut - 1, 26 * 3_600 * S)).toBe(served);
    }
  });

  it('the memoised form gives the same string object within a second', () => {
    const at = memoisedCacheControl({ freshnessChangeMs: null, nextPublicationMs: T + 3_600 * S });
    const first = at(T + 10);
    expect(at(T + 990)).toBe(first);
    expect(at(T + 1_500)).toBe(first); // the same value a second later: the same object
    expect(at(T + 3_599 * S)).toBe('public, max-age=1, stale-while-revalidate=0');
  });
});

describe('the rules of the two published runs', () => {
  it('burns: stale 26 h after burns_checked_at; the next daily run from the UTC midnight after the run', () => {
    const rule = burnsFreshnessRule(manifest({ burns_checked_at: '2026-03-02T00:15:00Z' }));
    expect(rule.changes).toEqual({
      freshnessChangeMs: Date.parse('2026-03-03T02:15:00Z'),
      nextPublicationMs: Date.parse('2026-03-03T00:00:00Z'),
    });
    expect(rule.freshnessAt(T)).toBe('current');
    expect(nextUtcMidnight(Date.parse('2026-03-02T23:59:59.999Z'))).toBe(Date.parse('2026-03-03T00:00:00Z'));
  });

  it('burns without a collection time: unknown, and nothing changes by itself', () => {
    const rule = burnsFreshnessRule(manifest({ burns_checked_at: null }));
    expect(rule.freshnessAt(T)).toBe('unknown');
    expect(rule.changes.freshnessChangeMs).toBeNull();
  });

  it('emissions: the next sample five minutes after the last, stale after fifteen', () => {
    const rule = emissionsFreshnessRule(manifest({ checked_at: '2026-03-02T11:58:00Z' }));
    expect(rule.changes).toEqual({
      freshnessChangeMs: Date.parse('2026-03-02T12:13:00Z'),
      nextPublicationMs: Date.parse('2026-03-02T12:03:00Z'),
    });
    expect(publicCacheControl(rule.changes, T)).toBe('public, max-age=180, stale-while-revalidate=0');
  });
});
