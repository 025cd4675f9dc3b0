/**
 * The sign-in link part of the GatewayState contract (migration 4), on a SQLite file and a fresh
 * PostgreSQL schema: a link is redeemed once, also when many redemptions race on two connections;
 * expired and unknown links are told apart; pruning removes only expired links.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayState, SignInLinkRecord } from '../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { STATE_ENGINES, type TestStateStore } from '../gateway/state/state-engines.js';

const T0 = new Date('2025-03-15T10:00:00.123Z');
const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);

describe.each(STATE_ENGINES)('GatewayState sign-in links: $name', (engine) => {
  let store: TestStateStore;
  let state: GatewayState;
  let other: GatewayState;

  beforeAll(async () => {
    store = await engine.start();
    process.stderr.write(`[sign-in-link state] engine ${store.label}\n`);
    state = await openGatewayState(store.url);
    other = await openGatewayState(store.url);
  });

  afterAll(async () => {
    await other?.close();
    await state?.close();
    await store?.stop();
  });

  async function newLink(overrides: Partial<SignInLinkRecord> = {}): Promise<SignInLinkRecord> {
    const account = await state.createAccount({
      id: `acc_${randomUUID().slice(0, 12)}`,
      plan: 'subscriber',
      createdAt: T0,
      periodAnchor: T0,
    });
    return state.insertSignInLink({
      id: `lnk_${randomUUID().slice(0, 12)}`,
      accountId: account.id,
      hash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
      sessionDays: 30,
      createdAt: T0,
      expiresAt: at(15 * MINUTE),
      usedAt: null,
      ...overrides,
    });
  }

  it('stores a link exactly and redeems it once; a second redemption sees it used', async () => {
    const link = await newLink();
    expect(link).toMatchObject({ sessionDays: 30, createdAt: T0, expiresAt: at(15 * MINUTE), usedAt: null });
    const first = await state.redeemSignInLink(link.hash, at(MINUTE));
    expect(first).toEqual({ redeemed: true, link: { ...link, usedAt: at(MINUTE) } });
    const second = await other.redeemSignInLink(link.hash, at(2 * MINUTE));
    expect(second).toEqual({ redeemed: false, link: { ...link, usedAt: at(MINUTE) } });
  });

  it('does not redeem at or after the expiry, and says so by returning the unused row', async () => {
    const link = await newLink();
    expect(await state.redeemSignInLink(link.hash, at(15 * MINUTE))).toEqual({ redeemed: false, link });
    expect(await state.redeemSignInLink(link.hash, at(15 * MINUTE - 1))).toMatchObject({ redeemed: true });
  });

  it('answers an unknown hash with no row', async () => {
    expect(await state.redeemSignInLink('f'.repeat(64), T0)).toEqual({ redeemed: false, link: null });
  });

  it('refuses two links with the same hash', async () => {
    const link = await newLink();
    await expect(newLink({ hash: link.hash })).rejects.toThrow();
  });

  it('lets exactly one of many concurrent redemptions on two connections succeed', async () => {
    for (let round = 0; round < 3; round++) {
      const link = await newLink();
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) => (i % 2 ? other : state).redeemSignInLink(link.hash, at(MINUTE))),
      );
      expect(results.filter((result) => result.redeemed)).toHaveLength(1);
      for (const result of results) expect(result.link?.usedAt).toEqual(at(MINUTE));
    }
  });

  it('prunes links that expired before a time, and only those', async () => {
    const old = await newLink({ expiresAt: at(-2 * MINUTE) });
    const current = await newLink();
    expect(await state.pruneSignInLinks(at(-MINUTE))).toBeGreaterThanOrEqual(1);
    expect((await state.redeemSignInLink(old.hash, T0)).link).toBeNull();
    expect((await state.redeemSignInLink(current.hash, T0)).redeemed).toBe(true);
  });
});
