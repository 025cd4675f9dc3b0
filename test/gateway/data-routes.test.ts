/**
 * Every data route through `app.fetch` against a published sandbox run, with both state engines:
 * happy, error and security cases, the allowance and its headers, caching, freshness and logs.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HTTPValidationError,
  SubnetDetail,
  SubnetHistory,
  SubnetList,
} from '../../pipeline/contract/index.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../support/gateway-under-test.js';
import { BASE_URL, NOW_MS, publishedSandbox } from '../support/published-sandbox.js';
import { STATE_ENGINES, type TestStateStore } from './state/state-engines.js';

const HOUR = 3_600_000;

// The suite runs on the router (`app.fetch`) and over HTTP, where snapshot reads take the fast path.
const SUITES = STATE_ENGINES.flatMap((engine) =>
  (['fetch', 'http'] as const).map((transport) => ({ engine, name: engine.name, transport })),
);

describe.each(SUITES)('data routes with $name state via $transport', ({ engine, transport }) => {
  let store: TestStateStore;
  let gw: GatewayUnderTest;
  let key: { key: string; keyId: string; accountId: string };
  let cookie: string;
  const bearer = () => ({ authorization: `Bearer ${key.key}` });

  beforeAll(async () => {
    const world = await publishedSandbox();
    store = await engine.start();
    gw = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: store.url,
      nowMs: NOW_MS + 2 * HOUR,
      baseUrl: BASE_URL,
      transport,
    });
    key = await gw.apiKey();
    cookie = await gw.sessionCookie();
  }, 600_000);

  afterAll(async () => {
    await gw?.close();
    await store?.stop();
  });

  describe('GET /api/v1/subnets', () => {
    it('is public, valid against the contract, with a strong ETag and five-minute caching', async () => {
      const response = await gw.get('/api/v1/subnets');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      // Over HTTP, fetch asks for gzip and br: the ETag names the representation sent.
      expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{64}(-br|-gzip)?"$/);
      // Nothing changes for hours (the next daily run is after midnight): the five-minute cap, and a
      // minute of stale-while-revalidate.
      expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=60');
      expect(response.headers.get('vary')).toBe('Accept-Encoding, Authorization, Cookie');
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      const list = SubnetList.parse(await response.json());
      expect(list.freshness).toBe('current');
      expect(list.rows.length).toBeGreaterThan(60);
    });

    it('answers 304 to If-None-Match with the same ETag', async () => {
      const etag = (await gw.get('/api/v1/subnets')).headers.get('etag')!;
      const response = await gw.get('/api/v1/subnets', { 'if-none-match': etag });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
    });

    it('sets freshness per request: stale once burns_checked_at is 26 hours old, with another ETag', async () => {
      const fresh = await gw.get('/api/v1/subnets');
      gw.clock.nowMs = NOW_MS + 27 * HOUR;
      try {
        const stale = await gw.get('/api/v1/subnets');
        expect(((await stale.json()) as { freshness: string }).freshness).toBe('stale');
        expect(stale.headers.get('etag')).not.toBe(fresh.headers.get('etag'));
        // The next daily run is due (past midnight): caches ask again every 30 s, and keep nothing stale.
        expect(stale.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=0');
      } finally {
        gw.clock.nowMs = NOW_MS + 2 * HOUR;
      }
    });

    it('no cache keeps an answer past the moment its freshness changes', async () => {
      const list = (await (await gw.get('/api/v1/subnets')).json()) as { burns_checked_at: string };
      const staleAt = Date.parse(list.burns_checked_at) + 26 * HOUR;
      // 26 hours after the collection the next daily run is due (30 s); 10.5 s before the data turns
      // stale, the answer may be kept 10 s, and nothing is served stale past the change.
      gw.clock.nowMs = staleAt - 10_500;
      try {
        const before = await gw.get('/api/v1/subnets');
        expect(((await before.json()) as { freshness: string }).freshness).toBe('current');
        expect(before.headers.get('cache-control')).toBe('public, max-age=10, stale-while-revalidate=0');
      } finally {
        gw.clock.nowMs = NOW_MS + 2 * HOUR;
      }
    });

    it('with a credential, private and revalidated on every use; with none, public', async () => {
      const keyed = await gw.get('/api/v1/subnets', bearer());
      expect(keyed.headers.get('cache-control')).toBe('private, no-cache');
      const session = await gw.get('/api/v1/subnets', { cookie: `svc_explore=${cookie}` });
      expect(session.status).toBe(200);
      expect(session.headers.get('cache-control')).toBe('private, no-cache');
      // An expired or unknown session cookie reads as public, but a subscriber's browser sent it.
      const unknown = await gw.get('/api/v1/subnets', { cookie: 'svc_explore=not-a-session' });
      expect(unknown.status).toBe(200);
      expect(unknown.headers.get('cache-control')).toBe('private, no-cache');
      // Any other cookie is not a credential.
      const other = await gw.get('/api/v1/subnets', { cookie: 'theme=dark' });
      expect(other.headers.get('cache-control')).toMatch(/^public, max-age=\d+, stale-while-revalidate=\d+$/);
    });

    it('with a valid key: 200 and the allowance headers, in both vocabularies', async () => {
      const response = await gw.get('/api/v1/subnets', bearer());
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('x-ratelimit-limit'))).toBe(10_000);
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(10_000);
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(NOW_MS / 1000);
      expect(response.headers.get('ratelimit-policy')).toMatch(/^10000;w=\d+$/);
      expect(response.headers.get('ratelimit')).toMatch(/^limit=10000, remaining=\d+, reset=\d+$/);
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
    });

    it('with an invalid key: 401 with WWW-Authenticate, even on a public resource', async () => {
      const response = await gw.get('/api/v1/subnets', { authorization: 'Bearer sbm_live_nottherightkey' });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/invalid/i);
    });
  });

  describe('GET /api/v1/subnets/{netuid}', () => {
    it('serves one subnet', async () => {
      const detail = SubnetDetail.parse(await (await gw.get('/api/v1/subnets/1')).json());
      expect(detail.subnet.netuid).toBe(1);
    });

    it('a non-integer netuid is a FastAPI-style 422', async () => {
      for (const bad of ['abc', '1.5', '1e3', '%20']) {
        const response = await gw.get(`/api/v1/subnets/${bad}`);
        expect(response.status, bad).toBe(422);
        const body = HTTPValidationError.parse(await response.json());
        expect(body.detail[0]).toMatchObject({ loc: ['path', 'netuid'], type: 'int_parsing' });
      }
    });

    it('an unknown netuid is 404 {"detail": "Subnet not found"}', async () => {
      for (const netuid of ['9999', '-1', '65536']) {
        const response = await gw.get(`/api/v1/subnets/${netuid}`);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ detail: 'Subnet not found' });
      }
    });
  });

  describe('GET /api/v1/subnets/{netuid}/history', () => {
    it('defaults to 7 days and serves 7 and 30 publicly', async () => {
      const seven = SubnetHistory.parse(await (await gw.get('/api/v1/subnets/1/history')).json());
      expect(seven.days).toBe(7);
      expect(seven.rows).toHaveLength(7);
      const thirty = await gw.get('/api/v1/subnets/1/history?days=30');
      expect(thirty.status).toBe(200);
      expect(SubnetHistory.parse(await thirty.json()).rows).toHaveLength(30);
    });

    it('90 and 365 days need a key or a session: 401 naming the access needed', async () => {
      for (const days of [90, 365]) {
        const response = await gw.get(`/api/v1/subnets/1/history?days=${days}`);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(((await response.json()) as { detail: string }).detail).toMatch(/API key|session/);
        expect((await gw.get(`/api/v1/subnets/1/history?days=${days}`, bearer())).status).toBe(200);
        const bySession = await gw.get(`/api/v1/subnets/1/history?days=${days}`, {
          cookie: `svc_explore=${cookie}`,
        });
        expect(bySession.status).toBe(200);
        expect(bySession.headers.get('x-ratelimit-limit')).toBeNull();
      }
    });

    it('a days value outside 7, 30, 90, 365 is 422 with loc ["query", "days"]', async () => {
      for (const bad of ['10', 'abc', '-7']) {
        const response = await gw.get(`/api/v1/subnets/1/history?days=${bad}`);
        expect(response.status, bad).toBe(422);
        const body = HTTPValidationError.parse(await response.json());
        expect(body.detail[0]!.loc).toEqual(['query', 'days']);
      }
      const both = HTTPValidationError.parse(await (await gw.get('/api/v1/subnets/x/history?days=8')).json());
      expect(both.detail.map((d) => d.loc[1])).toEqual(['netuid', 'days']);
    });
  });

  describe('GET /api/v1/subnets/{netuid}/history.csv', () => {
    it('needs a key or a session for every window', async () => {
      for (const query of ['', '?days=7', '?days=30']) {
        const response = await gw.get(`/api/v1/subnets/1/history.csv${query}`);
        expect(response.status).toBe(401);
        expect(((await response.json()) as { detail: string }).detail).toMatch(/CSV/);
      }
    });

    it('with a key: text/csv, 90 days by default, an attachment', async () => {
      const response = await gw.get('/api/v1/subnets/1/history.csv', bearer());
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toMatch(
        /attachment; filename="subnet-1-history-90d.csv"/,
      );
      const lines = (await response.text()).trim().split('\r\n');
      expect(lines[0]).toBe('date,alpha,burns,tao,unpriced_burns,partial_day');
      expect(lines).toHaveLength(91);
    });

    it('a revoked key stops working on its next request', async () => {
      const other = await gw.apiKey();
      const auth = { authorization: `Bearer ${other.key}` };
      expect((await gw.get('/api/v1/subnets/1/history.csv?days=7', auth)).status).toBe(200);
      await gw.state.revokeKey(other.keyId, new Date(gw.clock.nowMs));
      const response = await gw.get('/api/v1/subnets/1/history.csv?days=7', auth);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('invalid_token');
    });
  });

  describe('the monthly allowance', () => {
    it('counts successes (304 included), never 4xx; at the cap answers 429 with Retry-After', async () => {
      const mine = await gw.apiKey();
      const auth = { authorization: `Bearer ${mine.key}` };
      const first = await gw.get('/api/v1/subnets', auth);
      const remaining = () => Number(first.headers.get('x-ratelimit-remaining'));
      expect(remaining()).toBe(9_999);
      const notFound = await gw.get('/api/v1/subnets/9999', auth);
      expect(notFound.status).toBe(404);
      expect(Number(notFound.headers.get('x-ratelimit-remaining'))).toBe(9_999);
      const conditional = await gw.get('/api/v1/subnets', {
        ...auth,
        'if-none-match': first.headers.get('etag')!,
      });
      expect(conditional.status).toBe(304);
      expect(Number(conditional.headers.get('x-ratelimit-remaining'))).toBe(9_998);

      const period = (await gw.state.getAccount(mine.accountId))!;
      const { billingPeriod } = await import('../../gateway/auth/billing-period.js');
      const current = billingPeriod(period.periodAnchor, new Date(gw.clock.nowMs));
      await gw.state.setUsage(mine.accountId, current.start, 10_000);
      const capped = await gw.get('/api/v1/subnets', auth);
      expect(capped.status).toBe(429);
      expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(capped.headers.get('x-ratelimit-reset'))).toBe(Math.ceil(current.end.getTime() / 1000));
      expect(capped.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(((await capped.json()) as { detail: string }).detail).toMatch(/allowance/);
      expect(await gw.state.getUsage(mine.accountId, current.start)).toBe(10_000);

      gw.clock.nowMs = current.end.getTime() + 1_000;
      try {
        expect((await gw.get('/api/v1/subnets', auth)).status).toBe(200);
      } finally {
        gw.clock.nowMs = NOW_MS + 2 * HOUR;
      }
    });
  });

  describe('meta routes and errors', () => {
    it('serves both OpenAPI documents (valid OpenAPI 3.1) and the method page', async () => {
      for (const path of ['/api/v1/openapi.json', '/tax/openapi.json']) {
        const response = await gw.get(path);
        expect(response.status).toBe(200);
        const result = await new Validator().validate((await response.json()) as never);
        expect(result.valid, path).toBe(true);
      }
      const method = await gw.get('/api/v1/method');
      expect(method.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await method.text();
      for (const word of ['buyback', 'recycle', 'panel block', 'freshness', 'coverage'])
        expect(html).toContain(word);
      expect((await gw.get('/healthz')).status).toBe(200);
    });

    it('unknown paths are 404 {"detail": "Not Found"}; nothing a caller sends gives a 500', async () => {
      expect(await (await gw.get('/nope')).json()).toEqual({ detail: 'Not Found' });
      const odd = [
        '/api/v1/subnets/%00',
        '/api/v1/subnets/1/history?days=7&days=90',
        '/api/v1/subnets/1/history?days=',
        '/api/v1/subnets/99999999999999999999/history',
        '/api/v1/subnets//history',
        '/api/v1/subnets/1/history.csv?days=%ff',
      ];
      for (const path of odd) {
        const response = await gw.get(path, { authorization: 'Bearer x'.repeat(100) });
        expect(response.status, path).toBeLessThan(500);
      }
      expect(gw.errors).toEqual([]);
    });

    it('logs one line per request without keys or cookies', async () => {
      gw.logs.length = 0;
      await gw.get('/api/v1/subnets/1/history.csv?days=7', bearer());
      await gw.get('/api/v1/subnets/1', { cookie: `svc_explore=${cookie}` });
      expect(gw.logs).toHaveLength(2);
      expect(gw.logs[0]).toMatchObject({
        method: 'GET',
        route: '/api/v1/subnets/:netuid/history.csv',
        status: 200,
      });
      expect(gw.logs[0]!.account).toBe(key.accountId);
      const text = JSON.stringify(gw.logs);
      expect(text).not.toContain(key.key);
      expect(text).not.toContain(cookie);
    });
  });

  // Registered over HTTP only (through app.fetch there is no fast path), so the fetch suites count no skip.
  if (transport === 'http') {
    it('over HTTP, snapshot reads took the fast path and the rest the router', () => {
      expect(gw.via.fast).toBeGreaterThan(20);
      expect(gw.via.router).toBeGreaterThan(3);
    });
  }
});

describe('the public per-IP limit', () => {
  it('answers 429 with the same shape past SBM_PUBLIC_LIMIT_PER_MIN, per address', async () => {
    const world = await publishedSandbox();
    const store = await STATE_ENGINES[0]!.start();
    const gw = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: store.url,
      nowMs: NOW_MS,
      baseUrl: BASE_URL,
      publicLimitPerMinute: 3,
    });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await gw.get('/api/v1/subnets', {}, '198.51.100.1')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await gw.get('/api/v1/subnets', {}, '198.51.100.1');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('x-ratelimit-reset')).not.toBeNull();
      expect((await gw.get('/api/v1/subnets', {}, '198.51.100.2')).status).toBe(200);
      gw.clock.nowMs += 60_000;
      expect((await gw.get('/api/v1/subnets', {}, '198.51.100.1')).status).toBe(200);
    } finally {
      await gw.close();
      await store.stop();
    }
  }, 600_000);
});
