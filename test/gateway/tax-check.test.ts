/**
 * `GET /tax/check.json` through `app.fetch`, over the published sandbox run (with the tax objects the
 * pipeline published: yields, prices, event shards) and
 * the sandbox chain over a real WebSocket: every figure of the demo coldkey recomputed here from the
 * world's truth and the published yields and prices; malformed inputs and secrets; privacy of the log
 * and the state; the 24-hour cache (no chain request, survives a restart, ends at the tax year's end);
 * a chain that is down.
 */
import { readFile } from 'node:fs/promises';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCacheKey } from '../../gateway/state/check-cache-key.js';
import { TaxCheck } from '../../pipeline/contract/tax-check.js';
import {
  ColdkeyShard,
  coldkeyShardOf,
  TaxCalendar,
  TaxFiatPrices,
  TaxYields,
  taxPaths,
} from '../../pipeline/contract/tax-published.js';
import { type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';
import { FolderObjectStore, readManifest, readPublishedObject } from '../../pipeline/store/index.js';
import { type ColdkeyChain, createColdkeyChain } from '../../pipeline/tax/chain-record/coldkey-chain.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../support/gateway-under-test.js';
import {
  BASE_URL,
  NOW_MS,
  type PublishedSandbox,
  publishedSandbox,
  SANDBOX_OPTIONS,
} from '../support/published-sandbox.js';
import { STATE_ENGINES, type TestStateStore } from './state/state-engines.js';

const HOUR = 3_600_000;
const D = Decimal.clone({ precision: 50 });
/** A well-known development seed phrase (Substrate's `//Alice` family): never a real wallet's. */
const SEED_PHRASE = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';
const HEX_SEED = '0xe5be9a5092b81bca64be81d212e7f2f9eba183bb7a90954f7b76361f6edb5c0a';

let world: PublishedSandbox;
let devnet: RunningDevnet;
let chain: ColdkeyChain;
let store: TestStateStore;
let gw: GatewayUnderTest;
let demo: string;
let ipCounter = 0;
/** A fresh client address per request group, so the tax limit (20 an hour) stays out of the way. */
const freshIp = () => `198.51.100.${++ipCounter}`;
const check = (coldkey: string, ip = freshIp()) =>
  gw.get(`/tax/check.json?coldkey=${encodeURIComponent(coldkey)}`, {}, ip);

beforeAll(async () => {
  world = await publishedSandbox();
  devnet = await startDevnet(SANDBOX_OPTIONS);
  // The coldkey the sandbox prints today: after the demo's coldkey swap, its successor holds the stake.
  demo = devnet.holderColdkey;
  chain = createColdkeyChain({ url: devnet.url });
  store = await STATE_ENGINES[0]!.start();
  gw = await openGateway(chain);
}, 600_000);

afterAll(async () => {
  await gw?.close();
  await chain?.close();
  await devnet?.stop();
  await store?.stop();
});

function openGateway(taxChain?: ColdkeyChain, nowMs = NOW_MS): Promise<GatewayUnderTest> {
  return gatewayUnderTest({
    storeDir: world.storeDir,
    stateUrl: store.url,
    nowMs,
    baseUrl: BASE_URL,
    ...(taxChain ? { taxChain } : {}),
  });
}

describe('the demo coldkey’s figures', () => {
  it('agree with an independent computation from the truth and the published run to 1e-9', async () => {
    const response = await check(demo);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const body = TaxCheck.parse(await response.json());
    const expected = await independentFigures(demo);
    expect(body.state).toBe('ok');
    expect(body.coldkey).toBe(demo);
    expect(body.tax_year).toBe('2025/26');
    expect(body.events).toBe(expected.events);
    expect(body.yield_source).toBe(expected.yieldSource);
    expect(body.tao_gbp_at).toBe(expected.taoGbpAt);
    expect(body.income_basis).toBe('current_price_estimate');
    expect(body.income_window).toEqual(expected.incomeWindow);
    expect(body.yield_window).toEqual(expected.yieldWindow);
    expect(body.alpha_yield_source).toBe(expected.alphaYieldSource);
    // The demo coldkey must exercise root, alpha and the fallback, or the comparison proves less.
    expect(expected.root.isZero()).toBe(false);
    expect(expected.alpha.isZero()).toBe(false);
    expect(expected.events).toBeGreaterThan(0);
    const numeric = [
      'staked_tao',
      'root_tao',
      'alpha_as_tao',
      'free_tao',
      'yield',
      'yield_root',
      'yield_alpha',
      'tao_gbp',
      'tao_usd',
      'income_tao',
      'income_gbp',
      'tax40',
      'tax42',
      'tax45',
      'tax48',
      'staked_gbp',
    ] as const;
    for (const field of numeric) {
      expect(relativeDifference(body[field], expected.figures[field]), field).toBeLessThanOrEqual(1e-9);
    }
  });
});

/** Every figure from the truth at the finalized head and the run's own objects, without the gateway's code. */
async function independentFigures(coldkey: string) {
  const published = new FolderObjectStore(world.storeDir);
  const manifest = (await readManifest(published, ''))!;
  const object = async (path: string) => {
    const found = await readPublishedObject(published, manifest, path);
    return found ? JSON.parse(new TextDecoder().decode(found.body)) : null;
  };
  const yields = TaxYields.parse(await object(taxPaths.yields()));
  const prices = TaxFiatPrices.parse(await object(taxPaths.fiatPrices()));
  const shardJson = await object(taxPaths.coldkeyShard(coldkeyShardOf(coldkey)));
  const shard = shardJson ? ColdkeyShard.parse(shardJson) : null;

  const truthDay = world.truth.coldkeys.find((c) => c.coldkey === coldkey)!.days.at(-1)!;
  const lastDate = world.truth.days.at(-1)!.date;
  const pools = world.truth.panel_prices.filter((p) => p.date === lastDate);
  const tao = (rao: string) => new D(rao).div(1e9);
  let root = new D(0);
  let alpha = new D(0);
  let alphaWeighted = new D(0);
  let fellBack = false;
  for (const position of truthDay.positions) {
    if (position.netuid === 0) {
      root = root.plus(tao(position.alpha_rao));
      continue;
    }
    const pool = pools.find((p) => p.netuid === position.netuid)!;
    const value = tao(position.alpha_rao).times(pool.subnet_tao_rao!).div(pool.subnet_alpha_in_rao!);
    const own = yields.subnets.find(
      (s) => s.netuid === pool.netuid && s.registered_at === pool.registered_at && s.yield !== null,
    );
    if (!own) fellBack = true;
    alpha = alpha.plus(value);
    alphaWeighted = alphaWeighted.plus(value.times(own ? own.yield! : yields.alpha.yield!));
  }
  const staked = root.plus(alpha);
  const yieldAlpha = alpha.isZero() ? new D(yields.alpha.yield!) : alphaWeighted.div(alpha);
  const blended = staked.isZero()
    ? new D(yields.root.yield!)
    : root.times(yields.root.yield!).plus(alpha.times(yieldAlpha)).div(staked);
  // 2025/26: 00:00 London on 6 April 2025 (BST) to the same on 6 April 2026.
  const start = Date.parse('2025-04-05T23:00:00Z');
  const end = Date.parse('2026-04-05T23:00:00Z');
  // The record starts in the winter of 2025/26: the estimate runs from the end of its first UK day
  // (a UTC midnight in winter), not from 6 April.
  const calendar = TaxCalendar.parse(await object(taxPaths.calendar()));
  const recordFirstDay = calendar.days[0]!.date;
  expect(recordFirstDay > '2025-10-26').toBe(true);
  const windowStart = Date.parse(`${recordFirstDay}T00:00:00Z`) + 86_400_000;
  const income = staked
    .times(blended)
    .times(NOW_MS - windowStart)
    .div(end - start);
  const latest = (pick: 'gbp' | 'usd') =>
    new D(
      prices.days
        .filter((day) => day[pick] !== null)
        .sort((a, b) => a.date.localeCompare(b.date))
        .at(-1)![pick]!,
    );
  const gbp = latest('gbp');
  const gbpDay = prices.days
    .filter((day) => day.gbp !== null)
    .map((day) => day.date)
    .sort()
    .at(-1)!;
  // Counted as the check documents it (docs/api.md): income received by an event (auto-stake, root claim,
  // lease dividends) and staking's own TAO legs to and from a subnet's account are not events of the coldkey's.
  const incomeKinds = new Set(['AutoStakeAdded', 'RootClaimed', 'SubnetLeaseDividendsDistributed']);
  const events = (shard?.coldkeys[coldkey] ?? []).filter((event) => {
    const at = Date.parse(event.time);
    const leg = event.kind === 'Transfer' && (event.from_subnet != null || event.to_subnet != null);
    return at >= start && at < end && !incomeKinds.has(event.kind) && !leg;
  }).length;
  return {
    root,
    alpha,
    events,
    taoGbpAt: `${gbpDay}T00:00:00Z`,
    incomeWindow: {
      from: new Date(windowStart).toISOString().slice(0, 10),
      to: new Date(NOW_MS).toISOString().slice(0, 10),
    },
    yieldWindow: { from: yields.window.from, to: yields.window.to },
    yieldSource: yields.source,
    alphaYieldSource: fellBack ? `${yields.source}+all-subnets` : yields.source,
    figures: {
      staked_tao: staked,
      root_tao: root,
      alpha_as_tao: alpha,
      free_tao: tao(truthDay.free_rao),
      yield: blended,
      yield_root: new D(yields.root.yield!),
      yield_alpha: yieldAlpha,
      tao_gbp: gbp,
      tao_usd: latest('usd'),
      income_tao: income,
      income_gbp: income.times(gbp),
      tax40: income.times(gbp).times(0.4),
      tax42: income.times(gbp).times(0.42),
      tax45: income.times(gbp).times(0.45),
      tax48: income.times(gbp).times(0.48),
      staked_gbp: staked.times(gbp),
    },
  };
}

function relativeDifference(served: number, expected: Decimal): number {
  if (expected.isZero()) return Math.abs(served);
  return new D(served).minus(expected).abs().div(expected.abs()).toNumber();
}

describe('malformed input', () => {
  const valid = () => demo;
  const cases: Array<[string, () => string, RegExp]> = [
    ['too short', () => valid().slice(0, 20), /has 20 characters/],
    ['too long', () => `${valid()}abc`, /has 51 characters/],
    ['a wrong first character', () => `6${valid().slice(1)}`, /starts with "6"/],
    ['a digit zero', () => `${valid().slice(0, 10)}0${valid().slice(11)}`, /character 11 is "0"/],
    ['a capital O', () => `${valid().slice(0, 10)}O${valid().slice(11)}`, /character 11 is "O"/],
    ['a capital I', () => `${valid().slice(0, 10)}I${valid().slice(11)}`, /character 11 is "I"/],
    ['a lower-case l', () => `${valid().slice(0, 10)}l${valid().slice(11)}`, /character 11 is "l"/],
    ['a bad checksum', () => withBadChecksum(valid()), /checksum does not match/],
  ];
  for (const [name, input, message] of cases) {
    it(`answers 400 for ${name}, saying what is wrong`, async () => {
      const response = await check(input());
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { detail: string };
      expect(body.detail).toMatch(message);
    });
  }

  it('answers 400 to a missing and to a repeated coldkey', async () => {
    const missing = await gw.get('/tax/check.json', {}, freshIp());
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/coldkey is required/);
    const twice = await gw.get(
      `/tax/check.json?coldkey=${demo}&coldkey=${world.truth.coldkeys[1]!.coldkey}`,
      {},
      freshIp(),
    );
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { detail: string }).detail).toMatch(/given 2 times; send it once/);
  });

  it('warns never to paste a secret, and the secret reaches no log line and no stored byte', async () => {
    const logsBefore = gw.logs.length;
    const secrets = [SEED_PHRASE, `${SEED_PHRASE}//hard`, HEX_SEED, HEX_SEED.slice(2)];
    for (const secret of secrets) {
      const response = await check(secret);
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text).detail).toMatch(/Never paste a secret/);
      expect(text).not.toContain(secret);
      expect(text).not.toContain('bottom');
      expect(text).not.toContain('e5be9a50');
    }
    // Also as the second of two values.
    const both = await gw.get(
      `/tax/check.json?coldkey=${demo}&coldkey=${encodeURIComponent(SEED_PHRASE)}`,
      {},
      freshIp(),
    );
    expect(((await both.json()) as { detail: string }).detail).toMatch(/Never paste a secret/);

    const lines = gw.logs.slice(logsBefore).map((entry) => JSON.stringify(entry));
    expect(lines).toHaveLength(secrets.length + 1);
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({ method: 'GET', route: '/tax/check.json', status: 400 });
      for (const fragment of ['bottom', 'obey', 'e5be9a50', 'coldkey', '?', demo]) {
        expect(line).not.toContain(fragment);
      }
    }
    expect(gw.errors).toEqual([]);
    const stored = await storedBytes();
    for (const fragment of ['bottom drive', 'e5be9a5092b81bca', 'lonely fit walk']) {
      expect(stored).not.toContain(fragment);
    }
  });
});

