/**
 * The emissions routes through the real app: a run published by the watch's own code from a real
 * emissions database (synthetic samples, recorded and published as the watch does), a folder store,
 * SQLite gateway state, and each test on both paths: `app.fetch` in-process (the router) and over a
 * real HTTP connection to the gateway's Node listener (the fast path for the published objects).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type GatewayApp } from '../../gateway/app.js';
import { createAccount } from '../../gateway/auth/accounts.js';
import { createApiKey } from '../../gateway/auth/api-keys.js';
import type { AuthDeps } from '../../gateway/auth/auth-deps.js';
import { billingPeriod } from '../../gateway/auth/billing-period.js';
import { createSession, SESSION_COOKIE } from '../../gateway/auth/sessions.js';
import { nodeListener } from '../../gateway/server.js';
import { burnsFreshnessRule, emissionsFreshnessRule } from '../../gateway/snapshots/freshness-rules.js';
import { SnapshotCache } from '../../gateway/snapshots/snapshot-cache.js';
import type { GatewayState } from '../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import type {
  EmissionEvents,
  EmissionHistory,
  EmissionsSnapshot,
} from '../../pipeline/contract/emissions.js';
import { EMISSIONS_NAMESPACE } from '../../pipeline/contract/snapshot-paths.js';
import { EMISSION_EVENTS_PAGE_SIZE } from '../../pipeline/contract/windows.js';
import { readEmissionFacts } from '../../pipeline/emissions/emission-facts.js';
import { withEmissionsDb } from '../../pipeline/emissions/emissions-db.js';
import { publishEmissions } from '../../pipeline/emissions/publish-emissions.js';
import type { EmissionSweep } from '../../pipeline/emissions/read-emission-sweep.js';
import { recordSweep } from '../../pipeline/emissions/record-sweep.js';
import { FolderObjectStore } from '../../pipeline/store/index.js';

const INTERVAL = 300_000;
const LAST_SAMPLE = Date.parse('2025-06-20T12:00:00Z');
const SWEEPS = 10;
const SUBNETS = 150;
const blockOf = (i: number) => 1_000 + i * 25;

/**
 * Status of each netuid at sweep i. Every change holds for two samples, so each is verified:
 * all 150 suspend at sweep 2 (one to_block shared by more events than a page holds), 1..60 restore at
 * sweep 4, 61..100 at sweep 6, and 1..30 suspend again at sweep 8: 280 events in all.
 */
function flowing(netuid: number, i: number): boolean {
  if (i < 2) return true;
  if (i >= 8 && netuid <= 30) return false;
  if (i >= 4 && netuid <= 60) return true;
  if (i >= 6 && netuid <= 100) return true;
  return false;
}

function sweep(i: number): EmissionSweep {
  const timeMs = LAST_SAMPLE - (SWEEPS - 1 - i) * INTERVAL;
  return {
    block: blockOf(i),
    hash: `0x${i.toString(16).padStart(64, '0')}`,
    timeMs,
    specVersion: 393,
    subnets: Array.from({ length: SUBNETS }, (_, k) => {
      const on = flowing(k + 1, i);
      return {
        netuid: k + 1,
        registeredAt: 7,
        name: `Subnet ${k + 1}`,
        enabled: on,
        // Above 2^53 RAO: the published decimal must keep every digit.
        taoInRao: on ? 12_345_678_901_234_567_891n : 0n,
        alphaInRao: on ? 1n : 0n,
        alphaOutRao: on ? 1_000_000_000n : 0n,
        status: on ? 'flowing' : 'suspended',
      };
    }),
  };
}

