/**
 * deploy/nginx/sbm.conf in front of a real gateway, with Debian's nginx (installed as root when absent,
 * skipped elsewhere): TLS terminates at nginx; public /api/v1 reads are answered from nginx's cache after
 * the first (body, ETag and Content-Encoding the gateway's, for every encoding), a credential never is,
 * an error is never kept, and a new publication replaces the kept body within the max-age; the gateway
 * (SBM_TRUST_PROXY=1) counts its per-IP limit against the client's address that nginx appends to
 * X-Forwarded-For, which a client's forged X-Forwarded-For cannot move; ETag, 304 and the rate-limit
 * headers pass through; nginx does not compress (strong ETags stay strong). The site file is used as
 * shipped, with only its ports, upstream, cache folder and certificate paths pointed at the test's.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../gateway/auth/accounts.js';
import { createApiKey, revokeApiKey } from '../../gateway/auth/api-keys.js';
import { createSession } from '../../gateway/auth/sessions.js';
import { loadGatewayConfig } from '../../gateway/config.js';
import { type RunningGateway, startGateway } from '../../gateway/server.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { snapshotPaths } from '../../pipeline/contract/snapshot-paths.js';
import { FolderObjectStore, publishRun } from '../../pipeline/store/index.js';
import { debianTool } from './debian-tool.js';

const SITE = fileURLToPath(new URL('../../deploy/nginx/sbm.conf', import.meta.url));
const HOST = 'sbm.example.com';
const NOW = new Date('2026-03-02T12:00:30Z');
/** 3.5 s before the UTC midnight after NOW, when the next daily run can appear: a max-age of 3 s. */
const BEFORE_MIDNIGHT = new Date('2026-03-02T23:59:56.500Z');
const ENCODINGS = [null, 'gzip', 'br', 'gzip, deflate, br'] as const;
const nginx = debianTool('nginx', 'nginx');
const openssl = debianTool('openssl', 'openssl');
const skip = 'skip' in nginx ? nginx.skip : 'skip' in openssl ? openssl.skip : null;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  bytes: Buffer;
}

