import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeIp, parseForwardedEntry, resolveClientIp } from '../../../gateway/auth/client-ip.js';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { type RunningGateway, startGateway } from '../../../gateway/server.js';

const SOCKET = '10.0.0.5';
const headers = (forwardedFor?: string) =>
  new Headers(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor });

describe('resolveClientIp', () => {
  it("counts the socket's address when no proxy is trusted, whatever the header says", () => {
    expect(resolveClientIp(SOCKET, headers('198.51.100.7'), 0)).toBe(SOCKET);
    expect(resolveClientIp(undefined, headers(), 0)).toBe('unknown');
  });

  it('takes the N-th entry from the right behind N trusted proxies', () => {
    const chain = '203.0.113.9, 198.51.100.7, 192.0.2.44';
    expect(resolveClientIp(SOCKET, headers(chain), 1)).toBe('192.0.2.44');
    expect(resolveClientIp(SOCKET, headers(chain), 2)).toBe('198.51.100.7');
    expect(resolveClientIp(SOCKET, headers(chain), 3)).toBe('203.0.113.9');
  });

  it('reads several headers as Node and fetch join them, with or without spaces', () => {
    const joined = new Headers();
    joined.append('x-forwarded-for', '203.0.113.9');
    joined.append('x-forwarded-for', '198.51.100.7');
    expect(joined.get('x-forwarded-for')).toBe('203.0.113.9, 198.51.100.7');
    expect(resolveClientIp(SOCKET, joined, 1)).toBe('198.51.100.7');
    expect(resolveClientIp(SOCKET, joined, 2)).toBe('203.0.113.9');
    expect(resolveClientIp(SOCKET, headers('203.0.113.9,198.51.100.7'), 2)).toBe('203.0.113.9');
  });

  it('falls back to the socket when the header is absent or shorter than the trusted chain', () => {
    expect(resolveClientIp(SOCKET, headers(), 1)).toBe(SOCKET);
    expect(resolveClientIp(SOCKET, headers(''), 1)).toBe(SOCKET);
    expect(resolveClientIp(SOCKET, headers('198.51.100.7'), 2)).toBe(SOCKET);
  });

  it('falls back to the socket when a trusted entry is malformed', () => {
    for (const bad of [
      'unknown',
      'garbage',
      '198.51.100.7, ',
      '1.2.3.4.5',
      '300.1.1.1',
      '198.51.100.7:99999',
    ]) {
      expect(resolveClientIp(SOCKET, headers(bad), 1), bad).toBe(SOCKET);
    }
    // The second entry from the right is trusted at N = 2, so its garbage counts.
    expect(resolveClientIp(SOCKET, headers('nonsense, 198.51.100.7'), 2)).toBe(SOCKET);
    expect(resolveClientIp(SOCKET, headers('198.51.100.7,,192.0.2.44'), 2)).toBe(SOCKET);
  });

  it('ignores what the client wrote left of the trusted entries, so it cannot pick its own key', () => {
    expect(resolveClientIp(SOCKET, headers('not-an-ip, 192.0.2.44'), 1)).toBe('192.0.2.44');
    expect(resolveClientIp(SOCKET, headers('203.0.113.1, 192.0.2.44'), 1)).toBe('192.0.2.44');
  });

  it('accepts IPv6 and drops ports, normalising mapped IPv4', () => {
    expect(resolveClientIp(SOCKET, headers('2001:DB8::1'), 1)).toBe('2001:db8::1');
    expect(resolveClientIp(SOCKET, headers('[2001:db8::1]:443'), 1)).toBe('2001:db8::1');
    expect(resolveClientIp(SOCKET, headers('[2001:db8::1]'), 1)).toBe('2001:db8::1');
    expect(resolveClientIp(SOCKET, headers('198.51.100.7:4711'), 1)).toBe('198.51.100.7');
    expect(resolveClientIp(SOCKET, headers('::ffff:198.51.100.7'), 1)).toBe('198.51.100.7');
    expect(resolveClientIp('::ffff:127.0.0.1', headers(), 0)).toBe('127.0.0.1');
  });

  it('parses single entries strictly', () => {
    expect(parseForwardedEntry(' 192.0.2.1 ')).toBe('192.0.2.1');
    expect(parseForwardedEntry('[192.0.2.1]:80')).toBeNull();
    expect(parseForwardedEntry('2001:db8::1:80')).toBe('2001:db8::1:80');
    expect(parseForwardedEntry('192.0.2.1:')).toBeNull();
    expect(parseForwardedEntry('192.0.2.1 extra')).toBeNull();
    expect(parseForwardedEntry('"192.0.2.1"')).toBeNull();
    expect(normalizeIp('::FFFF:192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('SBM_TRUST_PROXY', () => {
  it('defaults to 0 and refuses a negative or non-integer value', () => {
    expect(loadGatewayConfig({}).trustProxy).toBe(0);
    expect(loadGatewayConfig({ SBM_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => loadGatewayConfig({ SBM_TRUST_PROXY: '-1' })).toThrow(/SBM_TRUST_PROXY/);
    expect(() => loadGatewayConfig({ SBM_TRUST_PROXY: 'yes' })).toThrow(/SBM_TRUST_PROXY/);
  });
});

/**
 * The public per-IP limit through the real Node server: every request comes from one socket address
 * (this test, standing in for a proxy), and `X-Forwarded-For` names two different callers. No run is
 * published, so an admitted request answers 503 and a limited one 429: the limit is checked first.
 */
describe('the public per-IP limit behind a proxy', () => {
  let dir: string;
  const clock = new Date('2025-03-15T10:00:05Z');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-client-ip-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function gateway(trustProxy: string, name: string): Promise<RunningGateway> {
    const config = loadGatewayConfig({
      SBM_PORT: '0',
      SBM_STATE_URL: `sqlite:${join(dir, `${name}.sqlite`)}`,
      SBM_STORE_URL: `file:${join(dir, 'empty-store')}`,
      SBM_PUBLIC_LIMIT_PER_MIN: '2',
      SBM_TRUST_PROXY: trustProxy,
    });
    return startGateway(config, { now: () => clock, log: () => {}, onError: () => {} });
  }

  async function statuses(gw: RunningGateway, forwardedFor: string, count: number): Promise<number[]> {
    const seen = [];
    for (let i = 0; i < count; i++) {
      const response = await fetch(`${gw.url}/api/v1/subnets`, {
        headers: { 'x-forwarded-for': forwardedFor },
      });
      await response.arrayBuffer();
      seen.push(response.status);
    }
    return seen;
  }

  it('gives two callers behind one trusted proxy separate limits', async () => {
    const gw = await gateway('1', 'trusted');
    try {
      expect(await statuses(gw, '198.51.100.1', 3)).toEqual([503, 503, 429]);
      // The client's own forged entry on the left changes nothing: the proxy's entry is read.
      expect(await statuses(gw, '203.0.113.50, 198.51.100.1', 1)).toEqual([429]);
      expect(await statuses(gw, '198.51.100.2', 3)).toEqual([503, 503, 429]);
    } finally {
      await gw.close();
    }
  });

  it('counts both callers as the proxy when no proxy is trusted', async () => {
    const gw = await gateway('0', 'untrusted');
    try {
      expect(await statuses(gw, '198.51.100.1', 2)).toEqual([503, 503]);
      expect(await statuses(gw, '198.51.100.2', 1)).toEqual([429]);
    } finally {
      await gw.close();
    }
  });
});
