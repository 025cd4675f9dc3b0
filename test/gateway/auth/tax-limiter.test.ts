import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitSubject } from '../../../gateway/auth/client-ip.js';
import { createTaxLimiter, TAX_LIMIT_PER_HOUR } from '../../../gateway/auth/tax-limiter.js';
import { HttpError } from '../../../gateway/http/http-errors.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';

const MINUTE = 60_000;

describe('rateLimitSubject', () => {
  it('counts IPv4 by address and IPv6 by its /64', () => {
    expect(rateLimitSubject('198.51.100.7')).toBe('198.51.100.7');
    expect(rateLimitSubject('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(rateLimitSubject('2001:db8:aa:bb::9')).toBe('2001:db8:aa:bb::/64');
    expect(rateLimitSubject('2001:DB8:00AA:bb::')).toBe('2001:db8:aa:bb::/64');
    expect(rateLimitSubject('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitSubject('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitSubject('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitSubject('1:2:3:4:5:6:192.0.2.1')).toBe('1:2:3:4::/64');
    expect(rateLimitSubject('unknown')).toBe('unknown');
  });
});

describe.each(STATE_ENGINES)('tax rate limit: $name', (engine) => {
  let store: TestStateStore;
  let state: GatewayState;
  let clock = new Date('2025-03-15T10:00:00Z');
  const now = () => clock;

  beforeAll(async () => {
    store = await engine.start();
    state = await openGatewayState(store.url);
  });

  afterAll(async () => {
    await state?.close();
    await store?.stop();
  });

  it('admits 20 an hour, refuses the 21st with Retry-After until the oldest leaves the hour', async () => {
    const limiter = createTaxLimiter({ state, now, limitPerHour: TAX_LIMIT_PER_HOUR });
    const start = Date.parse('2025-03-15T10:00:00Z');
    // One a minute from 10:00 to 10:19.
    for (let i = 0; i < 20; i++) {
      clock = new Date(start + i * MINUTE);
      const result = await limiter.hit('198.51.100.1');
      expect(result).toMatchObject({ allowed: true, decision: { remaining: 19 - i } });
    }
    clock = new Date('2025-03-15T10:30:00Z');
    const refused = await limiter.hit('198.51.100.1');
    if (refused.allowed) throw new Error('the 21st request was admitted');
    expect(refused.error).toBeInstanceOf(HttpError);
    expect(refused.error.status).toBe(429);
    expect(refused.error.headers['Retry-After']).toBe('1800');
    expect(refused.error.headers['X-RateLimit-Reset']).toBe(
      String(Date.parse('2025-03-15T11:00:00Z') / 1000),
    );
    expect(refused.error.headers['RateLimit-Policy']).toBe('20;w=3600');
    expect(refused.error.detail).toBe(
      'More than 20 requests an hour from this address to the tax interface; retry in 30 minutes.',
    );
    // The clock hour turning changes nothing: the hour is rolling.
    clock = new Date('2025-03-15T10:59:59Z');
    expect((await limiter.hit('198.51.100.1')).allowed).toBe(false);
    // At 11:00 the 10:00 request is an hour old: one slot, and the next waits for 10:01's.
    clock = new Date('2025-03-15T11:00:00Z');
    expect((await limiter.hit('198.51.100.1')).allowed).toBe(true);
    clock = new Date('2025-03-15T11:00:30Z');
    const next = await limiter.hit('198.51.100.1');
    expect(next.allowed).toBe(false);
    if (!next.allowed) expect(next.error.headers['Retry-After']).toBe('30');
    // A new hour after the last request, the full allowance is back.
    clock = new Date('2025-03-15T12:01:00Z');
    for (let i = 0; i < 20; i++) expect((await limiter.hit('198.51.100.1')).allowed).toBe(true);
    expect((await limiter.hit('198.51.100.1')).allowed).toBe(false);
  });

  it('keeps addresses apart and counts an IPv6 /64 as one address', async () => {
    clock = new Date('2025-03-16T09:00:00Z');
    const limiter = createTaxLimiter({ state, now, limitPerHour: 2 });
    for (const ip of ['198.51.100.2', '198.51.100.2']) expect((await limiter.hit(ip)).allowed).toBe(true);
    expect((await limiter.hit('198.51.100.2')).allowed).toBe(false);
    expect((await limiter.hit('198.51.100.3')).allowed).toBe(true);
    expect((await limiter.hit('2001:db8:1:2::a')).allowed).toBe(true);
    expect((await limiter.hit('2001:db8:1:2::b')).allowed).toBe(true);
    expect((await limiter.hit('2001:db8:1:2:ffff::1')).allowed).toBe(false);
    expect((await limiter.hit('2001:db8:1:3::a')).allowed).toBe(true);
  });

  it('is one budget for every gateway instance on the state', async () => {
    clock = new Date('2025-03-17T09:00:00Z');
    const other = await openGatewayState(store.url);
    try {
      const first = createTaxLimiter({ state, now });
      const second = createTaxLimiter({ state: other, now });
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? first : second).hit('203.0.113.77')),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(20);
    } finally {
      await other.close();
    }
  });

  it('stores a salted hash, never the address, and prunes it an hour after the last request', async () => {
    clock = new Date('2025-03-18T09:00:00Z');
    const ip = '192.0.2.201';
    await createTaxLimiter({ state, now }).hit(ip);
    const buckets = await bucketsOf(store);
    expect(buckets.length).toBeGreaterThan(0);
    for (const bucket of buckets) expect(bucket).toMatch(/^tax:[0-9a-f]{64}$/);
    if (store.sqlitePath) {
      await state.close();
      const bytes = Buffer.concat(
        await Promise.all(
          [store.sqlitePath, `${store.sqlitePath}-wal`].map((path) =>
            readFile(path).catch(() => Buffer.alloc(0)),
          ),
        ),
      );
      expect(bytes.includes(Buffer.from(ip))).toBe(false);
      state = await openGatewayState(store.url);
    }
    // A fresh limiter (a restarted process) prunes on its first request.
    clock = new Date('2025-03-18T12:00:00Z');
    await createTaxLimiter({ state, now }).hit('192.0.2.202');
    expect(await bucketsOf(store)).toHaveLength(1);
  });
});

/** The rolling windows' bucket names, read straight from the database. */
async function bucketsOf(store: TestStateStore): Promise<string[]> {
  if (store.sqlitePath) {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(store.sqlitePath, { readonly: true });
    try {
      return (db.prepare('SELECT bucket FROM rolling_windows').all() as { bucket: string }[]).map(
        (r) => r.bucket,
      );
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: store.url });
  await client.connect();
  try {
    return (await client.query<{ bucket: string }>('SELECT bucket FROM rolling_windows')).rows.map(
      (r) => r.bucket,
    );
  } finally {
    await client.end();
  }
}
