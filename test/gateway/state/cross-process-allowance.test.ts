/**
 * The allowance holds across processes: two processes, each firing 64 concurrent reservations at one
 * account that is 100 requests short of its cap, get exactly 100 grants between them, and no result
 * reports a remaining count below zero. Run against PostgreSQL (the multi-instance deployment) and
 * against one SQLite file shared by two processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { type BurstProcess, startBurstProcess } from './burst-process.js';
import { STATE_ENGINES, type TestStateStore } from './state-engines.js';

const LIMIT = 10_000;
const PERIOD = new Date('2025-03-15T10:00:00Z');

describe.each(STATE_ENGINES)('allowance across two processes: $name', (engine) => {
  let store: TestStateStore;
  let state: GatewayState;
  const children: BurstProcess[] = [];

  beforeAll(async () => {
    store = await engine.start();
    process.stderr.write(`[cross-process allowance] engine ${store.label}\n`);
    state = await openGatewayState(store.url);
  });

  afterAll(async () => {
    for (const child of children) child.kill();
    await state?.close();
    await store?.stop();
  });

  it('grants exactly the 100 remaining requests to 2 × 64 concurrent reservations', async () => {
    const account = await state.createAccount({
      id: `acc_burst_${engine.name}`,
      plan: 'api',
      createdAt: PERIOD,
      periodAnchor: PERIOD,
    });
    await state.setUsage(account.id, PERIOD, LIMIT - 100);

    const burst = { url: store.url, accountId: account.id, periodStart: PERIOD, limit: LIMIT, count: 64 };
    const started = await Promise.all([startBurstProcess(burst), startBurstProcess(burst)]);
    children.push(...started);
    const [first, second] = await Promise.all(started.map((child) => child.fire()));
    const results = [...(first ?? []), ...(second ?? [])];

    expect(results).toHaveLength(128);
    const granted = results.filter((r) => r.granted);
    expect(granted).toHaveLength(100);
    // Each grant took a distinct slot: the counts 9,901 … 10,000 each appear once.
    expect(new Set(granted.map((r) => r.used)).size).toBe(100);
    expect(Math.max(...granted.map((r) => r.used))).toBe(LIMIT);
    expect(results.every((r) => r.remaining >= 0)).toBe(true);
    expect(results.filter((r) => !r.granted).every((r) => r.remaining === 0 && r.used === LIMIT)).toBe(true);
    expect(await state.getUsage(account.id, PERIOD)).toBe(LIMIT);
  });
});
