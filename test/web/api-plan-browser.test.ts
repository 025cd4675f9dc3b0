/**
 * The self-serve API plan walked in a real browser (Debian's chromium through puppeteer-core) on the
 * demo's stack (api-plan-demo-stack.ts: the demo's Stripe stand-in and two gateway instances started
 * as `sbm demo` starts them): home page → API plan → email → the sign-in link from the outbox → confirm
 * → subscribe → the stand-in's checkout page → webhook → a key shown once → the key used outside the
 * browser → usage → roll → revoke → cancel in the stand-in's portal → renewal failed → renewal paid.
 * Every step a person does is a click or a form fill on the real pages; time passes through the
 * stand-in's time controls (`POST /_stand-in/subscriptions/{id}/…`, the commands `make demo` prints),
 * with the gateways' clock moved to the moment Stripe would act. Screenshots of the account page go to
 * test-results/account/.
 *
 * The tests are steps of one walk and run in order; without chromium the file is skipped with a banner.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInLinkFor } from '../gateway/account/sign-in-mail.js';
import { type ApiPlanDemoStack, startApiPlanDemoStack } from './api-plan-demo-stack.js';
import { findChromium, launchBrowser, NO_BROWSER } from './browser.js';

const chromium = findChromium();
const SHOTS = join(process.cwd(), 'test-results', 'account');
const EMAIL = 'walker@example.com';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const WALK = `the API plan in a real browser, on the demo stack${chromium ? '' : NO_BROWSER}`;

describe.skipIf(!chromium)(WALK, () => {
  let stack: ApiPlanDemoStack;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const failedLoads: string[] = [];
  /** The key the walk currently holds, and the subscription the stand-in made. */
  let key = '';
  let subscriptionId = '';

  beforeAll(async () => {
    stack = await startApiPlanDemoStack();
    browser = await launchBrowser(chromium!);
    await mkdir(SHOTS, { recursive: true });
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${String(error)}`));
    page.on('response', (response) => {
      if (response.status() >= 400) failedLoads.push(`${response.status()} ${response.url()}`);
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** Clicks what navigates (a link, a form's button) and waits for the next page. */
  async function follow(selector: string): Promise<void> {
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
  }

  const text = () => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  /** The key used outside the browser, as `curl -H 'Authorization: Bearer …'` would. */
  const withKey = (path: string, secret = key, base = stack.base) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  const usage = async (secret = key) => {
    const response = await withKey('/api/v1/usage', secret);
    expect(response.status).toBe(200);
    return (await response.json()) as {
      limit: number;
      used: number;
      remaining: number;
      period_start: string;
      period_end: string;
    };
  };
  /** The usage figure the account page shows (written 1,234). */
  const pageUsed = async () =>
    Number((await page.$eval('#usage-used', (el) => el.textContent))!.replaceAll(',', ''));

  /** One of the stand-in's time controls, as `make demo` prints them. */
  async function standIn(action: 'renew-paid' | 'renew-failed' | 'pay-open-invoice'): Promise<void> {
    const response = await fetch(
      `${stack.orders.standInUrl}/_stand-in/subscriptions/${subscriptionId}/${action}`,
      { method: 'POST' },
    );
    expect(response.status).toBe(200);
  }

  /** The end of the paid period, as the key holder reads it at /api/v1/usage (Stripe's period). */
  const periodEndMs = async () => Date.parse((await usage()).period_end);

  /** The row of the key list holding `secret` (shown there as its prefix and last four). */
  async function rowOf(secret: string): Promise<string> {
    const rows = await page.$$eval('tr[data-key]', (trs) =>
      trs.map((tr) => ({
        id: tr.getAttribute('data-key')!,
        shown: tr.querySelector('code')?.textContent ?? '',
      })),
    );
    const row = rows.find((r) => {
      const [prefix, lastFour] = r.shown.split('…');
      return secret.startsWith(prefix!) && secret.endsWith(lastFour!);
    });
    expect(row, `a key row for ${secret.slice(0, 16)}…`).toBeDefined();
    return `tr[data-key="${row!.id}"]`;
  }

  async function createKey(name: string): Promise<string> {
    await page.type('form[action="/account/keys"] input[name="name"]', name);
    await follow('form[action="/account/keys"] button');
    return page.$eval('#new-key-value', (el) => el.textContent!.trim());
  }

  async function signIn(): Promise<void> {
    await page.goto(`${stack.base}/account`);
    await page.type('input[name="email"]', EMAIL);
    await follow('form[action="/account/sign-in-link"] button');
    expect(await text()).toContain('Check your email');
    // The link as the person's mail client shows it; opening it only shows a button.
    await page.goto(await signInLinkFor(stack.outbox, EMAIL));
    await follow('form[action="/account/sign-in"] button');
    expect(page.url()).toBe(`${stack.base}/account`);
    expect(await text()).toContain(`Signed in as ${EMAIL}`);
  }

  it('goes from the home page to the plan, and signs in with the link mailed to the outbox', async () => {
    await page.goto(`${stack.base}/`, { waitUntil: 'load' });
    await follow('a[href="/api-plan"]');
    expect(await text()).toContain('99 USD a month');
    await follow('main a[href="/account"]');
    expect(page.url()).toBe(`${stack.base}/account`);
    await shot('signed-out');
    await signIn();
  });

  it('subscribes on the stand-in checkout page; the webhook makes the plan paid', async () => {
    await follow('form[action="/account/subscribe"] button');
    expect(page.url().startsWith(`${stack.orders.standInUrl}/c/pay/cs_test_`)).toBe(true);
    expect(await text()).toContain('99.00 USD a month (subscription)');
    await follow('form[action^="/c/pay/"] button');
    // Stripe's page sent the events to the webhook before it sent the buyer back.
    expect(page.url()).toBe(`${stack.base}/account?checkout=done`);
    const subscription = stack.orders.fake.subscriptions().at(-1)!;
    subscriptionId = subscription.id;
    expect(subscription.metadata['account_id']).toMatch(/^acc_/);
    expect(await text()).toMatch(/API plan: paid until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(await page.$('form[action="/account/subscribe"]')).toBeNull();
  });

  it('creates a key shown once, which gets the 90-day history outside the browser', async () => {
    expect(await pageUsed()).toBe(0);
    key = await createKey('laptop');
    expect(key).toMatch(/^sbm_live_[1-9A-HJ-NP-Za-km-z]{44}[0-9A-Za-z]{6}$/);
    expect(await text()).toContain('it is shown this once');
    await rowOf(key);
    await shot('new-key');
    // A reload shows the account page without the secret, and posts nothing again (one key, not two).
    await page.reload({ waitUntil: 'load' });
    expect(page.url()).toBe(`${stack.base}/account`);
    expect(await page.content()).not.toContain(key);
    expect(await page.$('#new-key-value')).toBeNull();
    expect(await page.$$('tr[data-key]')).toHaveLength(1);

    const history = await withKey('/api/v1/subnets/1/history?days=90');
    expect(history.status).toBe(200);
    expect(history.headers.get('x-ratelimit-remaining')).toBe('9999');
    const body = (await history.json()) as { rows: unknown[] };
    expect(body.rows.length).toBeGreaterThan(30);
  });

  it('shows the usage moved by exactly one, on the page and at /api/v1/usage', async () => {
    const api = await usage();
    expect(api).toMatchObject({ limit: 10_000, used: 1, remaining: 9_999 });
    expect(await usage()).toMatchObject({ used: 1 }); // reading the usage costs nothing
    // The period is Stripe's: the subscription item's, as the stand-in made it.
    const item = stack.orders.fake.subscription(subscriptionId)!.items.data[0]!;
    expect(Date.parse(api.period_end)).toBe(item.current_period_end * 1000);
    await page.goto(`${stack.base}/account`);
    expect(await pageUsed()).toBe(1);
    expect(await page.$eval('#usage-remaining', (el) => el.textContent)).toBe('9,999');
    await shot('usage');
    // At a phone's width the page itself never scrolls sideways: the wide tables scroll in their box.
    await page.setViewport({ width: 375, height: 812, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      await page.reload();
      await shot('usage-phone');
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      // The key table is a card per key there: its Roll and Revoke are in view without scrolling sideways.
      const actions = await page.$$eval('tr[data-key] button', (buttons) =>
        buttons.map((button) => {
          const box = button.getBoundingClientRect();
          return { text: button.textContent, left: box.left, right: box.right, width: box.width };
        }),
      );
      expect(actions.map((button) => button.text)).toEqual(expect.arrayContaining(['Roll', 'Revoke']));
      for (const button of actions) {
        expect(button.width, button.text ?? '').toBeGreaterThan(0);
        expect(button.left, button.text ?? '').toBeGreaterThanOrEqual(0);
        expect(button.right, button.text ?? '').toBeLessThanOrEqual(375);
      }
      expect(
        await page.$eval('.key-table', (box) => box.scrollWidth <= box.clientWidth),
        'the key table does not scroll sideways',
      ).toBe(true);
    } finally {
      await page.setViewport({ width: 1280, height: 900 });
    }
  });

  it('rolls with an hour of grace: both keys work, then the old one stops', async () => {
    const row = await rowOf(key);
    await page.select(`${row} select[name="grace"]`, '3600');
    await follow(`${row} form[action$="/roll"] button`);
    const fresh = await page.$eval('#new-key-value', (el) => el.textContent!.trim());
    expect(fresh).not.toBe(key);
    expect((await withKey('/api/v1/usage', key)).status).toBe(200);
    expect((await withKey('/api/v1/usage', fresh)).status).toBe(200);
    expect(await text()).toMatch(/active until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    stack.clock.nowMs += HOUR;
    expect((await withKey('/api/v1/usage', key)).status).toBe(401);
    expect((await withKey('/api/v1/usage', fresh)).status).toBe(200);
    key = fresh;
  });

  it('revokes a key: the second gateway instance answers 401 at once', async () => {
    await page.goto(`${stack.base}/account`);
    expect((await withKey('/api/v1/usage', key, stack.secondBase)).status).toBe(200);
    await follow(`${await rowOf(key)} form[action$="/revoke"] button`);
    expect((await withKey('/api/v1/usage', key, stack.secondBase)).status).toBe(401);
    expect(await text()).toMatch(/revoked/);
    key = await createKey('server');
  });

  it('cancels in the stand-in portal: access until the period ends, then 402', async () => {
    await page.goto(`${stack.base}/account`);
    await follow('form[action="/account/billing-portal"] button');
    expect(page.url().startsWith(`${stack.orders.standInUrl}/p/session/`)).toBe(true);
    await follow('form[action$="/cancel"] button');
    expect(await text()).toContain("Cancels at the period's end");
    await follow('a::-p-text(Return to the service)');
    expect(await text()).toContain('Cancelled: the plan ends at the end of the paid period');

    stack.clock.nowMs = (await periodEndMs()) - MINUTE;
    expect((await withKey('/api/v1/usage')).status).toBe(200);
    stack.clock.nowMs = await periodEndMs();
    await standIn('renew-paid'); // at the period's end Stripe ends a cancelled plan instead
    expect(stack.orders.fake.subscription(subscriptionId)!.status).toBe('canceled');
    const refused = await withKey('/api/v1/subnets/1/history?days=90');
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/\/account/);
  });

  it('after a failed renewal answers 402; paying it brings the allowance back to 10,000', async () => {
    await page.goto(`${stack.base}/account`);
    await follow('form[action="/account/subscribe"] button');
    await follow('form[action^="/c/pay/"] button');
    subscriptionId = stack.orders.fake.subscriptions().find((s) => s.status === 'active')!.id;
    expect((await withKey('/api/v1/subnets/1/history?days=90')).status).toBe(200);
    expect((await usage()).used).toBe(1);

    stack.clock.nowMs = await periodEndMs();
    await standIn('renew-failed');
    const refused = await withKey('/api/v1/subnets/1/history?days=90');
    expect(refused.status).toBe(402);
    // Two months on, the 30-day account session has ended: sign in again, as the person would.
    await signIn();
    expect(await text()).toContain('The last payment failed');

    await standIn('pay-open-invoice'); // the card updated in the portal: the open invoice is paid
    expect(await usage()).toMatchObject({ limit: 10_000, used: 0, remaining: 10_000 });
    await page.goto(`${stack.base}/account`);
    expect(await pageUsed()).toBe(0);
    expect(await page.$eval('#usage-remaining', (el) => el.textContent)).toBe('10,000');
    expect(await text()).not.toContain('The last payment failed');
    expect(await text()).toMatch(/API plan: paid until/);

    // The next month's renewal is paid: the allowance is back to 10,000 for the new period.
    expect((await withKey('/api/v1/subnets/1/history?days=90')).status).toBe(200);
    expect((await usage()).used).toBe(1);
    stack.clock.nowMs = await periodEndMs();
    await standIn('renew-paid');
    const renewed = await usage();
    expect(renewed).toMatchObject({ limit: 10_000, used: 0, remaining: 10_000 });
    expect(renewed.period_start).toBe(new Date(stack.clock.nowMs).toISOString());
    // Nothing failed to load but what this small world lacks: the home page's emissions (no emissions
    // watch publishes here) and the stand-in's favicon (Chrome asks every origin for one).
    const expected = [`503 ${stack.base}/api/v1/emissions`, `404 ${stack.orders.standInUrl}/favicon.ico`];
    expect(failedLoads.filter((line) => !expected.includes(line))).toEqual([]);
    expect(consoleErrors.filter((line) => !/^Failed to load resource/.test(line))).toEqual([]);
    expect(stack.problems).toEqual([]);
  });
});
