/**
 * Under `make demo` (SBM_SANDBOX=1) every explorer page (and the order status and account pages) says plainly that it shows the sandbox's
 * synthetic world; a gateway serving real data says nothing of the kind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, gatewayUnderTest } from '../support/gateway-under-test.js';

/** Each page with the status and the title it answers with, on both gateways (so an error page fails). */
const PAGES: Array<[path: string, status: number, title: string]> = [
  ['/', 200, 'Subnets'],
  ['/subnets/3', 200, 'Subnet 3'],
  ['/tax', 200, 'Tax check'],
  ['/subnets/not-a-number', 404, 'No such subnet'],
  ['/explore/sign-in?token=forged', 404, 'This sign-in link is not valid'],
  ['/explore/sign-out', 200, 'You are not signed in'],
  // The order status page a buyer's browser lands on (here: the page for a link that finds no order).
  ['/tax/orders/ord_00000000000000000000000000000000?t=forged', 404, 'Order not found'],
  // The API plan's pages.
  ['/api-plan', 200, 'API plan'],
  ['/account', 200, 'Account'],
  ['/account/sign-in?token=forged', 200, 'Sign in'],
];

let dir: string;
let sandbox: GatewayUnderTest;
let production: GatewayUnderTest;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-sandbox-notice-'));
  const options = {
    storeDir: join(dir, 'store'),
    nowMs: Date.UTC(2026, 10, 25, 12),
    baseUrl: 'http://explorer.test',
  };
  sandbox = await gatewayUnderTest({
    ...options,
    stateUrl: `sqlite:${join(dir, 'a.sqlite')}`,
    sandbox: true,
  });
  production = await gatewayUnderTest({ ...options, stateUrl: `sqlite:${join(dir, 'b.sqlite')}` });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await production?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The page's text as a reader sees it: tags removed, entities of the notice decoded, space folded. */
async function pageText(gw: GatewayUnderTest, path: string): Promise<{ status: number; text: string }> {
  const response = await gw.get(path, { accept: 'text/html' });
  const html = await response.text();
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
  return { status: response.status, text };
}

describe('the sandbox notice', () => {
  it.each(PAGES)(
    '%s says it shows the synthetic sandbox world, not Bittensor',
    async (path, status, title) => {
      const { status: answered, text } = await pageText(sandbox, path);
      expect([answered, titleOf(text)]).toEqual([status, title]);
      expect(text).toContain(
        "Sandbox. Every figure on this page comes from the local sandbox chain's synthetic world",
      );
      expect(text).toContain('not from Bittensor');
    },
  );

  it.each(PAGES)(
    '%s says nothing of a sandbox on a gateway serving real data',
    async (path, status, title) => {
      const { status: answered, text } = await pageText(production, path);
      expect([answered, titleOf(text)]).toEqual([status, title]);
      expect(text).not.toMatch(/sandbox/i);
    },
  );
});

/** The page's <title> up to the site's name: the page itself, not an error page in its place. */
const titleOf = (text: string) => text.trim().split(' · Subnet burn metrics ')[0];
