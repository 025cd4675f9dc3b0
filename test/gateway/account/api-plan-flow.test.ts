/**
 * The self-serve API plan end to end over real parts: the gateway app on the published sandbox world
 * with a real SQLite state (two gateway instances on one file), the Stripe stand-in over HTTP sending
 * signed events to the gateway's webhook over HTTP, and the outbox mailer writing real .eml files.
 * One account walks the whole path: email → link → confirm → subscribe → pay on the stand-in's page
 * → keys → requests → usage → roll → revoke → cancel → renewals.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { billingStripeClient, stripePagesOrigins } from '../../../gateway/account/stripe-billing.js';
import { outboxMailer } from '../../../gateway/orders/mailer.js';
import type { AccountServices } from '../../../gateway/routes/account.js';
import { ApiUsage } from '../../../pipeline/contract/usage.js';
import { StripeFake } from '../../../pipeline/devnet/stripe/stripe-fake.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { NOW_MS, publishedSandbox } from '../../support/published-sandbox.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { signInLinkFor } from './sign-in-mail.js';

const BASE = 'http://127.0.0.1';
const SECRET = 'whsec_account_flow_test';
const HOUR = 3_600_000;

let stateStore: TestStateStore;
let outbox: string;
let fake: StripeFake;
let gw: GatewayUnderTest;
let second: GatewayUnderTest;
let server: ServerType;
let base: string;
const clock = { nowMs: NOW_MS };

beforeAll(async () => {
  const world = await publishedSandbox();
  stateStore = await STATE_ENGINES[0]!.start();
  outbox = await mkdtemp(join(tmpdir(), 'sbm-account-outbox-'));
  fake = new StripeFake({ now: () => clock.nowMs });
  await fake.listen();
  const price = fake.createPrice({ unitAmount: 9900, currency: 'usd', interval: 'month', name: 'API plan' });
  const apiBase = {
    protocol: 'http' as const,
    host: '127.0.0.1',
    port: Number(new URL(fake.url).port),
    url: fake.url,
  };
  const account: AccountServices = {
    mailer: outboxMailer(outbox, 'Accounts <accounts@sbm.example>'),
    stripe: billingStripeClient('sk_test_account_flow', apiBase),
    priceId: price.id,
    webhookSecret: SECRET,
    stripePages: stripePagesOrigins(apiBase),
  };
  // The app answers on a real port, so the base URL (Origin) and the stand-in's webhook are real.
  let app: GatewayUnderTest['app'] | null = null;
  server = await new Promise<ServerType>((resolve) => {
    const s = serve(
      {
        fetch: (request: Request) => app!.fetch(request, { ip: '198.51.100.20' }),
        hostname: '127.0.0.1',
        port: 0,
      },
      () => resolve(s),
    );
  });
  base = `${BASE}:${(server.address() as AddressInfo).port}`;
  gw = await gatewayUnderTest({
    storeDir: world.storeDir,
    stateUrl: stateStore.url,
    nowMs: NOW_MS,
    baseUrl: base,
    account,
    clock,
  });
  second = await gatewayUnderTest({
    storeDir: world.storeDir,
    stateUrl: stateStore.url,
    nowMs: NOW_MS,
    baseUrl: base,
    account,
    clock,
  });
  app = gw.app;
  fake.setWebhook(`${base}/account/webhooks/stripe`, SECRET);
}, 600_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await second?.close();
  await gw?.close();
  await fake?.close();
  await stateStore?.stop();
  if (outbox) await rm(outbox, { recursive: true, force: true });
});

/** A browser on our origin: cookies kept, Origin sent on every POST. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly ip = '203.0.113.50') {}

  async request(
    path: string,
    init: { method?: string; form?: Record<string, string>; origin?: string; via?: GatewayUnderTest } = {},
  ) {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.method === 'POST') {
      headers['origin'] = init.origin ?? base;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await (init.via ?? gw).app.fetch(
      new Request(`${base}${path}`, {
        method: init.method ?? 'GET',
        headers,
        ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
      }),
      { ip: this.ip },
    );
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(pair!.slice(0, eq));
      else this.cookies.set(pair!.slice(0, eq), value);
    }
    return response;
  }

  post(path: string, form: Record<string, string> = {}, origin?: string) {
    return this.request(path, { method: 'POST', form, ...(origin ? { origin } : {}) });
  }

  async csrf(): Promise<string> {
    const html = await (await this.request('/account')).text();
    return /name="csrf" value="([^"]+)"/.exec(html)![1]!;
  }

  async formToken(): Promise<string> {
    const html = await (await this.request('/account')).text();
    return /name="form" value="([^"]+)"/.exec(html)![1]!;
  }
}

/** The newest sign-in link mailed to `email`, read from the outbox. */
const linkFor = (email: string) => signInLinkFor(outbox, email);

