import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitHeaders } from '../../../gateway/auth/limit-headers.js';
import {
  createPublicLimiter,
  createWindowLimiter,
  DEFAULT_PUBLIC_LIMIT_PER_MIN,
} from '../../../gateway/auth/window-limiter.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';

describe('per-IP window limiter', () => {
  let dir: string;
  let state: GatewayState;
  let clock = new Date('2025-03-15T10:00:30Z');
  const now = () => clock;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-window-'));
    state = await openGatewayState(`sqlite:${join(dir, 'state.sqlite')}`);
  });

  afterAll(async () => {
    await state?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('allows the per-minute limit per address, then refuses with the 429 headers until the next minute', async () => {
    clock = new Date('2025-03-15T10:00:30Z');
    const limiter = createPublicLimiter({ state, limitPerMinute: 3, now });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.hit('192.0.2.1'));
    expect(decisions.map((d) => d?.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d?.remaining)).toEqual([2, 1, 0, 0]);
    expect(limitHeaders(decisions[3]!, clock)).toEqual({
      'X-RateLimit-Limit': '3',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Date.parse('2025-03-15T10:01:00Z') / 1000),
      'RateLimit-Policy': '3;w=60',
      RateLimit: 'limit=3, remaining=0, reset=30',
      'Retry-After': '30',
    });
    expect((await limiter.hit('192.0.2.2'))?.allowed).toBe(true);
    clock = new Date('2025-03-15T10:01:00Z');
    expect(await limiter.hit('192.0.2.1')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('refuses an address over its limit from memory until the window ends, without the shared state', async () => {
    clock = new Date('2025-03-15T12:00:05Z');
    const own = await openGatewayState(`sqlite:${join(dir, 'flood.sqlite')}`);
    const limiter = createPublicLimiter({ state: own, limitPerMinute: 2, now });
    for (let i = 0; i < 2; i++) expect((await limiter.hit('203.0.113.5'))?.allowed).toBe(true);
    const fromState = await limiter.hit('203.0.113.5');
    // With the state gone, the refused address is still refused, with the same decision...
    await own.close();
    clock = new Date('2025-03-15T12:00:40Z');
    expect(await limiter.hit('203.0.113.5')).toEqual(fromState);
    expect(fromState).toMatchObject({ allowed: false, remaining: 0 });
    // ...while anything that needs the state (another address, the next window) still asks it.
    await expect(limiter.hit('203.0.113.6')).rejects.toThrow();
    clock = new Date('2025-03-15T12:01:00Z');
    await expect(limiter.hit('203.0.113.5')).rejects.toThrow();
  });

  it('is off at 0 and defaults to a documented figure', async () => {
    const off = createPublicLimiter({ state, limitPerMinute: 0, now });
    for (let i = 0; i < 5; i++) expect(await off.hit('192.0.2.9')).toBeNull();
    expect(DEFAULT_PUBLIC_LIMIT_PER_MIN).toBe(60);
  });

  it('keeps limiters with different names and windows apart when it prunes', async () => {
    clock = new Date('2025-03-15T11:00:10Z');
    const tax = createWindowLimiter({ state, name: 'tax', limit: 2, windowSeconds: 3600, now });
    const pub = createPublicLimiter({ state, limitPerMinute: 2, now });
    await tax.hit('198.51.100.7');
    await pub.hit('198.51.100.7');
    // A minute later the public limiter prunes its expired window; the hourly tax window stays.
    clock = new Date('2025-03-15T11:01:10Z');
    await pub.hit('198.51.100.7');
    expect(await tax.hit('198.51.100.7')).toMatchObject({ allowed: true, remaining: 0 });
    expect(await tax.hit('198.51.100.7')).toMatchObject({ allowed: false });
  });
});
