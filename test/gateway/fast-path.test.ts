/**
 * Every snapshot route answers the same through the fast path (Node's request and response objects)
 * and through the router (`app.fetch`): status, headers and body bytes, for every encoding a caller
 * may ask for, for GET, HEAD and conditional requests, public and keyed, and for the error answers.
 * The same gateway (one state, one published run) serves both; the fast path is reached over a real
 * HTTP connection and the test checks it was the fast path that answered.
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, gatewayUnderTest } from '../support/gateway-under-test.js';
import { BASE_URL, NOW_MS, publishedSandbox } from '../support/published-sandbox.js';
import { STATE_ENGINES, type TestStateStore } from './state/state-engines.js';

const HOUR = 3_600_000;

/** Every snapshot route's paths: each window, a missing subnet, bad parameters. */
const PATHS = [
  '/api/v1/subnets',
  '/api/v1/subnets/1',
  '/api/v1/subnets/9999',
  '/api/v1/subnets/abc',
  ...[7, 30, 90, 365].map((days) => `/api/v1/subnets/1/history?days=${days}`),
  '/api/v1/subnets/1/history',
  '/api/v1/subnets/1/history?days=8',
  '/api/v1/subnets/1/history?days=&days=30',
  '/api/v1/subnets/1/history?&days=90&&flag',
  '/api/v1/subnets/1/history?days=9%30',
  '/api/v1/subnets/1/history?days=7+',
  '/api/v1/subnets/1/history?=7&days=30=',
  ...[7, 30, 90, 365].map((days) => `/api/v1/subnets/2/history.csv?days=${days}`),
  '/api/v1/subnets/2/history.csv',
];

/** What callers send: nothing, each coding, browsers' and curl's lists, weights and refusals. */
const ACCEPT_ENCODINGS = [
  null,
  'identity',
  'gzip',
  'br',
  'gzip, deflate, br, zstd',
  'br;q=0, gzip',
  'gzip;q=0.5, br;q=0.4',
  '*',
  '*;q=0, identity',
  'br;q=0, gzip;q=0',
];

/** Headers that must agree; the allowance counters move by one between the two requests. */
const COMPARED = [
  'content-type',
  'content-encoding',
  'content-length',
  'content-disposition',
  'etag',
  'vary',
  'cache-control',
  'www-authenticate',
  'x-ratelimit-limit',
  'ratelimit-policy',
];

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: Buffer;
}

let store: TestStateStore;
let gw: GatewayUnderTest;
let bearer: string;

beforeAll(async () => {
  const world = await publishedSandbox();
  store = await STATE_ENGINES[0]!.start();
  gw = await gatewayUnderTest({
    storeDir: world.storeDir,
    stateUrl: store.url,
    nowMs: NOW_MS + 2 * HOUR,
    baseUrl: BASE_URL,
    transport: 'http',
  });
  bearer = `Bearer ${(await gw.apiKey()).key}`;
}, 600_000);

afterAll(async () => {
  await gw?.close();
  await store?.stop();
});

async function viaRouter(method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const response = await gw.app.fetch(new Request(`http://gateway.test${path}`, { method, headers }), {
    ip: '127.0.0.1',
  });
  const seen = Object.fromEntries(COMPARED.map((name) => [name, response.headers.get(name)]));
  const body = Buffer.from(await response.arrayBuffer());
  // In-process there is no wire: the Node server adds the length of a body built from a string.
  if (seen['content-length'] === null && body.length > 0) seen['content-length'] = String(body.length);
  return { status: response.status, headers: seen, body };
}