describe.each(['fetch', 'http'] as const)('emissions routes via %s', (transport) => {
  let dir: string;
  let state: GatewayState;
  let app: GatewayApp;
  let server: Server | null = null;
  let url = '';
  const via = { fast: 0, router: 0 };
  let clock = new Date(LAST_SAMPLE + 60_000);
  let key: string;
  let keyAccount: string;
  let cookie: string;
  const errors: unknown[] = [];
  const auth = (): AuthDeps => ({ state, now: () => clock });
  const get = (path: string, headers: Record<string, string> = {}) =>
    transport === 'http'
      ? fetch(`${url}${path}`, { headers })
      : app.fetch(new Request(`http://gateway.test${path}`, { headers }), { ip: '10.0.0.1' });
  const bearer = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-emission-routes-'));
    const store = new FolderObjectStore(join(dir, 'store'));
    const dbPath = join(dir, 'emissions.duckdb');
    for (let i = 0; i < SWEEPS; i++) {
      await withEmissionsDb(dbPath, (db) => recordSweep(db, sweep(i), sweep(i).timeMs + 30_000));
    }
    const facts = await withEmissionsDb(dbPath, (db) =>
      readEmissionFacts(db, { intervalMs: INTERVAL, shortWindowDays: 7, longWindowDays: 365 }),
    );
    await publishEmissions(facts!, {
      store,
      baseUrl: 'http://sbm.test',
      keepRuns: 2,
      now: new Date(LAST_SAMPLE + 30_000),
    });
    state = await openGatewayState(`sqlite:${join(dir, 'state.sqlite')}`);
    const emissions = new SnapshotCache(store, EMISSIONS_NAMESPACE, emissionsFreshnessRule);
    await emissions.refresh();
    app = buildApp({
      state,
      burns: new SnapshotCache(store, '', burnsFreshnessRule),
      emissions,
      now: () => clock,
      baseUrl: 'http://sbm.test',
      monthlyAllowance: 100,
      publicLimitPerMinute: 10_000,
      log: () => undefined,
      onError: (error) => errors.push(error),
    });
    const apiAccount = await createAccount(auth(), 'api');
    keyAccount = apiAccount.id;
    key = (await createApiKey(auth(), apiAccount.id)).key;
    const subscriber = await createAccount(auth(), 'subscriber');
    cookie = `${SESSION_COOKIE}=${(await createSession(auth(), subscriber.id)).cookieValue}`;
    if (transport === 'http') {
      const listening = createServer(nodeListener(app, (path) => via[path]++));
      await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
      server = listening;
      url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    }
  });

  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
    }
    await app?.close();
    await state?.close();
    await rm(dir, { recursive: true, force: true });
    expect(errors).toEqual([]);
  });

  it('serves the status publicly, with exact amounts and freshness from the manifest', async () => {
    const response = await get('/api/v1/emissions');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"tao_in_emission":12345678901.234567891');
    const body = JSON.parse(text) as EmissionsSnapshot;
    expect(body).toMatchObject({
      observed_block: blockOf(9),
      freshness: 'current',
      checked_at: '2025-06-20T12:00:30.000Z',
    });
    expect(body.rows).toHaveLength(SUBNETS);
    expect(body.rows[0]).toMatchObject({ netuid: 1, status: 'suspended', since_block: blockOf(9) });
    expect(body.rows[99]).toMatchObject({ netuid: 100, status: 'flowing', since_block: blockOf(7) });
    expect(body.rows[149]).toMatchObject({ netuid: 150, status: 'suspended', since_block: blockOf(3) });

    clock = new Date(LAST_SAMPLE + 30_000 + 15 * 60_000);
    expect(((await (await get('/api/v1/emissions')).json()) as EmissionsSnapshot).freshness).toBe('stale');
    const events = (await (await get('/api/v1/emissions/events')).json()) as EmissionEvents;
    expect(events.freshness).toBe('stale');
    clock = new Date(LAST_SAMPLE + 60_000);
  });

  it('pages the events by before_block without repeating or skipping one, never splitting a block', async () => {
    const pages: EmissionEvents[] = [];
    let cursor: number | null = null;
    do {
      const response = await get(
        `/api/v1/emissions/events${cursor === null ? '' : `?before_block=${cursor}`}`,
      );
      expect(response.status).toBe(200);
      const page = (await response.json()) as EmissionEvents;
      pages.push(page);
      cursor = page.next_before_block;
    } while (cursor !== null && pages.length < 10);
    // 30 + 40 events cut before the 60 of one block; the 60 before the 150 of one block; the 150 whole.
    expect(pages.map((p) => p.events.length)).toEqual([70, 60, 150]);
    expect(pages.map((p) => p.next_before_block)).toEqual([blockOf(6), blockOf(4), null]);
    expect(pages.every((p) => p.page_size === EMISSION_EVENTS_PAGE_SIZE)).toBe(true);
    const all = pages.flatMap((p) => p.events);
    const ids = all.map((e) => `${e.netuid}@${e.to_block}`);
    expect(new Set(ids).size).toBe(280);
    expect(all).toHaveLength(280);
    // Newest first: (to_block desc, netuid desc).
    const sorted = [...all].sort((a, b) => b.to_block - a.to_block || b.netuid - a.netuid);
    expect(all).toEqual(sorted);
    expect(all[0]).toMatchObject({
      netuid: 30,
      kind: 'suspended',
      from_block: blockOf(7),
      to_block: blockOf(8),
      detected_block: blockOf(8),
      verified_block: blockOf(9),
    });
    // The whole window was not watched: collection began 45 minutes before the last sample.
    expect(pages[0]).toMatchObject({
      coverage: 'partial',
      collection_began: '2025-06-20T11:15:00.000Z',
      gaps: [],
    });

    const one = (await (await get('/api/v1/emissions/events?netuid=5')).json()) as EmissionEvents;
    expect(one.netuid).toBe(5);
    expect(one.events.map((e) => [e.kind, e.to_block])).toEqual([
      ['suspended', blockOf(8)],
      ['restored', blockOf(4)],
      ['suspended', blockOf(2)],
    ]);
    const older = (await (
      await get(`/api/v1/emissions/events?netuid=5&before_block=${blockOf(4)}`)
    ).json()) as EmissionEvents;
    expect(older.events.map((e) => e.to_block)).toEqual([blockOf(2)]);
  });

  it('answers a repeated page with 304 by its ETag', async () => {
    const first = await get(`/api/v1/emissions/events?before_block=${blockOf(6)}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(
      (await get(`/api/v1/emissions/events?before_block=${blockOf(6)}`, { 'if-none-match': etag })).status,
    ).toBe(304);
    expect((await get('/api/v1/emissions/events', { 'if-none-match': etag })).status).toBe(200);
  });

  it('serves 7-day windows publicly and 90/365 days to keys and sessions only', async () => {
    const history7 = await get('/api/v1/emissions/3/history');
    expect(history7.status).toBe(200);
    const body = (await history7.json()) as EmissionHistory;
    expect(body).toMatchObject({ netuid: 3, days: 7, resolution: 'hourly' });
    // Samples five minutes apart: one per UTC hour (11:15 opens hour 11, 12:00 opens hour 12).
    expect(body.rows.map((r) => [r.block, r.status])).toEqual([
      [blockOf(0), 'flowing'],
      [blockOf(9), 'suspended'],
    ]);
    for (const path of ['/api/v1/emissions/events?days=90', '/api/v1/emissions/3/history?days=365']) {
      const refused = await get(path);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('Bearer');
      expect(((await refused.json()) as { detail: string }).detail).toContain('paid access');
      expect((await get(path, bearer())).status).toBe(200);
      expect((await get(path, { cookie })).status).toBe(200);
    }
    const daily = (await (
      await get('/api/v1/emissions/3/history?days=90', bearer())
    ).json()) as EmissionHistory;
    expect(daily).toMatchObject({ resolution: 'daily', days: 90 });
    expect(daily.rows.map((r) => r.block)).toEqual([blockOf(0)]);
    const events365 = (await (
      await get('/api/v1/emissions/events?days=365', { cookie })
    ).json()) as EmissionEvents;
    expect(events365.days).toBe(365);
  });

  it('answers invalid parameters with FastAPI-style 422s before checking access', async () => {
    const cases: Array<[string, string, string[]]> = [
      ['/api/v1/emissions/events?days=30', 'literal_error', ['query', 'days']],
      ['/api/v1/emissions/events?netuid=abc', 'int_parsing', ['query', 'netuid']],
      ['/api/v1/emissions/events?before_block=-5', 'greater_than_equal', ['query', 'before_block']],
      ['/api/v1/emissions/x/history', 'int_parsing', ['path', 'netuid']],
      ['/api/v1/emissions/3/history?days=1', 'literal_error', ['query', 'days']],
    ];
    for (const [path, type, loc] of cases) {
      const response = await get(path);
      expect(response.status, path).toBe(422);
      const body = (await response.json()) as { detail: Array<{ type: string; loc: string[] }> };
      expect(body.detail).toEqual([expect.objectContaining({ type, loc })]);
    }
    expect((await get('/api/v1/emissions/999/history')).status).toBe(404);
    expect((await get('/api/v1/emissions/events?netuid=999')).status).toBe(404);
  });

  it('counts keyed requests against the allowance: successes only, then 429 at the cap', async () => {
    const period = billingPeriod((await state.getAccount(keyAccount))!.periodAnchor, clock);
    const before = await state.getUsage(keyAccount, period.start);
    const ok = await get('/api/v1/emissions/events?days=90', bearer());
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('100');
    expect(await state.getUsage(keyAccount, period.start)).toBe(before + 1);
    expect((await get('/api/v1/emissions/events?days=30', bearer())).status).toBe(422);
    expect((await get('/api/v1/emissions/999/history', bearer())).status).toBe(404);
    expect(await state.getUsage(keyAccount, period.start)).toBe(before + 1);

    await state.setUsage(keyAccount, period.start, 100);
    const capped = await get('/api/v1/emissions', bearer());
    expect(capped.status).toBe(429);
    expect(capped.headers.get('retry-after')).not.toBeNull();
    expect(capped.headers.get('x-ratelimit-reset')).not.toBeNull();
    expect(await state.getUsage(keyAccount, period.start)).toBe(100);
  });

  // Registered over HTTP only (through app.fetch there is no fast path), so the fetch suites count no skip.
  if (transport === 'http') {
    it('answers the status and the history windows on the fast path, the events on the router', async () => {
      const paths: Array<[string, Record<string, string>, 'fast' | 'router']> = [
        ['/api/v1/emissions', {}, 'fast'],
        ['/api/v1/emissions/3/history', {}, 'fast'],
        ['/api/v1/emissions/3/history?days=90', bearer(), 'fast'],
        ['/api/v1/emissions/x/history', {}, 'fast'],
        ['/api/v1/emissions/events', {}, 'router'],
      ];
      for (const [path, headers, expected] of paths) {
        for (const encoding of ['identity', 'gzip', 'br']) {
          const asked = { ...headers, 'accept-encoding': encoding };
          const before = { ...via };
          const fast = await get(path, asked);
          const fastBody = await fast.text(); // fetch decodes what the wire carried
          expect(via[expected], path).toBe(before[expected] + 1);
          const routed = await app.fetch(new Request(`http://gateway.test${path}`, { headers: asked }), {
            ip: '10.0.0.1',
          });
          const label = `${path} ${encoding}`;
          expect(fast.status, label).toBe(routed.status);
          expect(fast.headers.get('etag'), label).toBe(routed.headers.get('etag'));
          expect(fast.headers.get('content-encoding'), label).toBe(routed.headers.get('content-encoding'));
          expect(fastBody, label).toBe(
            decodedText(routed.headers.get('content-encoding'), await routed.arrayBuffer()),
          );
        }
      }
    });
  }
});

function decodedText(encoding: string | null, body: ArrayBuffer): string {
  const bytes = Buffer.from(body);
  const plain =
    encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;
  return plain.toString('utf8');
}
