/**
 * The per-key, per-day use on both state engines: two tallies on one state stand for two gateway
 * instances. Each use is counted once, on its UTC day, with the key's latest use; a flush writes
 * everything counted before it; a write that fails is reported and its counts are tried again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../gateway/auth/accounts.js';
import { createApiKey } from '../../../gateway/auth/api-keys.js';
import { createKeyUseTally } from '../../../gateway/auth/key-use-tally.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';

const T0 = Date.parse('2026-11-01T23:59:59.500Z');

describe.each(STATE_ENGINES)('key-use tally on $name', (engine) => {
  let store: TestStateStore;
  let states: GatewayState[];
  const errors: unknown[] = [];

  beforeAll(async () => {
    store = await engine.start();
    states = [await openGatewayState(store.url), await openGatewayState(store.url)];
  }, 120_000);

  afterAll(async () => {
    for (const state of states ?? []) await state.close();
    await store?.stop();
  });

  const newKey = async () => {
    const auth = { state: states[0]!, now: () => new Date(T0) };
    const account = await createAccount(auth, 'api');
    const created = await createApiKey(auth, account.id);
    // The account page's details of the key, where its last use is kept.
    await states[0]!.billing.putKeyDetails({
      keyId: created.record.id,
      name: 'ci',
      lastFour: created.key.slice(-4),
      graceEndsAt: null,
      lastUsedAt: null,
    });
    return { accountId: account.id, keyId: created.record.id };
  };

  it('counts every use once, per key and UTC day, across two instances, with the latest use', async () => {
    const [a, b] = [await newKey(), await newKey()];
    const tallies = states.map((state) =>
      createKeyUseTally({ billing: state.billing, onError: (e) => errors.push(e) }),
    );
    // 300 uses of key a on each instance across midnight (UTC), 7 of key b on the second.
    for (let i = 0; i < 300; i++) {
      for (const tally of tallies) tally.count(a.keyId, a.accountId, T0 + i * 3);
    }
    for (let i = 0; i < 7; i++) tallies[1]!.count(b.keyId, b.accountId, T0 - 60_000);
    await Promise.all(tallies.map((tally) => tally.flush()));
    // 167 uses before 2026-11-02T00:00:00Z (i = 0..166), 133 after, on each instance.
    expect(await states[0]!.billing.keyUsage(a.accountId, '2026-11-01')).toEqual([
      { keyId: a.keyId, day: '2026-11-01', used: 334 },
      { keyId: a.keyId, day: '2026-11-02', used: 266 },
    ]);
    expect(await states[0]!.billing.keyUsage(b.accountId, '2026-11-01')).toEqual([
      { keyId: b.keyId, day: '2026-11-01', used: 7 },
    ]);
    const details = await states[1]!.billing.listKeyDetails(a.accountId);
    expect(details.find((d) => d.keyId === a.keyId)?.lastUsedAt).toEqual(new Date(T0 + 299 * 3));
    // Nothing is written twice: a second flush and closing add nothing.
    await tallies[0]!.flush();
    await Promise.all(tallies.map((tally) => tally.close()));
    expect((await states[0]!.billing.keyUsage(a.accountId, '2026-11-01')).map((row) => row.used)).toEqual([
      334, 266,
    ]);
    expect(errors).toEqual([]);
  });

  it('reports a write that fails without failing the flush, and keeps its counts for the next write', async () => {
    const key = await newKey();
    const closing = await openGatewayState(store.url);
    const failures: unknown[] = [];
    const tally = createKeyUseTally({ billing: closing.billing, onError: (e) => failures.push(e) });
    tally.count(key.keyId, key.accountId, T0);
    await closing.close();
    await tally.flush();
    expect(failures).toHaveLength(1);
    // Still held: the next write tries them again (and fails again on the closed connection).
    await tally.flush();
    expect(failures).toHaveLength(2);
    await tally.close();
    expect(await states[0]!.billing.keyUsage(key.accountId, '2026-11-01')).toEqual([]);
  });
});
