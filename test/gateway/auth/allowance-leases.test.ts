/**
 * Allowance leases on both state engines: two meters on one state stand for two gateway instances.
 * Exactly the allowance is granted, whatever mix of leases and shared counting serves it; failures
 * give their unit back; an instance that dies holding a lease costs the account at most that lease's
 * unspent part and never grants extra.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AllowanceMeter,
  createAllowanceMeter,
  type LeaseOptions,
} from '../../../gateway/auth/allowance.js';
import { billingPeriod } from '../../../gateway/auth/billing-period.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';

const ANCHOR = new Date('2025-03-15T10:00:00Z');
const LEASE: LeaseOptions = { units: 50, keepFree: 200, lifetimeMs: 300, graceMs: 300, retryMs: 10 };

describe.each(STATE_ENGINES)('allowance leases on $name', (engine) => {
  let store: TestStateStore;
  let states: GatewayState[];
  let n = 0;
  const period = () => billingPeriod(ANCHOR, new Date());
  const account = async () =>
    (
      await states[0]!.createAccount({
        id: `acc_lease_${engine.name}_${n++}`,
        plan: 'api',
        createdAt: ANCHOR,
        periodAnchor: ANCHOR,
      })
    ).id;

  beforeAll(async () => {
    store = await engine.start();
    // Two connections: two gateway instances sharing one state.
    states = [await openGatewayState(store.url), await openGatewayState(store.url)];
  }, 120_000);

  afterAll(async () => {
    for (const state of states ?? []) await state.close();
    await store?.stop();
  });

  /** 64 clients per meter, each requesting until its first refusal; the successes in total. */
  async function drain(meters: AllowanceMeter[], accountId: string): Promise<number> {
    let granted = 0;
    const client = async (meter: AllowanceMeter) => {
      for (;;) {
        const ticket = await meter.reserve(accountId, period());
        if (!ticket.decision.allowed) return;
        await ticket.settle(200);
        granted += 1;
      }
    };
    await Promise.all(meters.flatMap((meter) => Array.from({ length: 64 }, () => client(meter))));
    return granted;
  }

  it('two instances and 128 clients get exactly the allowance, then only refusals', async () => {
    const id = await account();
    const limit = 2_000;
    const meters = states.map((state) => createAllowanceMeter({ state, limit, lease: LEASE }));
    expect(await drain(meters, id)).toBe(limit);
    for (const meter of meters) expect((await meter.reserve(id, period())).decision.allowed).toBe(false);
    await Promise.all(meters.map((meter) => meter.close()));
    expect(await states[0]!.getUsage(id, period().start)).toBe(limit);
  }, 120_000);

  it('counts in memory under a lease: one shared write per lease, failures give their unit back', async () => {
    const id = await account();
    const meter = createAllowanceMeter({ state: states[0]!, limit: 10_000, lease: LEASE });
    const first = await meter.reserve(id, period());
    expect(first.decision.remaining).toBe(9_999);
    // The whole lease is counted in the shared state at once.
    expect(await states[1]!.getUsage(id, period().start)).toBe(LEASE.units);
    await first.settle(200);
    const failed = await (await meter.reserve(id, period())).settle(404);
    expect(failed.remaining).toBe(9_999);
    const ok = await meter.reserve(id, period());
    expect(ok.decision.remaining).toBe(9_998);
    await ok.settle(304);
    await meter.close();
    expect(await states[1]!.getUsage(id, period().start)).toBe(2);
  });

  it("shows what was used, never a lease's unspent units: this instance's spent part at once, another's once settled", async () => {
    const id = await account();
    const [here, there] = states.map((state) => createAllowanceMeter({ state, limit: 10_000, lease: LEASE }));
    await (await here!.reserve(id, period())).settle(200);
    // The shared counter holds the whole lease; what the holder is shown is the one request.
    expect(await states[0]!.getUsage(id, period().start)).toBe(LEASE.units);
    expect(await here!.used(id, period())).toBe(1);
    expect(await states[1]!.getSettledUsage(id, period().start, new Date())).toBe(0);
    for (let i = 0; i < 3; i++) await (await there!.reserve(id, period())).settle(200);
    // Each instance sees its own spent part at once, the other's once that lease is settled.
    expect(await here!.used(id, period())).toBe(1);
    expect(await there!.used(id, period())).toBe(3);
    await there!.close();
    expect(await here!.used(id, period())).toBe(4);
    await here!.close();
    expect(await states[1]!.getSettledUsage(id, period().start, new Date())).toBe(4);
    expect(await states[1]!.getUsage(id, period().start)).toBe(4);
  });

  it('grows the lease of a busy account, and keeps it at the configured size near the cap', async () => {
    const id = await account();
    // A long lifetime: every lease below is spent well within a quarter of it.
    const slow: LeaseOptions = { ...LEASE, lifetimeMs: 20_000, graceMs: 1_000 };
    const meter = createAllowanceMeter({ state: states[0]!, limit: 1_000, lease: slow });
    const spend = async (n: number) => {
      for (let i = 0; i < n; i++) await (await meter.reserve(id, period())).settle(200);
    };
    await spend(LEASE.units);
    expect(await states[1]!.getUsage(id, period().start)).toBe(LEASE.units);
    // The first lease was spent at once: the next is twice as large.
    await spend(1);
    expect(await states[1]!.getUsage(id, period().start)).toBe(3 * LEASE.units);
    await spend(2 * LEASE.units - 1);
    // Four times would leave less than its margin (4 × keepFree) below the cap of 1,000: the configured size.
    await spend(1);
    expect(await states[1]!.getUsage(id, period().start)).toBe(4 * LEASE.units);
    await meter.close();
    expect(await states[1]!.getUsage(id, period().start)).toBe(3 * LEASE.units + 1);
  });

  it('gives the unspent part back after its lifetime, idle or not', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Idle: one request, then nothing.
    const idle = await account();
    const meter = createAllowanceMeter({ state: states[0]!, limit: 10_000, lease: LEASE });
    await (await meter.reserve(idle, period())).settle(200);
    await sleep(LEASE.lifetimeMs + 200);
    expect(await states[1]!.getUsage(idle, period().start)).toBe(1);

    // Busy: a request every 20 ms for 1.5 lifetimes, fewer than a lease's units in all, so one lease
    // kept open would have served them all. The first lease is settled at its lifetime all the same: its
    // spent part shows as settled on the other instance while the second lease is still open.
    const busy = await account();
    let granted = 0;
    for (const started = performance.now(); performance.now() - started < 1.5 * LEASE.lifetimeMs; ) {
      await sleep(20);
      const ticket = await meter.reserve(busy, period());
      expect(ticket.decision.allowed).toBe(true);
      await ticket.settle(200);
      granted += 1;
    }
    expect(granted).toBeLessThan(LEASE.units);
    const settled = await states[1]!.getSettledUsage(busy, period().start, new Date());
    expect(settled).toBeGreaterThan(0);
    expect(settled).toBeLessThan(granted);
    expect(await meter.used(busy, period())).toBe(granted);
    // Then idle: the second lease's unspent part comes back too.
    await sleep(LEASE.lifetimeMs + 200);
    expect(await states[1]!.getUsage(busy, period().start)).toBe(granted);
    await meter.close();
  });

  it('an instance that dies holding a lease loses at most its unspent part, never grants extra', async () => {
    const id = await account();
    const limit = 1_000;
    // The dying instance: its own connection, closed while it holds a lease (its settle then fails).
    const doomed = await openGatewayState(store.url);
    const dying = createAllowanceMeter({ state: doomed, limit, lease: LEASE });
    for (let i = 0; i < 10; i++) await (await dying.reserve(id, period())).settle(200);
    await doomed.close();
    const survivor = createAllowanceMeter({ state: states[1]!, limit, lease: LEASE });
    const granted = 10 + (await drain([survivor], id));
    await survivor.close();
    expect(granted).toBeLessThanOrEqual(limit);
    expect(granted).toBe(limit - (LEASE.units - 10));
    expect(await states[0]!.getUsage(id, period().start)).toBe(limit);
  }, 120_000);
});