function withBadChecksum(address: string): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const last = address.at(-1)!;
  return address.slice(0, -1) + alphabet[(alphabet.indexOf(last) + 1) % alphabet.length];
}

/** The SQLite state file and its WAL, as text. */
async function storedBytes(): Promise<string> {
  const read = (path: string) =>
    readFile(path).then(
      (b) => b.toString('latin1'),
      () => '',
    );
  return (await read(store.sqlitePath!)) + (await read(`${store.sqlitePath!}-wal`));
}

describe('privacy of a successful check', () => {
  it('logs the route only, and keeps no caller address in the state', async () => {
    const coldkey = world.truth.coldkeys[2]!.coldkey;
    const logsBefore = gw.logs.length;
    const response = await check(coldkey, '203.0.113.99');
    expect(response.status).toBe(200);
    const lines = gw.logs.slice(logsBefore).map((entry) => JSON.stringify(entry));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ route: '/tax/check.json', status: 200, account: null });
    expect(lines[0]).not.toContain(coldkey);
    expect(lines[0]).not.toContain('coldkey=');
    const stored = await storedBytes();
    expect(stored).not.toContain('203.0.113.99');
    // The cache row is keyed by the SHA-256 of the address, and the body names it (it is the answer).
    expect(await gw.state.getCachedCheck(checkCacheKey(coldkey), new Date(NOW_MS))).not.toBeNull();
  });
});

