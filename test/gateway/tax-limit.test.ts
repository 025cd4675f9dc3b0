/**
 * The tax limit (spec 7.2, 8): 20 requests an hour per client IP across `/tax/check.json` and every
 * `/tax/orders/...` route, the 21st refused with 429. In-process first; then two real gateway processes
 * (`sbm-gateway serve`) on one PostgreSQL database share one count, and their request logs (stdout)
 * carry neither a coldkey nor a secret sent to them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningChild, startChild } from '../../pipeline/demo/child-process.js';
import { type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';
import { createColdkeyChain } from '../../pipeline/tax/chain-record/coldkey-chain.js';
import { startTestPostgres, type TestPostgres } from '../services/postgres.js';
import { gatewayUnderTest } from '../support/gateway-under-test.js';
import {
  BASE_URL,
  NOW_MS,
  type PublishedSandbox,
  publishedSandbox,
  SANDBOX_OPTIONS,
} from '../support/published-sandbox.js';
import { STATE_ENGINES } from './state/state-engines.js';

const SEED_PHRASE = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';

let world: PublishedSandbox;
let devnet: RunningDevnet;

beforeAll(async () => {
  world = await publishedSandbox();
  devnet = await startDevnet(SANDBOX_OPTIONS);
}, 600_000);

afterAll(async () => {
  await devnet?.stop();
});

/** The twenty requests of one client: checks (valid and not) and order routes, interleaved. */
function twentyPaths(): string[] {
  const coldkeys = world.truth.coldkeys.map((c) => c.coldkey);
  const paths: string[] = [];
  for (let i = 0; i < 5; i++) {
    paths.push(`/tax/check.json?coldkey=${coldkeys[i]}`);
    paths.push(`/tax/orders/ord_${i}?t=${'0'.repeat(64)}`);
    paths.push(`/tax/check.json?coldkey=${coldkeys[i]!.slice(0, 30)}`);
    paths.push(`/tax/orders/ord_${i}/pack?t=${'0'.repeat(64)}`);
  }
  return paths;
}

describe('in one gateway', () => {
  it('admits 20 an hour across the check and the order routes, refuses the 21st, counts per IP', async () => {
    const store = await STATE_ENGINES[0]!.start();
    const chain = createColdkeyChain({ url: devnet.url });
    const gw = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: store.url,
      nowMs: NOW_MS,
      baseUrl: BASE_URL,
      taxChain: chain,
    });
    try {
      const statuses: number[] = [];
      for (const path of twentyPaths()) statuses.push((await gw.get(path, {}, '192.0.2.10')).status);
      expect(new Set(statuses)).toEqual(new Set([200, 400, 404]));
      for (const path of ['/tax/check.json?coldkey=x', '/tax/orders/ord_9', '/tax/orders/ord_9/pack']) {
        const refused = await gw.get(path, {}, '192.0.2.10');
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_500);
        expect(((await refused.json()) as { detail: string }).detail).toMatch(
          /More than 20 requests an hour/,
        );
      }
      // Another address has its own twenty; an hour later the first has its twenty again.
      expect((await gw.get('/tax/orders/x', {}, '192.0.2.11')).status).toBe(404);
      gw.clock.nowMs = NOW_MS + 3_600_000 + 60_000;
      expect((await gw.get('/tax/orders/x', {}, '192.0.2.10')).status).toBe(404);
    } finally {
      await gw.close();
      await chain.close();
      await store.stop();
    }
  });
});

describe('two gateway processes on one PostgreSQL', () => {
  let postgres: TestPostgres;
  const gateways: { child: RunningChild; url: string; output: string[] }[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
    const env = {
      ...process.env,
      SBM_STATE_URL: postgres.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_CHAIN_URL: devnet.url,
    };
    for (let i = 0; i < 2; i++) {
      const started = await startChild(
        process.execPath,
        ['--import', 'tsx', 'gateway/cli.ts', 'serve', '--port', '0'],
        { env, ready: /listening on (\S+)/, label: `gateway ${i}`, timeoutMs: 60_000 },
      );
      const output: string[] = [];
      started.child.process.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      started.child.process.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      gateways.push({ child: started.child, url: started.match[1]!, output });
    }
  }, 600_000);

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.child.stop()));
    await postgres?.stop();
  });

  it('share one count: twenty spread over both, then the 21st is refused by either', async () => {
    const paths = twentyPaths();
    const statuses: number[] = [];
    for (const [i, path] of paths.entries()) {
      const response = await fetch(`${gateways[i % 2]!.url}${path}`);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    for (const gateway of gateways) {
      const refused = await fetch(`${gateway.url}/tax/check.json?coldkey=${encodeURIComponent(SEED_PHRASE)}`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      await refused.arrayBuffer();
    }
    // Their request logs: one line per request, the route pattern only.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = gateways
      .flatMap((gateway) => gateway.output.join('').split('\n'))
      .filter((l) => l.startsWith('{'));
    const routes = lines.map((line) => (JSON.parse(line) as { route: string }).route);
    expect(routes.filter((route) => route === '/tax/check.json')).toHaveLength(12);
    expect(routes.filter((route) => route.startsWith('/tax/orders/'))).toHaveLength(10);
    const everything = gateways.map((gateway) => gateway.output.join('')).join('\n');
    for (const coldkey of world.truth.coldkeys.slice(0, 5).map((c) => c.coldkey)) {
      expect(everything).not.toContain(coldkey.slice(0, 30));
    }
    expect(everything).not.toContain('obey');
    expect(everything).not.toContain('coldkey=');
  }, 120_000);
});
