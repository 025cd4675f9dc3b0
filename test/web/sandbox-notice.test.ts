/**
 * Under `make demo` (SBM_SANDBOX=1) every explorer page (and the order status and account pages) says plainly that it shows the sandbox's
 * synthetic world; a gateway serving real data says nothing of the kind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, gatewayUnderTest } from '../support/gateway-under-test.js';

const PAGES = [
  '/',
  '/subnets/3',
  '/tax',
  '/subnets/not-a-number',
  '/explore/sign-in?token=forged',
  '/explore/sign-out',
  // The order status page a buyer's browser lands on (here: the page for a link that finds no order).
  '/tax/orders/ord_00000000000000000000000000000000?t=forged',
  // The API plan's pages.
  '/api-plan',
  '/account',
  '/account/sign-in?token=forged',
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
  it.each(PAGES)('%s says it shows the synthetic sandbox world, not Bittensor', async (path) => {
    const { text } = await pageText(sandbox, path);
    expect(text).toContain(
      "Sandbox. Every figure on this page comes from the local sandbox chain's synthetic world",
    );
    expect(text).toContain('not from Bittensor');
  });

  it.each(PAGES)('%s says nothing of a sandbox on a gateway serving real data', async (path) => {
    const { text } = await pageText(production, path);
    expect(text).not.toMatch(/sandbox/i);
  });
});