async function signIn(browser: Browser, email: string): Promise<void> {
  const form = await browser.formToken();
  expect((await browser.post('/account/sign-in-link', { email, form })).status).toBe(200);
  const token = new URL(await linkFor(email)).searchParams.get('token')!;
  const confirmed = await browser.post('/account/sign-in', { token });
  expect(confirmed.status).toBe(303);
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const usage = async (key: string) =>
  (await gw.get('/api/v1/usage', bearer(key))).json() as Promise<Record<string, unknown>>;

describe('email sign-in', () => {
  it('answers a link request for a known and an unknown email the same', async () => {
    await signIn(new Browser(), 'known@example.com');
    const a = new Browser('203.0.113.60');
    const b = new Browser('203.0.113.61');
    const known = await a.post('/account/sign-in-link', {
      email: 'known@example.com',
      form: await a.formToken(),
    });
    const unknown = await b.post('/account/sign-in-link', {
      email: 'nobody@example.com',
      form: await b.formToken(),
    });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(await known.text()).toBe(await unknown.text());
  });

  it('never spends a link on GET; the POST spends it once; a replay is refused', async () => {
    const browser = new Browser('203.0.113.62');
    await browser.post('/account/sign-in-link', {
      email: 'scanned@example.com',
      form: await browser.formToken(),
    });
    const link = await linkFor('scanned@example.com');
    const path = link.slice(link.indexOf('/account/'));
    for (let i = 0; i < 3; i++) {
      // A mail scanner's GETs: a page with a button, no cookie.
      const page = await new Browser('192.0.2.1').request(path);
      expect(page.status).toBe(200);
      expect(page.headers.getSetCookie().some((c) => c.startsWith('svc_account='))).toBe(false);
      expect(await page.text()).toContain('<button type="submit">Sign in</button>');
    }
    const token = new URL(link).searchParams.get('token')!;
    const first = await browser.post('/account/sign-in', { token });
    expect(first.status).toBe(303);
    const cookie = first.headers.getSetCookie().find((c) => c.startsWith('svc_account='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=2592000/);
    expect((await browser.request('/account')).status).toBe(200);
    expect(await (await browser.request('/account')).text()).toContain('scanned@example.com');
    const replay = await new Browser('203.0.113.63').post('/account/sign-in', { token });
    expect(replay.status).toBe(410);
  });

  it('refuses an expired link', async () => {
    const browser = new Browser('203.0.113.64');
    await browser.post('/account/sign-in-link', {
      email: 'late@example.com',
      form: await browser.formToken(),
    });
    const token = new URL(await linkFor('late@example.com')).searchParams.get('token')!;
    clock.nowMs += 15 * 60_000;
    try {
      expect((await browser.post('/account/sign-in', { token })).status).toBe(410);
    } finally {
      clock.nowMs -= 15 * 60_000;
    }
  });

  it("lets a browser's forms through: Origin sent on POST, redirects to the hosted pages allowed", async () => {
    const response = await new Browser('203.0.113.66').request('/account');
    // `no-referrer` would make browsers send `Origin: null` on every form POST (refused as cross-origin).
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    // Subscribe and Manage billing answer 303 to the hosted pages; browsers check form-action on redirects.
    expect(response.headers.get('content-security-policy')).toContain(
      `form-action 'self' ${new URL(fake.url).origin};`,
    );
    expect(stripePagesOrigins(null)).toEqual(['https://checkout.stripe.com', 'https://billing.stripe.com']);
  });

  it('refuses a cross-origin POST, and a form without its token', async () => {
    const browser = new Browser('203.0.113.65');
    const form = await browser.formToken();
    const cross = await browser.post(
      '/account/sign-in-link',
      { email: 'x@example.com', form },
      'https://evil.example',
    );
    expect(cross.status).toBe(403);
    expect(((await cross.json()) as { detail: string }).detail).toMatch(/Cross-origin/);
    expect((await browser.post('/account/sign-in-link', { email: 'x@example.com' })).status).toBe(403);
  });

  it('limits link requests to 5 an hour per email, with a 429 and a detail', async () => {
    for (let i = 0; i < 5; i++) {
      const b = new Browser(`198.18.0.${i + 1}`);
      expect(
        (await b.post('/account/sign-in-link', { email: 'many@example.com', form: await b.formToken() }))
          .status,
      ).toBe(200);
    }
    const b = new Browser('198.18.0.99');
    const refused = await b.post('/account/sign-in-link', {
      email: 'many@example.com',
      form: await b.formToken(),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /5 sign-in links an hour for this email/,
    );
  });
});

describe('the plan, from subscribe to renewal', () => {
  const browser = new Browser('203.0.113.80');
  let key = '';
  let keyId = '';

  it('makes one Checkout Session for two concurrent subscribe clicks', async () => {
    await signIn(browser, 'dev@example.com');
    const csrf = await browser.csrf();
    const before = fake.sessions().length;
    const clicks = await Promise.all([
      browser.post('/account/subscribe', { csrf }),
      browser.post('/account/subscribe', { csrf }),
    ]);
    expect(clicks.map((r) => r.status).sort()).toEqual([303, 409]);
    expect(fake.sessions().length).toBe(before + 1);
    const session = fake.sessions().at(-1)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      ui_mode: 'hosted_page',
      client_reference_id: expect.stringMatching(/^acc_/),
    });
    const location = clicks.find((r) => r.status === 303)!.headers.get('location')!;
    expect(location).toBe(session.url);
    // Stripe's page: paying sends the events to the webhook.
    const paid = await fetch(location, {
      method: 'POST',
      body: new URLSearchParams({ email: 'dev@example.com' }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(fake.events.map((e) => [e.event.type, e.delivered])).toEqual(
      expect.arrayContaining([
        ['invoice.paid', 200],
        ['checkout.session.completed', 200],
      ]),
    );
    const page = await (await browser.request('/account')).text();
    expect(page).toContain('API plan: paid until');
    // A live subscription: a third click is refused.
    expect((await browser.post('/account/subscribe', { csrf })).status).toBe(409);
  });

  it('creates a key shown once, refuses a fourth, and the key reads 90-day history', async () => {
    const csrf = await browser.csrf();
    const created = await browser.post('/account/keys', { csrf, name: 'laptop' });
    expect(created.status).toBe(201);
    const html = await created.text();
    key = /<code id="new-key-value">(sbm_live_[^<]+)<\/code>/.exec(html)![1]!;
    expect(key).toMatch(/^sbm_live_[1-9A-HJ-NP-Za-km-z]{44}[0-9A-Za-z]{6}$/);
    expect(await (await browser.request('/account')).text()).not.toContain(key);
    for (const name of ['ci', 'server']) {
      expect((await browser.post('/account/keys', { csrf, name })).status).toBe(201);
    }
    const fourth = await browser.post('/account/keys', { csrf, name: 'one too many' });
    expect(fourth.status).toBe(409);
    expect(await fourth.text()).toContain('3 active keys');
    keyId = (await gw.state.listKeys((await gw.state.billing.getAccountByEmail('dev@example.com'))!.id)).find(
      (k) => key.startsWith(k.prefix),
    )!.id;

    const history = await gw.get('/api/v1/subnets/1/history?days=90', bearer(key));
    expect(history.status).toBe(200);
    expect(history.headers.get('x-ratelimit-remaining')).toBe('9999');
    const account = (await gw.state.billing.getAccountByEmail('dev@example.com'))!;
    expect(history.headers.get('x-ratelimit-reset')).toBe(String(account.paidPeriodEnd!.getTime() / 1000));
  });

  it('shows the usage moved by one, on the page and at /api/v1/usage, which itself is not counted', async () => {
    await new Promise((resolve) => setTimeout(resolve, 20)); // the per-key record is written after the response
    for (let i = 0; i < 2; i++) {
      const body = await usage(key);
      expect(ApiUsage.parse(body)).toEqual(body);
      expect(body).toMatchObject({ limit: 10_000, used: 1, remaining: 9_999 });
      expect((body['keys'] as { id: string; used: number }[]).find((k) => k.id === keyId)).toMatchObject({
        used: 1,
      });
    }
    const page = await (await browser.request('/account')).text();
    expect(page).toContain('<strong id="usage-used">1</strong> of 10,000');
  });

  it('refuses a key with a bad checksum without a state lookup', async () => {
    const spy = vi.spyOn(gw.state, 'findKeyCandidates');
    const typo = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    const response = await gw.get('/api/v1/usage', bearer(typo));
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/checksum/);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('rolls with an hour of grace (both keys work), then the old one stops', async () => {
    const csrf = await browser.csrf();
    const rolled = await browser.post(`/account/keys/${keyId}/roll`, { csrf, grace: '3600' });
    expect(rolled.status).toBe(201);
    const fresh = /<code id="new-key-value">(sbm_live_[^<]+)<\/code>/.exec(await rolled.text())![1]!;
    expect((await gw.get('/api/v1/usage', bearer(key))).status).toBe(200);
    expect((await gw.get('/api/v1/usage', bearer(fresh))).status).toBe(200);
    clock.nowMs += HOUR;
    expect((await gw.get('/api/v1/usage', bearer(key))).status).toBe(401);
    expect((await gw.get('/api/v1/usage', bearer(fresh))).status).toBe(200);
    const events = await (await browser.request('/account')).text();
    expect(events).toMatch(/rolled/);
    key = fresh;
    keyId = (await gw.state.listKeys((await gw.state.billing.getAccountByEmail('dev@example.com'))!.id)).find(
      (k) => fresh.startsWith(k.prefix),
    )!.id;
  });

  it('revokes at once, also on a second gateway instance', async () => {
    expect((await second.get('/api/v1/usage', bearer(key))).status).toBe(200);
    const csrf = await browser.csrf();
    expect((await browser.post(`/account/keys/${keyId}/revoke`, { csrf })).status).toBe(303);
    expect((await second.get('/api/v1/usage', bearer(key))).status).toBe(401);
    const csrf2 = await browser.csrf();
    const again = /<code id="new-key-value">(sbm_live_[^<]+)<\/code>/.exec(
      await (await browser.post('/account/keys', { csrf: csrf2, name: 'after revoke' })).text(),
    )![1]!;
    key = again;
  });

  it('leaves the same state when every event is delivered again, in reverse order; a proration resets nothing', async () => {
    const account = (await gw.state.billing.getAccountByEmail('dev@example.com'))!;
    const snapshot = async () => ({
      account: await gw.state.getAccount(account.id),
      subscriptions: (await gw.state.billing.listSubscriptions(account.id)).map(
        ({ updatedAt: _, ...s }) => s,
      ),
    });
    const before = await snapshot();
    for (const entry of [...fake.events].reverse()) expect(await fake.redeliver(entry.event.id)).toBe(200);
    expect(await snapshot()).toEqual(before);
    const used = (await usage(key))['used'] as number;
    await fake.prorateSubscription(before.subscriptions[0]!.id);
    expect(await snapshot()).toEqual(before);
    expect((await usage(key))['used']).toBe(used);
  });

  it('keeps access after a cancellation in the portal until the period ends, then answers 402', async () => {
    const csrf = await browser.csrf();
    const portal = await browser.post('/account/billing-portal', { csrf });
    expect(portal.status).toBe(303);
    const portalUrl = portal.headers.get('location')!;
    const subscription = fake.subscriptions().find((s) => s.metadata['account_id'])!;
    const cancelled = await fetch(`${portalUrl}/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ subscription: subscription.id }),
      redirect: 'manual',
    });
    expect(cancelled.status).toBe(303);
    expect(await (await browser.request('/account')).text()).toContain('Cancelled: the plan ends');
    expect((await gw.get('/api/v1/usage', bearer(key))).status).toBe(200);
    const end = subscription.items.data[0]!.current_period_end * 1000;
    clock.nowMs = end;
    await fake.renewSubscription(subscription.id, 'paid'); // ends it instead: cancel_at_period_end
    expect(fake.subscription(subscription.id)!.status).toBe('canceled');
    const refused = await gw.get('/api/v1/usage', bearer(key));
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/\/account/);
  });

  it('after a renewal fails, answers 402 past the period end; a paid renewal brings the allowance back', async () => {
    const csrf = await browser.csrf();
    const click = await browser.post('/account/subscribe', { csrf });
    expect(click.status).toBe(303);
    await fetch(click.headers.get('location')!, {
      method: 'POST',
      body: new URLSearchParams({ email: 'dev@example.com' }),
      redirect: 'manual',
    });
    expect((await gw.get('/api/v1/usage', bearer(key))).status).toBe(200);
    const subscription = fake.subscriptions().find((s) => s.status === 'active')!;
    expect((await gw.get('/api/v1/subnets/1/history?days=90', bearer(key))).status).toBeLessThan(500);

    clock.nowMs = subscription.items.data[0]!.current_period_end * 1000;
    await fake.renewSubscription(subscription.id, 'failed');
    // Two months on, the 30-day account session has ended: sign in again.
    await signIn(browser, 'dev@example.com');
    expect(await (await browser.request('/account')).text()).toContain('The last payment failed');
    const refused = await gw.get('/api/v1/usage', bearer(key));
    expect(refused.status).toBe(402);

    await fake.payOpenInvoice(subscription.id);
    const back = await usage(key);
    expect(back).toMatchObject({ limit: 10_000, used: 0, remaining: 10_000 });

    clock.nowMs = fake.subscription(subscription.id)!.items.data[0]!.current_period_end * 1000;
    await fake.renewSubscription(subscription.id, 'paid');
    const renewed = await usage(key);
    expect(renewed).toMatchObject({ used: 0, remaining: 10_000 });
    expect(renewed['period_start']).toBe(new Date(clock.nowMs).toISOString());
  });
});
