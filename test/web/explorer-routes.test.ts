/**
 * The explorer's routes through `app.fetch` (no browser): page and asset headers (CSP, caching, gzip),
 * the API answering exactly as before beside the pages, and one-time sign-in links end to end from the
 * operator command (`sessions create --link`) to the cookie: single use, 15 minutes, forged tokens,
 * subscribers only, `Secure` under an https base URL, and no token in the request log.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelAccount, createAccount } from '../../gateway/auth/accounts.js';
import { PlanMismatchError } from '../../gateway/auth/auth-errors.js';
import { createSignInLink } from '../../gateway/auth/sign-in-links.js';
import type { CommandIo } from '../../gateway/commands/command-io.js';
import { sessionsCommand } from '../../gateway/commands/sessions.js';
import { loadGatewayConfig } from '../../gateway/config.js';
import { CONTENT_SECURITY_POLICY } from '../../gateway/web/page-headers.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../support/gateway-under-test.js';
import { NOW_MS, publishedSandbox } from '../support/published-sandbox.js';

const HTTP_BASE = 'http://explorer.test';
const HTTPS_BASE = 'https://explorer.example';

let dir: string;
let stateUrl: string;
let gw: GatewayUnderTest;
let secureGw: GatewayUnderTest;

beforeAll(async () => {
  const world = await publishedSandbox();
  dir = await mkdtemp(join(tmpdir(), 'sbm-explorer-routes-'));
  stateUrl = `sqlite:${join(dir, 'gateway.sqlite')}`;
  const options = { storeDir: world.storeDir, stateUrl, nowMs: NOW_MS + 3_600_000 };
  gw = await gatewayUnderTest({ ...options, baseUrl: HTTP_BASE });
  secureGw = await gatewayUnderTest({ ...options, baseUrl: HTTPS_BASE });
}, 600_000);

afterAll(async () => {
  await gw?.close();
  await secureGw?.close();
  await rm(dir, { recursive: true, force: true });
});

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe('pages and assets', () => {
  it('serves the three pages as no-cache HTML under a same-origin CSP, linking hashed assets', async () => {
    for (const path of ['/', '/subnets/1', '/tax']) {
      const response = await gw.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('vary')).toBe('Cookie');
      const html = await response.text();
      expect(html).toMatch(/<script type="module" src="\/assets\/explorer-[A-Z0-9]+\.js"><\/script>/);
      expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/explorer-[A-Z0-9]+\.css">/);
      expect(html).toContain('href="/api/v1/openapi.json"');
      expect(html).toContain('href="/api/v1/method"');
      // Nothing inline for the CSP to refuse, and nothing from another origin.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\sstyle=|https?:\/\//);
    }
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|\*|https?:/);
  });

  it('serves the assets gzipped when asked, cached for a year, and 404 for any other name', async () => {
    const html = await (await gw.get('/')).text();
    for (const name of [...html.matchAll(/\/assets\/(explorer-[A-Z0-9]+\.(?:js|css))/g)].map((m) => m[1]!)) {
      const plain = await gw.get(`/assets/${name}`);
      const zipped = await gw.get(`/assets/${name}`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
      const body = Buffer.from(await plain.arrayBuffer());
      const gz = Buffer.from(await zipped.arrayBuffer());
      expect(gunzipSync(gz).equals(body)).toBe(true);
      expect(plain.headers.get('content-type')).toMatch(
        name.endsWith('.js') ? /^text\/javascript/ : /^text\/css/,
      );
    }
    expect((await gw.get('/assets/explorer-NOPE.js')).status).toBe(404);
    expect((await gw.get('/assets/..%2Fbuild-explorer.ts')).status).toBe(404);
  });

  it('leaves the API as it was: JSON bodies, JSON 404s and 405s, HEAD like GET', async () => {
    const list = await gw.get('/api/v1/subnets');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(list.headers.get('content-security-policy')).toBeNull();
    const missing = await gw.get('/api/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not Found' });
    const post = await gw.app.fetch(new Request(`${HTTP_BASE}/`, { method: 'POST' }), { ip: '203.0.113.9' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toEqual({ detail: 'Method Not Allowed' });
    const head = await gw.app.fetch(new Request(`${HTTP_BASE}/tax`, { method: 'HEAD' }), {
      ip: '203.0.113.9',
    });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(500);
    const notSubnet = await gw.get('/subnets/abc');
    expect(notSubnet.status).toBe(404);
    expect(await notSubnet.text()).toContain('is not a subnet number');
  });
});

describe('one-time sign-in links', () => {
  async function runCli(...args: string[]): Promise<string[]> {
    const lines: string[] = [];
    const io: CommandIo = { out: (text) => lines.push(text), now: () => new Date(gw.clock.nowMs) };
    const config = loadGatewayConfig({ SBM_STATE_URL: stateUrl, SBM_BASE_URL: HTTP_BASE });
    const program = new Command('sbm-gateway').exitOverride().addCommand(sessionsCommand(config, io));
    for (const sub of program.commands) {
      sub.exitOverride().configureOutput({ writeErr: () => {} });
      for (const leaf of sub.commands) leaf.exitOverride().configureOutput({ writeErr: () => {} });
    }
    await program.parseAsync(args, { from: 'user' });
    return lines;
  }

  it('`sessions create --link` prints a link that signs in once: cookie, redirect to /, then a page saying it was used', async () => {
    const account = await createAccount(gw.auth, 'subscriber');
    const lines = await runCli('sessions', 'create', '--account', account.id, '--link');
    expect(lines[0]).toMatch(/^sign-in link for account acc_\w+, single use, valid until .+Z/);
    const link = lines[1]!;
    expect(link).toMatch(new RegExp(`^${HTTP_BASE}/explore/sign-in\\?token=[1-9A-HJ-NP-Za-km-z]{43,44}$`));

    const path = link.slice(HTTP_BASE.length);
    const signIn = await gw.get(path);
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/');
    expect(signIn.headers.get('referrer-policy')).toBe('no-referrer');
    const cookie = signIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(
      /^svc_explore=[1-9A-HJ-NP-Za-km-z]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/,
    );
    const value = cookie.split(';')[0]!;
    // The cookie is a subscriber session: the page says so and a paid window opens.
    expect(await (await gw.get('/', { cookie: value })).text()).toContain('Sign out');
    expect((await gw.get('/api/v1/subnets/1/history?days=365', { cookie: value })).status).toBe(200);

    const again = await gw.get(path);
    expect(again.status).toBe(410);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('This sign-in link has been used');
    // Route patterns only in the log: the token never reaches it.
    const token = tokenOf(link);
    expect(gw.logs.filter((entry) => entry.route === '/explore/sign-in').length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(gw.logs)).not.toContain(token);
  });

  it('expires after 15 minutes, refuses forged and missing tokens, and never sets a cookie then', async () => {
    const account = await createAccount(gw.auth, 'subscriber');
    const fresh = await createSignInLink(gw.auth, account.id, { baseUrl: HTTP_BASE });
    const late = await createSignInLink(gw.auth, account.id, { baseUrl: HTTP_BASE });
    expect(fresh.record.expiresAt.getTime() - fresh.record.createdAt.getTime()).toBe(15 * 60_000);
    gw.clock.nowMs += 15 * 60_000 - 1;
    try {
      expect((await gw.get(`/explore/sign-in?token=${tokenOf(fresh.url)}`)).status).toBe(303);
      gw.clock.nowMs += 1;
      const expired = await gw.get(`/explore/sign-in?token=${tokenOf(late.url)}`);
      expect(expired.status).toBe(410);
      expect(expired.headers.get('set-cookie')).toBeNull();
      expect(await expired.text()).toContain('This sign-in link has expired');
    } finally {
      gw.clock.nowMs -= 15 * 60_000;
    }
    const forged = tokenOf(fresh.url).replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
    for (const path of [
      `/explore/sign-in?token=${forged}`,
      '/explore/sign-in',
      '/explore/sign-in?token=',
      `/explore/sign-in?token=${'x'.repeat(500)}`,
      `/explore/sign-in?token=${tokenOf(late.url)}&token=${tokenOf(late.url)}`,
    ]) {
      const response = await gw.get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('set-cookie')).toBeNull();
      const html = await response.text();
      expect(html).toContain('This sign-in link is not valid');
      expect(html).not.toMatch(/at .+:\d+:\d+|Error:/);
    }
  });

  it('is for subscribers: API accounts get none, and a link of a subscription that ended opens nothing', async () => {
    const api = await createAccount(gw.auth, 'api');
    await expect(createSignInLink(gw.auth, api.id, { baseUrl: HTTP_BASE })).rejects.toThrow(
      PlanMismatchError,
    );
    await expect(runCli('sessions', 'create', '--account', api.id, '--link')).rejects.toThrow(/subscribers/);
    // A cancelled subscription whose paid period ends 10 minutes from now: a link made now opens a
    // session now, and one followed after the period's end opens nothing.
    const now = new Date(gw.clock.nowMs);
    const anchor = new Date(now.getTime() + 10 * 60_000);
    anchor.setUTCMonth(anchor.getUTCMonth() - 1);
    const subscriber = await createAccount(gw.auth, 'subscriber', anchor);
    await cancelAccount(gw.auth, subscriber.id);
    const early = await createSignInLink(gw.auth, subscriber.id, { baseUrl: HTTP_BASE });
    const late = await createSignInLink(gw.auth, subscriber.id, { baseUrl: HTTP_BASE });
    expect((await gw.get(`/explore/sign-in?token=${tokenOf(early.url)}`)).status).toBe(303);
    gw.clock.nowMs += 11 * 60_000;
    try {
      const ended = await gw.get(`/explore/sign-in?token=${tokenOf(late.url)}`);
      expect(ended.status).toBe(403);
      expect(ended.headers.get('set-cookie')).toBeNull();
      expect(await ended.text()).toContain('This subscription has ended');
    } finally {
      gw.clock.nowMs -= 11 * 60_000;
    }
  });

  it('sets a Secure cookie when the base URL is https, and sign-out clears it and ends the session', async () => {
    const account = await createAccount(secureGw.auth, 'subscriber');
    const link = await createSignInLink(secureGw.auth, account.id, { baseUrl: HTTPS_BASE });
    expect(link.url.startsWith(`${HTTPS_BASE}/explore/sign-in?token=`)).toBe(true);
    const signIn = await secureGw.get(`/explore/sign-in?token=${tokenOf(link.url)}`);
    const cookie = signIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(/; Secure$/);
    const value = cookie.split(';')[0]!;
    const out = await secureGw.app.fetch(
      new Request(`${HTTPS_BASE}/explore/sign-out`, { method: 'POST', headers: { cookie: value } }),
      { ip: '203.0.113.9' },
    );
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toBe(
      'svc_explore=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    );
    expect((await secureGw.get('/api/v1/subnets/1/history?days=365', { cookie: value })).status).toBe(401);
  });
});