/** Raw bytes over HTTP: no client decoding, so the encoded bytes themselves are compared. */
function viaFastPath(method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${gw.url}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const value = (name: string) => {
          const raw = response.headers[name];
          return raw === undefined ? null : Array.isArray(raw) ? raw.join(', ') : raw;
        };
        resolve({
          status: response.statusCode!,
          headers: Object.fromEntries(COMPARED.map((name) => [name, value(name)])),
          body: Buffer.concat(chunks),
        });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

function decoded(answer: Answer): string {
  const encoding = answer.headers['content-encoding'];
  const bytes =
    encoding === 'br'
      ? brotliDecompressSync(answer.body)
      : encoding === 'gzip'
        ? gunzipSync(answer.body)
        : answer.body;
  return bytes.toString('utf8');
}

async function compare(method: string, path: string, headers: Record<string, string>) {
  const before = gw.via.fast;
  const fast = await viaFastPath(method, path, headers);
  expect(gw.via.fast, `${method} ${path} took the fast path`).toBe(before + 1);
  const routed = await viaRouter(method, path, headers);
  const label = `${method} ${path} ${JSON.stringify(headers)}`;
  expect(fast.status, label).toBe(routed.status);
  expect(fast.headers, label).toEqual(routed.headers);
  expect(fast.body.equals(routed.body), label).toBe(true);
  if (method === 'GET' && fast.body.length > 0) expect(decoded(fast), label).toBe(decoded(routed));
  return fast;
}

describe('fast path and router answer alike', () => {
  for (const auth of ['public', 'keyed'] as const) {
    it(`every snapshot route, every encoding, GET and HEAD (${auth})`, async () => {
      const encodings = new Set<string>();
      for (const path of PATHS) {
        for (const accept of ACCEPT_ENCODINGS) {
          const headers: Record<string, string> = {};
          if (accept !== null) headers['accept-encoding'] = accept;
          if (auth === 'keyed') headers['authorization'] = bearer;
          const answer = await compare('GET', path, headers);
          encodings.add(answer.headers['content-encoding'] ?? 'identity');
          await compare('HEAD', path, headers);
          if (answer.status === 200) {
            await compare('GET', path, { ...headers, 'if-none-match': answer.headers['etag']! });
          }
        }
      }
      expect([...encodings].sort()).toEqual(['br', 'gzip', 'identity']);
    }, 120_000);
  }

  it('picks the encoding by Accept-Encoding, each with its own ETag; a 304 only for the one held', async () => {
    const br = await compare('GET', '/api/v1/subnets', { 'accept-encoding': 'gzip, br' });
    const gzip = await compare('GET', '/api/v1/subnets', { 'accept-encoding': 'gzip' });
    const plain = await compare('GET', '/api/v1/subnets', {});
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeNull();
    expect(br.headers['vary']).toContain('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(decoded(br)).toBe(plain.body.toString('utf8'));
    expect(new Set([br, gzip, plain].map((answer) => answer.headers['etag'])).size).toBe(3);
    // The identity ETag sent with a br request: the br bytes, not a 304 for bytes the caller lacks.
    const other = await compare('GET', '/api/v1/subnets', {
      'accept-encoding': 'br',
      'if-none-match': plain.headers['etag']!,
    });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('br');
    const same = await compare('GET', '/api/v1/subnets', {
      'accept-encoding': 'br',
      'if-none-match': br.headers['etag']!,
    });
    expect(same.status).toBe(304);
    expect(same.headers['etag']).toBe(br.headers['etag']);
  });

  it('objects under 1 KB and error answers are sent as they are', async () => {
    const missing = await compare('GET', '/api/v1/subnets/9999', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeNull();
    for (const path of PATHS) {
      const plain = await viaFastPath('GET', path, { authorization: bearer });
      if (plain.status !== 200) continue;
      const br = await viaFastPath('GET', path, { authorization: bearer, 'accept-encoding': 'br' });
      expect(br.headers['content-encoding'], path).toBe(plain.body.length < 1024 ? null : 'br');
    }
  });

  it('logs the fast path like the router: one line, the route pattern, the account', async () => {
    gw.logs.length = 0;
    await viaFastPath('GET', '/api/v1/subnets/1/history.csv?days=7', { authorization: bearer });
    await viaRouter('GET', '/api/v1/subnets/1/history.csv?days=7', { authorization: bearer });
    expect(gw.logs).toHaveLength(2);
    const [fast, routed] = gw.logs;
    expect({ ...fast, duration_ms: 0 }).toEqual({ ...routed, duration_ms: 0 });
    expect(fast!.route).toBe('/api/v1/subnets/:netuid/history.csv');
    expect(fast!.account).not.toBeNull();
  });

  it('leaves every other route and odd paths to the router', async () => {
    const before = { ...gw.via };
    for (const path of [
      '/healthz',
      '/api/v1/openapi.json',
      '/api/v1/subnets/%31',
      '/api/v1/subnets//history',
      '/nope',
    ]) {
      await viaFastPath('GET', path, {});
    }
    await viaFastPath('POST', '/api/v1/subnets', {});
    expect(gw.via.fast).toBe(before.fast);
    expect(gw.via.router).toBe(before.router + 6);
    expect(gw.errors).toEqual([]);
  });
});
