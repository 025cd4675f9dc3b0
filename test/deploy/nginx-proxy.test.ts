/**
 * deploy/nginx/sbm.conf in front of a real gateway, with Debian's nginx (installed as root when absent,
 * skipped elsewhere): TLS terminates at nginx; the gateway (SBM_TRUST_PROXY=1) counts its per-IP limit
 * against the client's address that nginx appends to X-Forwarded-For; a client's forged
 * X-Forwarded-For cannot move it; ETag, 304 and the rate-limit headers pass through; nginx does not
 * compress (strong ETags stay strong). The site file is used as shipped, with only its ports, upstream
 * and certificate paths pointed at the test's.
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
import { createApiKey } from '../../gateway/auth/api-keys.js';
import { loadGatewayConfig } from '../../gateway/config.js';
import { type RunningGateway, startGateway } from '../../gateway/node.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { snapshotPaths } from '../../pipeline/contract/snapshot-paths.js';
import { FolderObjectStore, publishRun } from '../../pipeline/store/index.js';
import { debianTool } from './debian-tool.js';

const SITE = fileURLToPath(new URL('../../deploy/nginx/sbm.conf', import.meta.url));
const HOST = 'sbm.example.com';
const NOW = new Date('2026-03-02T12:00:30Z');
const nginx = debianTool('nginx', 'nginx');
const openssl = debianTool('openssl', 'openssl');
const skip = 'skip' in nginx ? nginx.skip : 'skip' in openssl ? openssl.skip : null;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe.skipIf(skip !== null)(`nginx in front of the gateway${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let dir: string;
  let stateUrl: string;
  let gw: RunningGateway;
  let proxy: ChildProcess;
  let cert: string;
  let httpPort: number;
  let httpsPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-nginx-'));
    stateUrl = `sqlite:${join(dir, 'gateway.sqlite')}`;
    await chmod(dir, 0o755);
    const store = new FolderObjectStore(join(dir, 'store'));
    await publishRun(store, {
      prefix: '',
      now: NOW,
      objects: [
        {
          path: snapshotPaths.subnetList(),
          body: new TextEncoder().encode(`{"probe":"${'x'.repeat(4000)}"}`),
          contentType: 'application/json',
        },
      ],
      meta: { burns_checked_at: NOW.toISOString() },
    });
    gw = await startGateway(
      loadGatewayConfig({
        SBM_PORT: '0',
        SBM_STATE_URL: stateUrl,
        SBM_STORE_URL: `file:${join(dir, 'store')}`,
        SBM_TRUST_PROXY: '1',
        SBM_PUBLIC_LIMIT_PER_MIN: '3',
      }),
      { now: () => NOW, log: () => {}, onError: () => {}, alert: () => {} },
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
    });
    await writeFile(join(dir, 'sbm.conf'), site);
    const temp = join(dir, 'nginx-temp');
    await mkdir(temp, { mode: 0o777 });
    await chmod(temp, 0o777);
    await writeFile(
      join(dir, 'nginx.conf'),
      `worker_processes 1;
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
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
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

    const first = await get('127.0.0.5', '/api/v1/subnets', { ...bearer, 'accept-encoding': 'gzip, br' });
    expect(first.status).toBe(200);
    expect(first.body).toContain('"probe"');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers['x-ratelimit-limit']).toBe('10000');
    expect(first.headers['x-ratelimit-remaining']).toBe('9999');
    expect(first.headers['ratelimit-policy']).toMatch(/^10000;w=\d+$/);
    expect(first.headers['strict-transport-security']).toBe('max-age=31536000');

    const again = await get('127.0.0.5', '/api/v1/subnets', { ...bearer, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['x-ratelimit-limit']).toBe('10000');
  });

  it('limits each client by its own address, which a forged X-Forwarded-For cannot move', async () => {
    const statuses = async (from: string, count: number, headers: Record<string, string> = {}) => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await get(from, '/api/v1/subnets', headers)).status);
      return seen;
    };
    expect(await statuses('127.0.0.2', 3)).toEqual([200, 200, 200]);
    const refused = await get('127.0.0.2', '/api/v1/subnets');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['x-ratelimit-limit']).toBe('3');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // Claiming to be someone else does not help 127.0.0.2: nginx appends the real address, which counts.
    expect(await statuses('127.0.0.2', 2, { 'x-forwarded-for': '198.51.100.77' })).toEqual([429, 429]);

    // Another client has its own allowance: the gateway sees the client's address, not nginx's.
    expect(await statuses('127.0.0.3', 1)).toEqual([200]);
    // Naming the exhausted client neither spends its allowance nor inherits its refusal.
    expect(await statuses('127.0.0.3', 2, { 'x-forwarded-for': '127.0.0.2' })).toEqual([200, 200]);
    expect(await statuses('127.0.0.3', 1)).toEqual([429]);
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