describe('the 24-hour cache', () => {
  it('answers a second check within 24 hours without a chain request; recomputes after', async () => {
    const coldkey = world.truth.coldkeys[3]!.coldkey;
    const first = await check(coldkey);
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const requests = devnet.requests();
    gw.clock.nowMs = NOW_MS + 23 * HOUR;
    try {
      const second = await check(coldkey);
      expect(second.status).toBe(200);
      expect(await second.text()).toBe(firstBody);
      expect(devnet.requests()).toBe(requests);
      gw.clock.nowMs = NOW_MS + 24 * HOUR;
      const third = await check(coldkey);
      expect(third.status).toBe(200);
      expect(devnet.requests()).toBeGreaterThan(requests);
    } finally {
      gw.clock.nowMs = NOW_MS;
    }
  });

  it('survives a restart: a new gateway on the same state, with no chain at all, serves it', async () => {
    const coldkey = world.truth.coldkeys[4]!.coldkey;
    const first = await check(coldkey);
    expect(first.status).toBe(200);
    const body = await first.text();
    const restarted = await openGateway(undefined, NOW_MS + HOUR);
    try {
      const again = await restarted.get(`/tax/check.json?coldkey=${coldkey}`, {}, freshIp());
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(body);
      // And an uncached coldkey on that chainless gateway is a 503, proving the chain was never asked.
      const other = await restarted.get(
        `/tax/check.json?coldkey=${world.truth.coldkeys[5]!.coldkey}`,
        {},
        freshIp(),
      );
      expect(other.status).toBe(503);
    } finally {
      await restarted.close();
    }
  });

  it('ends at the UK tax year’s end: 5 April 23:30 and 6 April 00:30 London time', async () => {
    const coldkey = world.truth.coldkeys[6]!.coldkey;
    const beforeMidnight = Date.parse('2026-04-05T22:30:00Z'); // 23:30 BST on 5 April
    const afterMidnight = Date.parse('2026-04-05T23:30:00Z'); // 00:30 BST on 6 April
    gw.clock.nowMs = beforeMidnight;
    try {
      const late = (await (await check(coldkey)).json()) as TaxCheck;
      expect(late.tax_year).toBe('2025/26');
      const requests = devnet.requests();
      gw.clock.nowMs = afterMidnight;
      const early = (await (await check(coldkey)).json()) as TaxCheck;
      expect(early.tax_year).toBe('2026/27');
      expect(devnet.requests()).toBeGreaterThan(requests);
      // Half an hour into the year, against a whole year less half an hour.
      expect(early.income_tao).toBeLessThan(late.income_tao / 1_000);
      expect(early.events).toBe(0);
    } finally {
      gw.clock.nowMs = NOW_MS;
    }
  });
});