describe.skipIf(skip !== null)(`nginx in front of the gateway${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let dir: string;
  let stateUrl: string;
  let gw: RunningGateway;
  let proxy: ChildProcess;
  let cert: string;
  let httpPort: number;
  let httpsPort: number;

  let store: FolderObjectStore;
  let clock = NOW;
  /** Requests that reached the gateway, by route pattern. */
  const reached: string[] = [];
  /** The same, with the status the gateway answered: `<route> <status>`. */
  const answered: string[] = [];
  const reachedCount = (route: string) => reached.filter((entry) => entry === route).length;

  /** A run whose subnet list and subnet 7 carry `label`, large enough to be precompressed. */
  const publish = (label: string, now: Date) =>
    publishRun(store, {
      prefix: '',
      now,
      objects: [snapshotPaths.subnetList(), snapshotPaths.subnetDetail(7)].map((path) => ({
        path,
        body: new TextEncoder().encode(
          `{"freshness":"current","probe":"${label}","pad":"${'x'.repeat(4000)}"}`,
        ),
        contentType: 'application/json',
        precompress: true,
      })),
      meta: { burns_checked_at: NOW.toISOString() },
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-nginx-'));
    stateUrl = `sqlite:${join(dir, 'gateway.sqlite')}`;
    await chmod(dir, 0o755);
    store = new FolderObjectStore(join(dir, 'store'));
    await publish('first', NOW);
    gw = await startGateway(
      loadGatewayConfig({
        SBM_PORT: '0',
        SBM_STATE_URL: stateUrl,
        SBM_STORE_URL: `file:${join(dir, 'store')}`,
        SBM_TRUST_PROXY: '1',
        SBM_PUBLIC_LIMIT_PER_MIN: '3',
        SBM_MANIFEST_POLL_MS: '100',
      }),
      {
        now: () => clock,
        log: (entry) => {
          reached.push(entry.route);
          answered.push(`${entry.route} ${entry.status}`);
        },
        onError: () => {},
        alert: () => {},
      },
    );

    execFileSync(
      (openssl as { path: string }).path,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${HOST}`,
        '-addext',
        `subjectAltName=DNS:${HOST}`,
        '-keyout',
        join(dir, 'privkey.pem'),
        '-out',
        join(dir, 'fullchain.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = await readFile(join(dir, 'fullchain.pem'), 'utf8');

    [httpPort, httpsPort] = [await freePort(), await freePort()];
    const site = pointAt(await readFile(SITE, 'utf8'), {
      'server 127.0.0.1:8787;': `server 127.0.0.1:${new URL(gw.url).port};`,
      'listen 80;': `listen 127.0.0.1:${httpPort};`,
      'listen [::]:80;': '',
      'listen 443 ssl http2;': `listen 127.0.0.1:${httpsPort} ssl http2;`,
      'listen [::]:443 ssl http2;': '',
      [`/etc/letsencrypt/live/${HOST}/fullchain.pem`]: join(dir, 'fullchain.pem'),
      [`/etc/letsencrypt/live/${HOST}/privkey.pem`]: join(dir, 'privkey.pem'),
      '/var/lib/nginx/sbm-cache': join(dir, 'nginx-cache'),
      '/var/log/nginx/sbm-access.log': join(dir, 'sbm-access.log'),
    });
    await writeFile(join(dir, 'sbm.conf'), site);
    // The workers run as root here: the test's temp folder (and the cache in it) may sit under a
    // parent only root can enter; a real install gives the cache folder to nginx's own user.
    const temp = join(dir, 'nginx-temp');
    await mkdir(temp, { mode: 0o777 });
    await chmod(temp, 0o777);
    await writeFile(
      join(dir, 'nginx.conf'),
      `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  include ${join(dir, 'sbm.conf')};
}
`,
    );
    const binary = (nginx as { path: string }).path;
    execFileSync(binary, ['-t', '-q', '-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'pipe' });
    proxy = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    await waitForPort(httpsPort);
  }, 60_000);

  afterAll(async () => {
    if (proxy && proxy.exitCode === null) {
      const exited = new Promise((resolve) => proxy.once('exit', resolve));
      proxy.kill('SIGQUIT');
      await exited;
    }
    await gw?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const get = (from: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: httpsPort,
          path,
          servername: HOST,
          ca: cert,
          localAddress: from,
          agent: false,
          headers: { host: HOST, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              headers: res.headers,
              body: Buffer.concat(chunks).toString(),
              bytes: Buffer.concat(chunks),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  /**
   * The same request straight to the gateway, over plain HTTP, each as another client (the gateway
   * trusts one proxy's X-Forwarded-For), so the per-IP limit of 3 never answers for these.
   */
  let directClients = 0;
  const direct = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const from = { 'x-forwarded-for': `10.0.0.${++directClients}` };
      httpRequest(`${gw.url}${path}`, { agent: false, headers: { ...headers, ...from } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            bytes: Buffer.concat(chunks),
          }),
        );
      })
        .on('error', reject)
        .end();
    });

  const keyFor = async (): Promise<{ key: string; keyId: string }> => {
    const state = await openGatewayState(stateUrl);
    try {
      const auth = { state, now: () => clock };
      const account = await createAccount(auth, 'api');
      const created = await createApiKey(auth, account.id);
      return { key: created.key, keyId: created.record.id };
    } finally {
      await state.close();
    }
  };

  it("answers public reads from its cache after the first: body, ETag and encoding the gateway's", async () => {
    for (const [i, encoding] of ENCODINGS.entries()) {
      const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
      const before = reachedCount('/api/v1/subnets');
      // Each from its own address: the gateway's per-IP limit here is 3 a minute.
      const first = await get(`127.0.1.${i}`, '/api/v1/subnets', headers);
      const second = await get(`127.0.2.${i}`, '/api/v1/subnets', headers);
      const third = await get(`127.0.3.${i}`, '/api/v1/subnets', headers);
      expect([first.headers['x-cache-status'], second.headers['x-cache-status']], String(encoding)).toEqual([
        'MISS',
        'HIT',
      ]);
      expect(third.headers['x-cache-status']).toBe('HIT');
      // Only the first reached the gateway.
      expect(reachedCount('/api/v1/subnets') - before, String(encoding)).toBe(1);

      const gateway = await direct('/api/v1/subnets', headers);
      for (const through of [first, second, third]) {
        expect(through.status).toBe(200);
        expect(through.bytes.equals(gateway.bytes), String(encoding)).toBe(true);
        expect(through.headers.etag).toBe(gateway.headers.etag);
        expect(through.headers['content-encoding']).toBe(gateway.headers['content-encoding']);
        expect(through.headers['content-type']).toBe(gateway.headers['content-type']);
        expect(through.headers.vary).toBe(gateway.headers.vary);
        expect(through.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=60');
        expect(through.headers['strict-transport-security']).toBe('max-age=31536000');
      }
      const expected = encoding === null ? undefined : encoding === 'gzip' ? 'gzip' : 'br';
      expect(gateway.headers['content-encoding'], String(encoding)).toBe(expected);
    }
    // A kept answer confirms the caller's copy itself.
    const etag = String((await get('127.0.4.1', '/api/v1/subnets')).headers.etag);
    const confirmed = await get('127.0.4.1', '/api/v1/subnets', { 'if-none-match': etag });
    expect(confirmed.status).toBe(304);
    expect(confirmed.headers['x-cache-status']).toBe('HIT');
  });

  it('never answers a credential from the cache; a revoked key is refused on its next request', async () => {
    const { key, keyId } = await keyFor();
    const bearer = { authorization: `Bearer ${key}` };
    await get('127.0.0.12', '/api/v1/subnets'); // the public answer is kept
    const before = reachedCount('/api/v1/subnets');
    for (let i = 0; i < 3; i++) {
      const keyed = await get('127.0.0.12', '/api/v1/subnets', bearer);
      expect(keyed.status).toBe(200);
      expect(keyed.headers['x-cache-status']).toBe('BYPASS');
      expect(keyed.headers['cache-control']).toBe('private, no-cache');
      expect(keyed.headers['x-ratelimit-remaining']).toBe(String(9_999 - i));
    }
    expect(reachedCount('/api/v1/subnets') - before).toBe(3);

    const state = await openGatewayState(stateUrl);
    try {
      await revokeApiKey({ state, now: () => clock }, keyId);
      const account = await createAccount({ state, now: () => clock }, 'subscriber');
      const session = await createSession({ state, now: () => clock }, account.id);
      const cookie = { cookie: `svc_explore=${session.cookieValue}` };
      const subscriber = await get('127.0.0.12', '/api/v1/subnets', cookie);
      expect(subscriber.headers['x-cache-status']).toBe('BYPASS');
      expect(subscriber.headers['cache-control']).toBe('private, no-cache');
    } finally {
      await state.close();
    }
    const refused = await get('127.0.0.12', '/api/v1/subnets', bearer);
    expect(refused.status).toBe(401);
    expect(refused.headers['x-cache-status']).toBe('BYPASS');
    // The public answer is still kept for everyone else.
    expect((await get('127.0.0.12', '/api/v1/subnets')).headers['x-cache-status']).toBe('HIT');
  });

  it('never keeps an error', async () => {
    const before = reachedCount('/api/v1/subnets/:netuid');
    for (let i = 0; i < 2; i++) {
      const missing = await get('127.0.0.13', '/api/v1/subnets/99');
      expect(missing.status).toBe(404);
      expect(missing.headers['x-cache-status']).toBe('MISS');
      const invalid = await get('127.0.0.13', '/api/v1/subnets/abc');
      expect(invalid.status).toBe(422);
      expect(invalid.headers['x-cache-status']).toBe('MISS');
    }
    expect(reachedCount('/api/v1/subnets/:netuid') - before).toBe(4);
  });

  it('logs no client address and no query string (a coldkey, a sign-in token)', async () => {
    const coldkey = '5HEmAFNaqKdTEwtiYRzFuXVaMagdCpgRxa1zkVSCoxMX18cy';
    await get('127.0.0.14', `/tax/check.json?coldkey=${coldkey}`);
    await get('127.0.0.14', '/account/sign-in?token=a-one-use-sign-in-token');
    await get('127.0.0.14', '/api/v1/subnets?secret=pasted');
    // nginx writes its log line when the answer is sent; give it a moment to reach the file.
    await sleep(200);
    const log = await readFile(join(dir, 'sbm-access.log'), 'utf8');
    expect(log).toContain('/tax/check.json');
    expect(log).toContain('/account/sign-in');
    for (const secret of [coldkey, 'a-one-use-sign-in-token', 'pasted', '?', '127.0.0.14']) {
      expect(log, secret).not.toContain(secret);
    }
  });

  it('redirects plain HTTP to HTTPS', async () => {
    const answer = await new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      httpRequest(
        { host: '127.0.0.1', port: httpPort, path: '/api/v1/subnets', headers: { host: HOST } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode!, location: res.headers.location });
        },
      )
        .on('error', reject)
        .end();
    });
    expect(answer).toEqual({ status: 301, location: `https://${HOST}/api/v1/subnets` });
  });

  it('passes ETag, 304 and the rate-limit headers through, uncompressed by nginx', async () => {
    // A keyed request carries its allowance's headers on every answer.
    const state = await openGatewayState(stateUrl);
    const auth = { state, now: () => NOW };
    const account = await createAccount(auth, 'api');
    const { key } = await createApiKey(auth, account.id);
    await state.close();
    const bearer = { authorization: `Bearer ${key}` };

    // nginx compresses nothing itself: identity stays identity, and br is the gateway's own form.
    const plain = await get('127.0.0.5', '/api/v1/subnets', { ...bearer, 'accept-encoding': 'identity' });
    expect(plain.body).toContain('"probe"');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const first = await get('127.0.0.5', '/api/v1/subnets', { ...bearer, 'accept-encoding': 'gzip, br' });
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{64}-br"$/);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['x-ratelimit-limit']).toBe('10000');
    expect(first.headers['x-ratelimit-remaining']).toBe('9998');
    expect(first.headers['ratelimit-policy']).toMatch(/^10000;w=\d+$/);
    expect(first.headers['strict-transport-security']).toBe('max-age=31536000');

    const again = await get('127.0.0.5', '/api/v1/subnets', {
      ...bearer,
      'accept-encoding': 'gzip, br',
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['x-ratelimit-limit']).toBe('10000');
  });

  it('limits each client by its own address, which a forged X-Forwarded-For cannot move', async () => {
    // A kept public answer never reaches the gateway (nor its limit); what does reach it is counted
    // per client: here an unknown subnet, a 404 nginx never keeps.
    const path = '/api/v1/subnets/98';
    const statuses = async (from: string, count: number, headers: Record<string, string> = {}) => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await get(from, path, headers)).status);
      return seen;
    };
    expect(await statuses('127.0.0.2', 3)).toEqual([404, 404, 404]);
    const refused = await get('127.0.0.2', path);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // Claiming to be someone else does not help 127.0.0.2: nginx appends the real address, which counts.
    expect(await statuses('127.0.0.2', 2, { 'x-forwarded-for': '198.51.100.77' })).toEqual([429, 429]);

    // Another client has its own allowance: the gateway sees the client's address, not nginx's.
    expect(await statuses('127.0.0.3', 1)).toEqual([404]);
    // Naming the exhausted client neither spends its allowance nor inherits its refusal.
    expect(await statuses('127.0.0.3', 2, { 'x-forwarded-for': '127.0.0.2' })).toEqual([404, 404]);
    expect(await statuses('127.0.0.3', 1)).toEqual([429]);
  });

  it('a new publication replaces the kept body within the max-age; until then it is revalidated by ETag', async () => {
    const path = '/api/v1/subnets/7';
    const br = { 'accept-encoding': 'br' };
    const sleepUntil = (ms: number) => sleep(Math.max(0, ms - Date.now()));
    clock = BEFORE_MIDNIGHT;
    try {
      const first = await get('127.0.0.14', path, br);
      expect(first.headers['x-cache-status']).toBe('MISS');
      // 3.5 s before the next daily run can appear: kept 3 s, and nothing stale after.
      expect(first.headers['cache-control']).toBe('public, max-age=3, stale-while-revalidate=0');
      const firstAt = Date.now();
      await sleep(1_200);
      const kept = await get('127.0.0.14', path, br);
      expect(kept.headers['x-cache-status']).toBe('HIT');
      expect(kept.bytes.equals(first.bytes)).toBe(true);
      // The gateway's Date, not the moment nginx handed it out: a cache behind nginx counts the
      // max-age from when the gateway made the answer.
      expect(kept.headers.date).toBe(first.headers.date);

      // Expired, nothing new: nginx asks with the kept ETag, the gateway answers 304, the body stays.
      await sleepUntil(firstAt + 4_100);
      const before = answered.filter((entry) => entry === '/api/v1/subnets/:netuid 304').length;
      const revalidated = await get('127.0.0.14', path, br);
      expect(revalidated.headers['x-cache-status']).toBe('REVALIDATED');
      expect(revalidated.bytes.equals(first.bytes)).toBe(true);
      expect(answered.filter((entry) => entry === '/api/v1/subnets/:netuid 304').length).toBe(before + 1);
      const revalidatedAt = Date.now();

      await publish('second', BEFORE_MIDNIGHT);
      // The gateway has the new run (it polls every 100 ms here); nginx still hands out the kept one.
      for (let i = 0; i < 50 && !(await direct(path)).body.includes('second'); i++) await sleep(100);
      expect((await direct(path)).body).toContain('second');
      const stillKept = await get('127.0.0.15', path, br);
      if (Date.now() - revalidatedAt < 2_500) {
        expect(stillKept.headers['x-cache-status']).toBe('HIT');
        expect(stillKept.bytes.equals(first.bytes)).toBe(true);
      }
      await sleepUntil(revalidatedAt + 4_100);
      const replaced = await get('127.0.0.15', path, br);
      expect(replaced.headers['x-cache-status']).toBe('EXPIRED');
      const gateway = await direct(path, br);
      expect(replaced.headers.etag).toBe(gateway.headers.etag);
      expect(replaced.headers.etag).not.toBe(first.headers.etag);
      expect(replaced.headers['content-encoding']).toBe('br');
      expect(replaced.bytes.equals(gateway.bytes)).toBe(true);
    } finally {
      clock = NOW;
    }
  });
});

/** The shipped site with the given strings replaced; each must be there, so a change to the file shows. */
function pointAt(site: string, replacements: Record<string, string>): string {
  let out = site;
  for (const [from, to] of Object.entries(replacements)) {
    if (!out.includes(from)) throw new Error(`deploy/nginx/sbm.conf no longer contains ${from}`);
    out = out.replaceAll(from, to);
  }
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${port}`);
}
