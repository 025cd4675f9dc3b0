/**
 * One contract for every GatewayState implementation: the same behaviour, run against a SQLite file
 * and a fresh PostgreSQL schema. Each test makes its own accounts, so tests share one database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCacheKey } from '../../gateway/state/check-cache-key.js';
import type { ApiKeyRecord, CachedCheck, GatewayState } from '../../gateway/state/gateway-state.js';
import { MIGRATIONS } from '../../gateway/state/migrations.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import type { NewOrder, PaymentEvent } from '../../gateway/state/order-state.js';
import { startKeyBurstProcess } from '../gateway/state/burst-process.js';
import { STATE_ENGINES, type TestStateStore } from '../gateway/state/state-engines.js';

const T0 = new Date('2025-03-15T10:00:00.123Z');
const at = (iso: string) => new Date(iso);
const uid = (kind: string) => `${kind}_${randomUUID().slice(0, 12)}`;

function keyRecord(accountId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const id = uid('key');
  return {
    id,
    accountId,
    prefix: `sbm_live_${id.slice(-6)}`,
    hash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
    createdAt: T0,
    revokedAt: null,
    expiresAt: null,
    ...overrides,
  };
}

describe.each(STATE_ENGINES)('GatewayState contract: $name', (engine) => {
  let store: TestStateStore;
  let state: GatewayState;

  beforeAll(async () => {
    store = await engine.start();
    process.stderr.write(`[gateway-state contract] engine ${store.label}\n`);
    state = await openGatewayState(store.url);
  });

  afterAll(async () => {
    await state?.close();
    await store?.stop();
  });

  async function newAccount(plan: 'api' | 'subscriber' = 'api') {
    return state.createAccount({ id: uid('acc'), plan, createdAt: T0, periodAnchor: T0 });
  }

  describe('migrations', () => {
    it('applies at start-up once, also when several connections open together, and keeps data', async () => {
      const account = await newAccount();
      const again = await Promise.all([openGatewayState(store.url), openGatewayState(store.url)]);
      try {
        expect(again.map((s) => s.engine)).toEqual([engine.name, engine.name]);
        for (const other of again) expect((await other.getAccount(account.id))?.id).toBe(account.id);
      } finally {
        await Promise.all(again.map((s) => s.close()));
      }
      // Versions only ever go up (each helper appends its own; a branch may lack another's number).
      const versions = MIGRATIONS.map((m) => m.version);
      expect(versions[0]).toBe(1);
      expect(versions.every((version, i) => i === 0 || version > versions[i - 1]!)).toBe(true);
    });
  });

  describe('accounts', () => {
    it('creates, reads and lists accounts with exact times', async () => {
      const account = await newAccount('subscriber');
      expect(account).toEqual({
        id: account.id,
        plan: 'subscriber',
        status: 'active',
        createdAt: T0,
        periodAnchor: T0,
        cancelledAt: null,
        accessEndsAt: null,
        email: null,
        billing: 'operator',
        paidPeriodStart: null,
        paidPeriodEnd: null,
      });
      expect(await state.getAccount(account.id)).toEqual(account);
      expect((await state.listAccounts()).map((a) => a.id)).toContain(account.id);
      expect(await state.getAccount('acc_missing')).toBeNull();
    });

    it('refuses a duplicate id', async () => {
      const account = await newAccount();
      await expect(
        state.createAccount({ id: account.id, plan: 'api', createdAt: T0, periodAnchor: T0 }),
      ).rejects.toThrow();
    });

    it('cancels once, keeping the first cancellation and its access end', async () => {
      const account = await newAccount();
      const first = await state.cancelAccount(
        account.id,
        at('2025-04-01T00:00:00Z'),
        at('2025-04-15T10:00:00Z'),
      );
      expect(first).toMatchObject({
        status: 'cancelled',
        cancelledAt: at('2025-04-01T00:00:00Z'),
        accessEndsAt: at('2025-04-15T10:00:00Z'),
      });
      const second = await state.cancelAccount(
        account.id,
        at('2025-05-01T00:00:00Z'),
        at('2025-05-15T10:00:00Z'),
      );
      expect(second).toEqual(first);
      expect(await state.cancelAccount('acc_missing', T0, T0)).toBeNull();
    });
  });

  describe('keys', () => {
    it('inserts up to the active-key limit and refuses the next one', async () => {
      const account = await newAccount();
      for (let i = 0; i < 3; i++) {
        expect((await state.insertKeyWithinLimit(keyRecord(account.id), 3, T0)).inserted).toBe(true);
      }
      expect(await state.insertKeyWithinLimit(keyRecord(account.id), 3, T0)).toEqual({
        inserted: false,
        reason: 'limit',
        activeKeys: 3,
      });
      expect(await state.listKeys(account.id)).toHaveLength(3);
    });

    it('does not count revoked or expired keys as active', async () => {
      const account = await newAccount();
      const revoked = keyRecord(account.id);
      await state.insertKeyWithinLimit(revoked, 3, T0);
      await state.insertKeyWithinLimit(
        keyRecord(account.id, { expiresAt: at('2025-03-20T00:00:00Z') }),
        3,
        T0,
      );
      await state.insertKeyWithinLimit(keyRecord(account.id), 3, T0);
      expect((await state.insertKeyWithinLimit(keyRecord(account.id), 3, T0)).inserted).toBe(false);
      await state.revokeKey(revoked.id, T0);
      expect((await state.insertKeyWithinLimit(keyRecord(account.id), 3, T0)).inserted).toBe(true);
      expect((await state.insertKeyWithinLimit(keyRecord(account.id), 3, T0)).inserted).toBe(false);
      // After the second key's expiry its slot is free again.
      const later = at('2025-03-21T00:00:00Z');
      expect((await state.insertKeyWithinLimit(keyRecord(account.id), 3, later)).inserted).toBe(true);
    });

    it('never lets concurrent creations take more than the limit', async () => {
      // Two processes, each firing 10 creations at once on its own connections: on SQLite the calls of
      // one process run one after another, so only another process can race them.
      const account = await newAccount();
      const burst = { url: store.url, accountId: account.id, now: T0, maxActive: 3, count: 10 };
      const started = await Promise.all([startKeyBurstProcess(burst), startKeyBurstProcess(burst)]);
      try {
        const results = (await Promise.all(started.map((child) => child.fire()))).flat();
        expect(results).toHaveLength(20);
        expect(results.filter((r) => r.inserted)).toHaveLength(3);
        expect(results.filter((r) => !r.inserted).every((r) => !r.inserted && r.reason === 'limit')).toBe(
          true,
        );
        expect(await state.listKeys(account.id)).toHaveLength(3);
      } finally {
        for (const child of started) child.kill();
      }
    }, 60_000);

    it('reports an unknown account instead of inserting', async () => {
      expect(await state.insertKeyWithinLimit(keyRecord('acc_missing'), 3, T0)).toEqual({
        inserted: false,
        reason: 'unknown-account',
        activeKeys: 0,
      });
    });

    it('finds keys by visible prefix with their accounts, reads them back exactly, and revokes once', async () => {
      const account = await newAccount();
      const key = keyRecord(account.id, { expiresAt: at('2026-01-01T00:00:00.500Z') });
      const inserted = await state.insertKeyWithinLimit(key, 3, T0);
      expect(inserted).toEqual({ inserted: true, key });
      expect(await state.findKeyCandidates(key.prefix)).toEqual([{ key, account }]);
      expect(await state.findKeyCandidates('sbm_live_nope00')).toEqual([]);
      expect(await state.getKey(key.id)).toEqual(key);
      const revoked = await state.revokeKey(key.id, at('2025-03-16T00:00:00Z'));
      expect(revoked?.revokedAt).toEqual(at('2025-03-16T00:00:00Z'));
      const again = await state.revokeKey(key.id, at('2025-03-17T00:00:00Z'));
      expect(again?.revokedAt).toEqual(at('2025-03-16T00:00:00Z'));
      expect(await state.revokeKey('key_missing', T0)).toBeNull();
    });

    it('refuses two keys with the same hash', async () => {
      const account = await newAccount();
      const key = keyRecord(account.id);
      await state.insertKeyWithinLimit(key, 3, T0);
      await expect(state.insertKeyWithinLimit({ ...key, id: uid('key') }, 3, T0)).rejects.toThrow();
    });
  });

  describe('sessions', () => {
    it('stores, finds by hash and revokes sessions', async () => {
      const account = await newAccount('subscriber');
      const session = {
        id: uid('ses'),
        accountId: account.id,
        hash: randomUUID().replaceAll('-', '').padEnd(64, 'a'),
        createdAt: T0,
        expiresAt: at('2025-04-14T10:00:00Z'),
        revokedAt: null,
      };
      expect(await state.insertSession(session)).toEqual(session);
      expect(await state.findSessionByHash(session.hash)).toEqual(session);
      expect(await state.findSessionByHash('0'.repeat(64))).toBeNull();
      expect((await state.revokeSession(session.id, T0))?.revokedAt).toEqual(T0);
      expect(await state.revokeSession('ses_missing', T0)).toBeNull();
    });
  });

  describe('usage counters', () => {
    it('grants up to the limit, then refuses without counting', async () => {
      const account = await newAccount();
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await state.reserveRequest(account.id, T0, 3));
      expect(results).toEqual([
        { granted: true, used: 1, remaining: 2 },
        { granted: true, used: 2, remaining: 1 },
        { granted: true, used: 3, remaining: 0 },
        { granted: false, used: 3, remaining: 0 },
        { granted: false, used: 3, remaining: 0 },
      ]);
      expect(await state.getUsage(account.id, T0)).toBe(3);
    });

    it('gives callers asking at once what callers asking in turn would get', async () => {
      const account = await newAccount();
      await state.setUsage(account.id, T0, 7);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => state.reserveRequest(account.id, T0, 10)),
      );
      const byUsed = [...results].sort((a, b) => a.used - b.used || Number(b.granted) - Number(a.granted));
      expect(byUsed).toEqual([
        { granted: true, used: 8, remaining: 2 },
        { granted: true, used: 9, remaining: 1 },
        { granted: true, used: 10, remaining: 0 },
        { granted: false, used: 10, remaining: 0 },
        { granted: false, used: 10, remaining: 0 },
      ]);
      expect(await state.getUsage(account.id, T0)).toBe(10);
    });

    it('refunds one request at a time and never below zero', async () => {
      const account = await newAccount();
      await state.reserveRequest(account.id, T0, 3);
      await state.reserveRequest(account.id, T0, 3);
      await state.reserveRequest(account.id, T0, 3);
      expect(await state.refundRequest(account.id, T0, 3)).toEqual({ granted: true, used: 2, remaining: 1 });
      expect((await state.reserveRequest(account.id, T0, 3)).granted).toBe(true);
      const fresh = await newAccount();
      expect(await state.refundRequest(fresh.id, T0, 3)).toEqual({ granted: false, used: 0, remaining: 3 });
      await state.setUsage(fresh.id, T0, 0);
      expect(await state.refundRequest(fresh.id, T0, 3)).toEqual({ granted: false, used: 0, remaining: 3 });
    });

    it('keeps periods and accounts apart', async () => {
      const a = await newAccount();
      const b = await newAccount();
      const next = at('2025-04-15T10:00:00.123Z');
      await state.setUsage(a.id, T0, 10);
      expect(await state.reserveRequest(a.id, T0, 10)).toEqual({ granted: false, used: 10, remaining: 0 });
      expect(await state.reserveRequest(a.id, next, 10)).toEqual({ granted: true, used: 1, remaining: 9 });
      expect(await state.reserveRequest(b.id, T0, 10)).toEqual({ granted: true, used: 1, remaining: 9 });
      expect(await state.getUsage(a.id, T0)).toBe(10);
    });

    it('refuses everything at a limit of zero or below the current count', async () => {
      const account = await newAccount();
      expect(await state.reserveRequest(account.id, T0, 0)).toEqual({
        granted: false,
        used: 0,
        remaining: 0,
      });
      await state.setUsage(account.id, T0, 12);
      expect(await state.reserveRequest(account.id, T0, 10)).toEqual({
        granted: false,
        used: 12,
        remaining: 0,
      });
    });

    it('grants exactly the remaining requests to concurrent callers on two connections', async () => {
      const account = await newAccount();
      await state.setUsage(account.id, T0, 9_900);
      const second = await openGatewayState(store.url);
      try {
        const results = await Promise.all(
          Array.from({ length: 160 }, (_, i) =>
            (i % 2 ? state : second).reserveRequest(account.id, T0, 10_000),
          ),
        );
        const granted = results.filter((r) => r.granted);
        expect(granted).toHaveLength(100);
        expect(new Set(granted.map((r) => r.used)).size).toBe(100);
        expect(Math.min(...results.map((r) => r.remaining))).toBe(0);
        expect(await state.getUsage(account.id, T0)).toBe(10_000);
      } finally {
        await second.close();
      }
    });
  });

  describe('rate windows', () => {
    it('counts hits per bucket and window up to the limit', async () => {
      const bucket = `test:${uid('ip')}`;
      const w1 = at('2025-03-15T10:00:00Z');
      const w2 = at('2025-03-15T10:01:00Z');
      const hits = [];
      for (let i = 0; i < 4; i++) hits.push(await state.hitRateWindow(bucket, w1, 3));
      expect(hits).toEqual([
        { allowed: true, count: 1 },
        { allowed: true, count: 2 },
        { allowed: true, count: 3 },
        { allowed: false, count: 3 },
      ]);
      expect(await state.hitRateWindow(bucket, w2, 3)).toEqual({ allowed: true, count: 1 });
      expect(await state.hitRateWindow(`${bucket}x`, w1, 3)).toEqual({ allowed: true, count: 1 });
      expect(await state.hitRateWindow(`${bucket}y`, w1, 0)).toEqual({ allowed: false, count: 0 });
    });

    it('allows exactly the limit to concurrent hits', async () => {
      const bucket = `test:${uid('ip')}`;
      const results = await Promise.all(
        Array.from({ length: 40 }, () => state.hitRateWindow(bucket, T0, 25)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(25);
    });

    it('prunes old windows of one prefix only', async () => {
      const scope = uid('scope');
      const other = uid('other');
      const old = at('2025-03-15T09:00:00Z');
      const current = at('2025-03-15T10:00:00Z');
      await state.hitRateWindow(`${scope}:a`, old, 5);
      await state.hitRateWindow(`${scope}:b`, old, 5);
      await state.hitRateWindow(`${scope}:a`, current, 5);
      await state.hitRateWindow(`${other}:a`, old, 5);
      expect(await state.pruneRateWindows(`${scope}:`, current)).toBe(2);
      expect(await state.hitRateWindow(`${scope}:a`, current, 5)).toEqual({ allowed: true, count: 2 });
      expect(await state.hitRateWindow(`${other}:a`, old, 5)).toEqual({ allowed: true, count: 2 });
    });
  });

  describe('rolling windows', () => {
    const HOUR = 3_600_000;
    const hit = (bucket: string, iso: string, limit: number) => {
      const now = at(iso);
      return state.hitRollingWindow(bucket, now, new Date(now.getTime() - HOUR), limit);
    };

    it('admits the limit within any hour and frees a slot when the oldest hit leaves it', async () => {
      const bucket = `test:${uid('ip')}`;
      expect(await hit(bucket, '2025-03-15T10:10:00.250Z', 3)).toEqual({
        allowed: true,
        count: 1,
        oldest: at('2025-03-15T10:10:00.250Z'),
      });
      await hit(bucket, '2025-03-15T10:40:00Z', 3);
      // Across the clock hour: a fixed window would start counting again at 11:00.
      expect(await hit(bucket, '2025-03-15T10:59:59Z', 3)).toMatchObject({ allowed: true, count: 3 });
      expect(await hit(bucket, '2025-03-15T11:00:01Z', 3)).toEqual({
        allowed: false,
        count: 3,
        oldest: at('2025-03-15T10:10:00.250Z'),
      });
      // The first hit is an hour old at 11:10:00.250 and no longer counts (the window is (at - 1h, at]).
      expect(await hit(bucket, '2025-03-15T11:10:00.249Z', 3)).toMatchObject({ allowed: false, count: 3 });
      expect(await hit(bucket, '2025-03-15T11:10:00.250Z', 3)).toEqual({
        allowed: true,
        count: 3,
        oldest: at('2025-03-15T10:40:00Z'),
      });
      expect(await hit(`${bucket}x`, '2025-03-15T11:10:00Z', 3)).toMatchObject({ allowed: true, count: 1 });
      expect(await hit(`${bucket}y`, '2025-03-15T11:10:00Z', 0)).toEqual({
        allowed: false,
        count: 0,
        oldest: null,
      });
    });

    it('starts afresh once every hit is older than the window', async () => {
      const bucket = `test:${uid('ip')}`;
      for (let i = 0; i < 2; i++) await hit(bucket, '2025-03-15T08:00:00Z', 2);
      expect(await hit(bucket, '2025-03-15T08:30:00Z', 2)).toMatchObject({ allowed: false, count: 2 });
      expect(await hit(bucket, '2025-03-15T12:00:00Z', 2)).toEqual({
        allowed: true,
        count: 1,
        oldest: at('2025-03-15T12:00:00Z'),
      });
    });

    it('allows exactly the limit to concurrent hits on two connections', async () => {
      const bucket = `test:${uid('ip')}`;
      const second = await openGatewayState(store.url);
      try {
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            (i % 2 ? state : second).hitRollingWindow(
              bucket,
              new Date(T0.getTime() + i),
              at('2025-03-15T09:00:00Z'),
              20,
            ),
          ),
        );
        expect(results.filter((r) => r.allowed)).toHaveLength(20);
        expect(Math.max(...results.map((r) => r.count))).toBe(20);
      } finally {
        await second.close();
      }
    });

    it('prunes windows of one prefix with no hit after the given time', async () => {
      const scope = uid('scope');
      const other = uid('other');
      await hit(`${scope}:old`, '2025-03-15T09:00:00Z', 5);
      await hit(`${scope}:recent`, '2025-03-15T09:00:00Z', 5);
      await hit(`${scope}:recent`, '2025-03-15T10:30:00Z', 5);
      await hit(`${other}:old`, '2025-03-15T09:00:00Z', 5);
      expect(await state.pruneRollingWindows(`${scope}:`, at('2025-03-15T10:00:00Z'))).toBe(1);
      expect(await hit(`${scope}:recent`, '2025-03-15T10:31:00Z', 5)).toMatchObject({ count: 2 });
      expect(await state.pruneRollingWindows(`${other}:`, at('2025-03-15T09:00:00Z'))).toBe(1);
    });
  });

  describe('tax check cache', () => {
    const entry = (overrides: Partial<CachedCheck> = {}): CachedCheck => ({
      key: checkCacheKey(uid('coldkey')),
      body: JSON.stringify({ state: 'ok', staked_tao: 1234.5, note: 'exact text \u00e9 kept' }),
      computedAt: at('2025-03-15T10:00:00.123Z'),
      expiresAt: at('2025-03-16T10:00:00.123Z'),
      ...overrides,
    });

    it('misses, then hits with the exact body until the expiry, then misses', async () => {
      const check = entry({ body: '{"coldkey": "5Grw",  "yield":0.071000}' });
      expect(await state.getCachedCheck(check.key, T0)).toBeNull();
      await state.putCachedCheck(check);
      expect(await state.getCachedCheck(check.key, at('2025-03-15T10:00:00.123Z'))).toEqual(check);
      expect(await state.getCachedCheck(check.key, at('2025-03-16T10:00:00.122Z'))).toEqual(check);
      expect(await state.getCachedCheck(check.key, at('2025-03-16T10:00:00.123Z'))).toBeNull();
      expect(await state.getCachedCheck(checkCacheKey('5Other'), T0)).toBeNull();
    });

    it('replaces an entry with a newer computation, never with an older one', async () => {
      const first = entry();
      await state.putCachedCheck(first);
      const newer = {
        ...first,
        body: '{"state":"ok","v":2}',
        computedAt: at('2025-03-16T11:00:00Z'),
        expiresAt: at('2025-03-17T11:00:00Z'),
      };
      await state.putCachedCheck(newer);
      expect(await state.getCachedCheck(first.key, at('2025-03-16T12:00:00Z'))).toEqual(newer);
      await state.putCachedCheck({ ...first, body: '{"stale":true}' });
      expect(await state.getCachedCheck(first.key, at('2025-03-16T12:00:00Z'))).toEqual(newer);
    });

    it('is shared by connections and survives closing and reopening the state', async () => {
      const check = entry();
      const writer = await openGatewayState(store.url);
      await writer.putCachedCheck(check);
      await writer.close();
      const reader = await openGatewayState(store.url);
      try {
        expect(await reader.getCachedCheck(check.key, T0)).toEqual(check);
      } finally {
        await reader.close();
      }
    });

    it('prunes expired entries only', async () => {
      const expired = entry({
        expiresAt: at('2020-01-01T00:00:00Z'),
        computedAt: at('2019-12-31T00:00:00Z'),
      });
      const live = entry({ expiresAt: at('2100-01-01T00:00:00Z') });
      await state.putCachedCheck(expired);
      await state.putCachedCheck(live);
      expect(await state.pruneCachedChecks(at('2025-01-01T00:00:00Z'))).toBe(1);
      expect(await state.getCachedCheck(expired.key, at('2019-12-31T12:00:00Z'))).toBeNull();
      expect(await state.getCachedCheck(live.key, T0)).toEqual(live);
    });

    it('keys by the SHA-256 of the coldkey', () => {
      expect(checkCacheKey('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY')).toMatch(/^[0-9a-f]{64}$/);
      expect(checkCacheKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });
  });

  describe('salts', () => {
    it('keeps the first salt stored under a name, the same for every state object on the database', async () => {
      const name = uid('salt');
      const second = await openGatewayState(store.url);
      try {
        const candidates = Array.from({ length: 6 }, () => randomBytes(32).toString('hex'));
        const read = await Promise.all(
          candidates.map((candidate, i) => (i % 2 ? state : second).getOrCreateSalt(name, candidate, T0)),
        );
        expect(new Set(read).size).toBe(1);
        expect(candidates).toContain(read[0]);
        expect(await second.getOrCreateSalt(name, randomBytes(32).toString('hex'), T0)).toBe(read[0]);
        expect(await state.getOrCreateSalt(uid('salt'), 'ab'.repeat(32), T0)).toBe('ab'.repeat(32));
      } finally {
        await second.close();
      }
    });
  });

  describe('orders', () => {
    /** Claims take any due order of the database, so each claiming test gets a database of its own. */
    async function freshState(): Promise<{ state: GatewayState; url: string; close: () => Promise<void> }> {
      const own = await engine.start();
      const opened = await openGatewayState(own.url);
      return {
        state: opened,
        url: own.url,
        close: async () => {
          await opened.close();
          await own.stop();
        },
      };
    }

    const newOrder = (overrides: Partial<NewOrder> = {}): NewOrder => ({
      id: `ord_${randomBytes(16).toString('hex')}`,
      sku: 'uk-2025-26',
      packName: 'UK tax pack 2025/26',
      packKind: 'uk-tax-year',
      taxYear: '2025/26',
      coldkeys: [
        '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
        '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty',
      ],
      amountMinor: 3900,
      currency: 'gbp',
      retentionDays: 30,
      origin: 'checkout',
      createdAt: T0,
      ...overrides,
    });

    const payment = (order: { id: string }, overrides: Partial<PaymentEvent> = {}): PaymentEvent => ({
      eventId: uid('evt'),
      eventType: 'checkout.session.completed',
      orderId: order.id,
      receivedAt: at('2025-03-15T10:05:00Z'),
      // Stripe's time of the payment: the event reached us 30 s after it.
      paidAt: at('2025-03-15T10:04:30Z'),
      amountMinor: 3900,
      currency: 'gbp',
      email: 'buyer@example.com',
      sessionId: 'cs_test_a1',
      ...overrides,
    });

    const lease = (worker: string, iso = '2025-03-15T11:00:00Z', maxAttempts = 5) => ({
      worker,
      now: at(iso),
      leaseUntil: new Date(at(iso).getTime() + 300_000),
      maxAttempts,
    });

    it('stores an order and reads it back exactly, with nothing set that has not happened', async () => {
      const order = newOrder();
      const stored = await state.orders.insertOrder(order);
      expect(stored).toEqual({
        ...order,
        status: 'created',
        stripeSessionId: null,
        paidAt: null,
        buyerEmail: null,
        fulfilAttempts: 0,
        nextAttemptAt: null,
        lastError: null,
        leaseOwner: null,
        leaseExpiresAt: null,
        fulfilledAt: null,
        packKey: null,
        packExpiresAt: null,
        emailedAt: null,
        purgedAt: null,
        buildProgress: null,
      });
      expect(await state.orders.getOrder(order.id)).toEqual(stored);
      expect(await state.orders.getOrder('ord_missing')).toBeNull();
      await expect(state.orders.insertOrder(order)).rejects.toThrow();
      expect(await state.orders.attachCheckoutSession(order.id, 'cs_test_x')).toBe(true);
      expect((await state.orders.getOrder(order.id))?.stripeSessionId).toBe('cs_test_x');
      const listed = await state.orders.listOrders({ status: 'created' });
      expect(listed.map((o) => o.id)).toContain(order.id);
      expect((await state.orders.listOrders({ status: 'fulfilled' })).map((o) => o.id)).not.toContain(
        order.id,
      );
    });

    it('moves created → paid once per order and once per event id; refuses a wrong amount or currency', async () => {
      const order = await state.orders.insertOrder(newOrder());
      const wrongAmount = payment(order, { amountMinor: 100 });
      expect(await state.orders.markPaid(wrongAmount)).toBe('amount-mismatch');
      expect(await state.orders.markPaid(payment(order, { currency: 'usd' }))).toBe('amount-mismatch');
      expect(await state.orders.markPaid(payment(order, { amountMinor: null }))).toBe('amount-mismatch');
      expect((await state.orders.getOrder(order.id))?.status).toBe('created');

      const event = payment(order);
      expect(await state.orders.markPaid(event)).toBe('paid');
      const paid = await state.orders.getOrder(order.id);
      expect(paid).toMatchObject({
        status: 'paid',
        // Stripe's time of the payment, not the time the event arrived.
        paidAt: at('2025-03-15T10:04:30Z'),
        buyerEmail: 'buyer@example.com',
        stripeSessionId: 'cs_test_a1',
      });
      // A replay of the event, or of the refused one, changes nothing.
      expect(await state.orders.markPaid({ ...event, receivedAt: at('2025-03-16T00:00:00Z') })).toBe(
        'duplicate-event',
      );
      expect(await state.orders.markPaid(wrongAmount)).toBe('duplicate-event');
      // Another event for the paid order: recorded, no change.
      expect(await state.orders.markPaid(payment(order, { email: 'other@example.com' }))).toBe(
        'not-awaiting-payment',
      );
      expect(await state.orders.getOrder(order.id)).toEqual(paid);
      expect(await state.orders.markPaid(payment({ id: 'ord_unknown' }))).toBe('unknown-order');
      expect(await state.orders.attachCheckoutSession(order.id, 'cs_test_late')).toBe(false);
    });

    it('processes one event delivered many times at once on two connections exactly once', async () => {
      const order = await state.orders.insertOrder(newOrder());
      const event = payment(order);
      const second = await openGatewayState(store.url);
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 12 }, (_, i) => (i % 2 ? state : second).orders.markPaid(event)),
        );
        expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'duplicate-event')).toHaveLength(11);
        // Different events for the same order, also at once: one pays, the others find it paid.
        const other = await state.orders.insertOrder(newOrder());
        const racing = await Promise.all(
          Array.from({ length: 8 }, (_, i) => (i % 2 ? state : second).orders.markPaid(payment(other))),
        );
        expect(racing.filter((o) => o === 'paid')).toHaveLength(1);
        expect(racing.filter((o) => o === 'not-awaiting-payment')).toHaveLength(7);
      } finally {
        await second.close();
      }
    });

    it('leases a paid order to one worker; completes only for the holder; a run-out lease can be taken over', async () => {
      const own = await freshState();
      try {
        const orders = own.state.orders;
        const created = await orders.insertOrder(newOrder());
        expect(await orders.claimForFulfilment(lease('w1'))).toBeNull();
        await orders.markPaid(payment(created));
        const claimed = await orders.claimForFulfilment(lease('w1'));
        expect(claimed).toMatchObject({
          id: created.id,
          leaseOwner: 'w1',
          fulfilAttempts: 1,
          leaseExpiresAt: at('2025-03-15T11:05:00Z'),
        });
        expect(await orders.claimForFulfilment(lease('w2'))).toBeNull();
        expect(
          await orders.renewLease(created.id, 'w2', at('2025-03-15T11:01:00Z'), at('2025-03-15T11:10:00Z')),
        ).toBe(false);
        // w1 stalls past its lease; w2 takes the order over and w1 can no longer renew or complete it.
        const takenOver = await orders.claimForFulfilment(lease('w2', '2025-03-15T11:05:00Z'));
        expect(takenOver).toMatchObject({ id: created.id, leaseOwner: 'w2', fulfilAttempts: 2 });
        expect(
          await orders.renewLease(created.id, 'w1', at('2025-03-15T11:05:01Z'), at('2025-03-15T11:20:00Z')),
        ).toBe(false);
        expect(
          await orders.renewLease(created.id, 'w2', at('2025-03-15T11:05:01Z'), at('2025-03-15T11:20:00Z')),
        ).toBe(true);
        const done = {
          id: created.id,
          fulfilledAt: at('2025-03-15T11:06:00Z'),
          packKey: `orders/${created.id}/pack.zip`,
          packExpiresAt: at('2025-04-14T11:06:00Z'),
        };
        expect(await orders.completeFulfilment({ ...done, worker: 'w1' })).toBe(false);
        expect(await orders.completeFulfilment({ ...done, worker: 'w2' })).toBe(true);
        expect(await orders.completeFulfilment({ ...done, worker: 'w2' })).toBe(false);
        expect(await orders.getOrder(created.id)).toMatchObject({
          status: 'fulfilled',
          fulfilledAt: done.fulfilledAt,
          packKey: done.packKey,
          packExpiresAt: done.packExpiresAt,
          leaseOwner: null,
          leaseExpiresAt: null,
        });
        expect(await orders.claimForFulfilment(lease('w3', '2025-03-16T00:00:00Z'))).toBeNull();
      } finally {
        await own.close();
      }
    });

    it('backs off after a failure and stops offering an order after the maximum number of tries', async () => {
      const own = await freshState();
      try {
        const orders = own.state.orders;
        const order = await orders.insertOrder(newOrder());
        await orders.markPaid(payment(order));
        await orders.claimForFulfilment(lease('w1', '2025-03-15T11:00:00Z', 2));
        await orders.releaseLease(order.id, 'w1', 'pack build failed: boom', at('2025-03-15T11:10:00Z'));
        expect(await orders.getOrder(order.id)).toMatchObject({
          leaseOwner: null,
          lastError: 'pack build failed: boom',
          nextAttemptAt: at('2025-03-15T11:10:00Z'),
        });
        expect(await orders.claimForFulfilment(lease('w1', '2025-03-15T11:09:59Z', 2))).toBeNull();
        expect(await orders.claimForFulfilment(lease('w1', '2025-03-15T11:10:00Z', 2))).toMatchObject({
          fulfilAttempts: 2,
        });
        await orders.releaseLease(order.id, 'w1', 'again', at('2025-03-15T11:20:00Z'));
        expect(await orders.claimForFulfilment(lease('w1', '2025-03-16T00:00:00Z', 2))).toBeNull();
        expect(await orders.claimForFulfilment(lease('w1', '2025-03-16T00:00:00Z', 3))).toMatchObject({
          fulfilAttempts: 3,
        });
      } finally {
        await own.close();
      }
    });

    it('gives concurrent workers on two connections each paid order exactly once', async () => {
      const own = await freshState();
      const second = await openGatewayState(own.url);
      try {
        const orders = own.state.orders;
        const ids: string[] = [];
        for (let i = 0; i < 10; i++) {
          const order = await orders.insertOrder(newOrder());
          await orders.markPaid(payment(order));
          ids.push(order.id);
        }
        const claims = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (i % 2 ? own.state : second).orders.claimForFulfilment(lease(`w${i}`)),
          ),
        );
        // Every order claimed, none twice: a claimer finds nothing only when each order is taken or being
        // taken (SKIP LOCKED skips rows another claim holds, and that claim takes them), so 16 claimers
        // leave no order of the 10 unclaimed.
        const claimed = claims.filter((c) => c !== null).map((c) => c!.id);
        expect([...claimed].sort()).toEqual([...ids].sort());
        expect(claims.filter((c) => c === null)).toHaveLength(6);
        // Each by the one worker whose claim returned it, and that worker holds no other.
        const byWorker = new Map(claims.flatMap((c, i) => (c ? [[c.id, `w${i}`] as const] : [])));
        const holders = (await orders.listOrders({ status: 'paid' })).filter((o) => o.leaseOwner !== null);
        expect(new Map(holders.map((o) => [o.id, o.leaseOwner]))).toEqual(byWorker);
        expect(new Set(byWorker.values()).size).toBe(10);
      } finally {
        await second.close();
        await own.close();
      }
    });

    it('leases delivery of a fulfilled order once, and purges an expired pack once, erasing the email', async () => {
      const own = await freshState();
      try {
        const orders = own.state.orders;
        const order = await orders.insertOrder(newOrder());
        await orders.markPaid(payment(order));
        await orders.claimForFulfilment(lease('w1'));
        expect(await orders.claimForDelivery(lease('m1'))).toBeNull();
        await orders.completeFulfilment({
          id: order.id,
          worker: 'w1',
          fulfilledAt: at('2025-03-15T11:01:00Z'),
          packKey: `orders/${order.id}/pack.zip`,
          packExpiresAt: at('2025-04-14T11:01:00Z'),
        });
        const delivering = await orders.claimForDelivery(lease('m1', '2025-03-15T11:02:00Z'));
        expect(delivering).toMatchObject({ id: order.id, leaseOwner: 'm1', buyerEmail: 'buyer@example.com' });
        expect(await orders.claimForDelivery(lease('m2', '2025-03-15T11:02:00Z'))).toBeNull();
        await orders.releaseLease(order.id, 'm1', 'smtp: connection refused', at('2025-03-15T11:03:00Z'));
        expect(await orders.claimForDelivery(lease('m2', '2025-03-15T11:02:30Z'))).toBeNull();
        expect(await orders.claimForDelivery(lease('m2', '2025-03-15T11:03:00Z'))).toMatchObject({
          leaseOwner: 'm2',
        });
        expect(await orders.markEmailed(order.id, 'm1', at('2025-03-15T11:03:01Z'))).toBe(false);
        expect(await orders.markEmailed(order.id, 'm2', at('2025-03-15T11:03:01Z'))).toBe(true);
        expect(await orders.claimForDelivery(lease('m3', '2025-03-16T00:00:00Z'))).toBeNull();

        expect(await orders.listExpiredPacks(at('2025-04-14T11:00:59Z'))).toEqual([]);
        const expired = await orders.listExpiredPacks(at('2025-04-14T11:01:00Z'));
        expect(expired.map((o) => o.id)).toEqual([order.id]);
        expect(await orders.markPurged(order.id, at('2025-04-15T00:00:00Z'))).toBe(true);
        expect(await orders.markPurged(order.id, at('2025-04-16T00:00:00Z'))).toBe(false);
        expect(await orders.getOrder(order.id)).toMatchObject({
          status: 'fulfilled',
          buyerEmail: null,
          purgedAt: at('2025-04-15T00:00:00Z'),
          emailedAt: at('2025-03-15T11:03:01Z'),
        });
        expect(await orders.listExpiredPacks(at('2025-05-01T00:00:00Z'))).toEqual([]);
      } finally {
        await own.close();
      }
    });
  });
});
