/**
 * The billing part of the GatewayState contract (migration 5) on a SQLite file and a fresh PostgreSQL
 * schema, with two connections each: email tokens are single use, one email makes one account, one
 * checkout claim per account, paid periods only move forward, Stripe event ids are processed once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayState } from '../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { STATE_ENGINES, type TestStateStore } from '../gateway/state/state-engines.js';

const T0 = new Date('2026-11-01T10:00:00.123Z');
const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);
const uid = (prefix: string) => `${prefix}_${randomUUID().slice(0, 12)}`;

describe.each(STATE_ENGINES)('GatewayState billing: $name', (engine) => {
  let store: TestStateStore;
  let state: GatewayState;
  let other: GatewayState;

  beforeAll(async () => {
    store = await engine.start();
    process.stderr.write(`[billing state] engine ${store.label}\n`);
    state = await openGatewayState(store.url);
    other = await openGatewayState(store.url);
  });

  afterAll(async () => {
    await other?.close();
    await state?.close();
    await store?.stop();
  });

  it('redeems an email token once, across connections, and never after its expiry', async () => {
    const hash = randomUUID().replaceAll('-', '').padEnd(64, 'a');
    const token = await state.billing.insertEmailToken({
      id: uid('tok'),
      email: 'dev@example.com',
      hash,
      createdAt: T0,
      expiresAt: at(15 * MINUTE),
      usedAt: null,
    });
    const results = await Promise.all([
      state.billing.redeemEmailToken(hash, at(MINUTE)),
      other.billing.redeemEmailToken(hash, at(MINUTE)),
    ]);
    expect(results.filter((r) => r.redeemed)).toHaveLength(1);
    expect(await state.billing.redeemEmailToken(hash, at(2 * MINUTE))).toEqual({
      redeemed: false,
      token: { ...token, usedAt: at(MINUTE) },
    });
    const late = randomUUID().replaceAll('-', '').padEnd(64, 'b');
    await state.billing.insertEmailToken({ ...token, id: uid('tok'), hash: late });
    expect(await state.billing.redeemEmailToken(late, at(15 * MINUTE))).toMatchObject({ redeemed: false });
  });

  it('makes one account per email, also when two confirmations race', async () => {
    const email = `${uid('u')}@example.com`;
    const [a, b] = await Promise.all([
      state.billing.findOrCreateEmailAccount(email, uid('acc'), T0),
      other.billing.findOrCreateEmailAccount(email, uid('acc'), T0),
    ]);
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({
      email,
      plan: 'api',
      billing: 'stripe',
      paidPeriodStart: null,
      paidPeriodEnd: null,
    });
    expect(await state.getAccount(a.id)).toEqual(a);
  });

  it('lets one of two concurrent checkout claims win, and an expired claim be taken over', async () => {
    const account = await state.billing.findOrCreateEmailAccount(`${uid('u')}@example.com`, uid('acc'), T0);
    const claims = await Promise.all([
      state.billing.claimCheckout(account.id, T0, at(30 * MINUTE)),
      other.billing.claimCheckout(account.id, T0, at(30 * MINUTE)),
    ]);
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    await state.billing.setCheckoutSession(account.id, 'cs_test_1', 'https://pay/1');
    expect(await other.billing.claimCheckout(account.id, at(MINUTE), at(31 * MINUTE))).toEqual({
      claimed: false,
      claim: {
        accountId: account.id,
        claimedAt: T0,
        expiresAt: at(30 * MINUTE),
        sessionId: 'cs_test_1',
        url: 'https://pay/1',
      },
    });
    expect(await other.billing.claimCheckout(account.id, at(30 * MINUTE), at(60 * MINUTE))).toEqual({
      claimed: true,
    });
  });

  it('moves the paid period only forward, and a key sees it on its next request', async () => {
    const account = await state.billing.findOrCreateEmailAccount(`${uid('u')}@example.com`, uid('acc'), T0);
    await state.insertKeyWithinLimit(
      {
        id: uid('key'),
        accountId: account.id,
        prefix: `sbm_live_${uid('p').slice(2, 8)}`,
        hash: randomUUID().replaceAll('-', '').padEnd(64, 'c'),
        createdAt: T0,
        revokedAt: null,
        expiresAt: null,
      },
      3,
      T0,
    );
    const [key] = await state.listKeys(account.id);
    const before = await state.findKeyCandidates(key!.prefix);
    expect(before[0]!.account.paidPeriodEnd).toBeNull();
    const p1 = { start: at(0), end: at(30 * 24 * 60 * MINUTE) };
    const p2 = { start: p1.end, end: at(61 * 24 * 60 * MINUTE) };
    expect(await state.billing.extendPaidPeriod(account.id, p2.start, p2.end)).toMatchObject({
      paidPeriodStart: p2.start,
      paidPeriodEnd: p2.end,
    });
    // A late delivery of the older invoice changes nothing.
    expect(await other.billing.extendPaidPeriod(account.id, p1.start, p1.end)).toMatchObject({
      paidPeriodStart: p2.start,
      paidPeriodEnd: p2.end,
    });
    const after = await state.findKeyCandidates(key!.prefix);
    expect(after[0]!.account.paidPeriodEnd).toEqual(p2.end);
    await state.billing.expireKeyAt(key!.id, at(60 * MINUTE));
    expect((await other.getKey(key!.id))!.expiresAt).toEqual(at(60 * MINUTE));
  });

  it('records a Stripe event id once', async () => {
    const id = uid('evt');
    const results = await Promise.all([
      state.billing.recordStripeEvent(id, 'invoice.paid', T0),
      other.billing.recordStripeEvent(id, 'invoice.paid', T0),
    ]);
    expect(results.sort()).toEqual([false, true]);
    await state.billing.forgetStripeEvent(id);
    expect(await state.billing.recordStripeEvent(id, 'invoice.paid', T0)).toBe(true);
  });

  it('counts key use per UTC day and keeps the latest use; lists key events newest first', async () => {
    const account = await state.billing.findOrCreateEmailAccount(`${uid('u')}@example.com`, uid('acc'), T0);
    const keyId = uid('key');
    await state.insertKeyWithinLimit(
      {
        id: keyId,
        accountId: account.id,
        prefix: 'sbm_live_abcdef',
        hash: randomUUID().replaceAll('-', '').padEnd(64, 'd'),
        createdAt: T0,
        revokedAt: null,
        expiresAt: null,
      },
      3,
      T0,
    );
    await state.billing.putKeyDetails({
      keyId,
      name: 'ci',
      lastFour: 'WXYZ',
      graceEndsAt: null,
      lastUsedAt: null,
    });
    await Promise.all([
      state.billing.recordKeyUse(keyId, account.id, '2026-11-01', at(2 * MINUTE)),
      other.billing.recordKeyUse(keyId, account.id, '2026-11-01', at(MINUTE)),
      state.billing.recordKeyUse(keyId, account.id, '2026-11-02', at(24 * 60 * MINUTE)),
    ]);
    expect(await other.billing.keyUsage(account.id, '2026-11-01')).toEqual([
      { keyId, day: '2026-11-01', used: 2 },
      { keyId, day: '2026-11-02', used: 1 },
    ]);
    expect((await other.billing.listKeyDetails(account.id))[0]).toMatchObject({
      name: 'ci',
      lastUsedAt: at(24 * 60 * MINUTE),
    });
    for (const [i, kind] of (['created', 'rolled', 'revoked'] as const).entries()) {
      await state.billing.insertKeyEvent({
        id: uid('kev'),
        accountId: account.id,
        keyId,
        kind,
        keyPrefix: 'sbm_live_abcdef',
        ip: '203.0.113.9',
        at: at(i * MINUTE),
      });
    }
    expect((await other.billing.listKeyEvents(account.id, 10)).map((e) => e.kind)).toEqual([
      'revoked',
      'rolled',
      'created',
    ]);
  });
});