describe('a chain that is down', () => {
  it('answers 503 with Retry-After and a detail, quickly, and caches nothing', async () => {
    const spare = await startDevnet({ ...SANDBOX_OPTIONS, port: 0 });
    await spare.stop();
    const dead = createColdkeyChain({ url: spare.url, deadlineMs: 2_000 });
    const down = await openGateway(dead);
    const coldkey = world.truth.coldkeys[7]!.coldkey;
    try {
      const started = performance.now();
      const response = await down.get(`/tax/check.json?coldkey=${coldkey}`, {}, freshIp());
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/chain node cannot be reached/);
      expect(await down.state.getCachedCheck(checkCacheKey(coldkey), new Date(NOW_MS))).toBeNull();
      // What is logged names the failure and the node, never the coldkey.
      const logged = down.errors.map((error) => String(error)).join('\n');
      expect(logged).toMatch(/chain read failed/);
      expect(logged).not.toContain(coldkey);
      // The live gateway then computes it: nothing was cached by the failure.
      const requests = devnet.requests();
      expect((await check(coldkey)).status).toBe(200);
      expect(devnet.requests()).toBeGreaterThan(requests);
    } finally {
      await down.close();
      await dead.close();
    }
  });
});

describe('nothing published', () => {
  it('answers 503 as the data routes do', async () => {
    const empty = await gatewayUnderTest({
      storeDir: `${store.sqlitePath!}.no-store`,
      stateUrl: store.url,
      nowMs: NOW_MS,
      baseUrl: BASE_URL,
      taxChain: chain,
    });
    try {
      const response = await empty.get(
        `/tax/check.json?coldkey=${world.truth.coldkeys[8]!.coldkey}`,
        {},
        freshIp(),
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('60');
    } finally {
      await empty.close();
    }
  });
});

describe('orders that do not exist', () => {
  it('answer the spec’s 404 with a detail, for the order and its pack', async () => {
    for (const path of ['/tax/orders/ord_123?t=abc', '/tax/orders/ord_123/pack?t=abc', '/tax/orders/x']) {
      const response = await gw.get(path, {}, freshIp());
      expect(response.status).toBe(404);
      expect(typeof ((await response.json()) as { detail: unknown }).detail).toBe('string');
    }
  });
});
