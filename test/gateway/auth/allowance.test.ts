import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countsAgainstAllowance, createAllowanceMeter } from '../../../gateway/auth/allowance.js';
import { billingPeriod } from '../../../gateway/auth/billing-period.js';
import { limitHeaders } from '../../../gateway/auth/limit-headers.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';

const ANCHOR = new Date('2025-03-15T10:00:00Z');
const NOW = new Date('2025-03-20T10:00:00Z');
const PERIOD = billingPeriod(ANCHOR, NOW);
const RESET_EPOCH = String(Date.parse('2025-04-15T10:00:00Z') / 1000);
const SECONDS_TO_RESET = (Date.parse('2025-04-15T10:00:00Z') - NOW.getTime()) / 1000;

describe('monthly allowance', () => {
  let dir: string;
  let state: GatewayState;
  let n = 0;
  const account = async () =>
    (
      await state.createAccount({
        id: `acc_allowance_${n++}`,
        plan: 'api',
        createdAt: ANCHOR,
        periodAnchor: ANCHOR,
      })
    ).id;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-allowance-'));
    state = await openGatewayState(`sqlite:${join(dir, 'state.sqlite')}`);
  });

  afterAll(async () => {
    await state?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts successes only: 2xx and 304 keep the reservation, 4xx and 5xx give it back', async () => {
    expect([200, 204, 299, 304].map(countsAgainstAllowance)).toEqual([true, true, true, true]);
    expect([301, 400, 401, 404, 422, 429, 500, 503].some(countsAgainstAllowance)).toBe(false);
    const id = await account();
    const meter = createAllowanceMeter({ state, limit: 10 });
    for (const status of [200, 304, 404, 500, 422]) await (await meter.reserve(id, PERIOD)).settle(status);
    expect(await state.getUsage(id, PERIOD.start)).toBe(2);
  });

  it('settles once, whatever the number of calls', async () => {
    const id = await account();
    const meter = createAllowanceMeter({ state, limit: 10 });
    const ticket = await meter.reserve(id, PERIOD);
    const first = await ticket.settle(500);
    expect(await ticket.settle(500)).toBe(first);
    expect(first.remaining).toBe(10);
    expect(await state.getUsage(id, PERIOD.start)).toBe(0);
  });

  it('reports the spec headers and the IETF draft-07 fields on a granted request', async () => {
    const id = await account();
    await state.setUsage(id, PERIOD.start, 9_000);
    const meter = createAllowanceMeter({ state, limit: 10_000 });
    const ticket = await meter.reserve(id, PERIOD);
    const settled = await ticket.settle(200);
    expect(limitHeaders(settled, NOW)).toEqual({
      'X-RateLimit-Limit': '10000',
      'X-RateLimit-Remaining': '999',
      'X-RateLimit-Reset': RESET_EPOCH,
      'RateLimit-Policy': `10000;w=${31 * 86_400}`,
      RateLimit: `limit=10000, remaining=999, reset=${SECONDS_TO_RESET}`,
    });
    // A failed request shows the slot given back.
    const failed = await (await meter.reserve(id, PERIOD)).settle(404);
    expect(limitHeaders(failed, NOW)['X-RateLimit-Remaining']).toBe('999');
  });

  it('refuses at the cap with Retry-After and the reset until the period rolls over', async () => {
    const id = await account();
    await state.setUsage(id, PERIOD.start, 10_000);
    const meter = createAllowanceMeter({ state, limit: 10_000 });
    const ticket = await meter.reserve(id, PERIOD);
    expect(ticket.decision.allowed).toBe(false);
    const headers = limitHeaders(await ticket.settle(429), NOW);
    expect(headers).toMatchObject({
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': RESET_EPOCH,
      'Retry-After': String(SECONDS_TO_RESET),
    });
    expect(await state.getUsage(id, PERIOD.start)).toBe(10_000);
    const next = billingPeriod(ANCHOR, new Date('2025-04-15T10:00:00Z'));
    const renewed = await meter.reserve(id, next);
    expect(renewed.decision).toMatchObject({
      allowed: true,
      remaining: 9_999,
      resetAt: new Date('2025-05-15T10:00:00Z'),
    });
  });

  it('peeks without counting', async () => {
    const id = await account();
    const meter = createAllowanceMeter({ state, limit: 5 });
    await (await meter.reserve(id, PERIOD)).settle(200);
    expect(await meter.peek(id, PERIOD)).toMatchObject({ allowed: true, remaining: 4 });
    expect(await state.getUsage(id, PERIOD.start)).toBe(1);
  });

  it('never reports a negative remaining count, and Retry-After is at least one second', () => {
    const headers = limitHeaders(
      { allowed: false, limit: 5, remaining: -3, resetAt: new Date(NOW.getTime() + 200), windowSeconds: 60 },
      NOW,
    );
    expect(headers['X-RateLimit-Remaining']).toBe('0');
    expect(headers['Retry-After']).toBe('1');
  });
});
