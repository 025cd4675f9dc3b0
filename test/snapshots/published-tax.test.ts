/**
 * The tax objects of the shared published sandbox run, checked against the world's own truth and computed
 * here independently of the pipeline's code: the yields from the truth's share pools and panel reserves
 * with exact fractions, the fiat prices from the sandbox's price series, and every staking event in the
 * shard of each coldkey it concerns.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ColdkeyEvent,
  ColdkeyShard,
  TaxFiatPrices,
  TaxYields,
} from '../../pipeline/contract/tax-published.js';
import type { Truth, TruthSharePool } from '../../pipeline/devnet/index.js';
import { taoPrice } from '../../pipeline/devnet/price/price-series.js';
import {
  FolderObjectStore,
  type Manifest,
  readManifest,
  readPublishedObject,
} from '../../pipeline/store/index.js';
import { type PublishedSandbox, publishedSandbox, SANDBOX_OPTIONS } from '../support/published-sandbox.js';

const DAY_MS = 86_400_000;

let world: PublishedSandbox;
let store: FolderObjectStore;
let manifest: Manifest;

async function json(path: string): Promise<unknown> {
  const published = await readPublishedObject(store, manifest, path);
  if (!published) throw new Error(`${path} is not published`);
  return JSON.parse(new TextDecoder().decode(published.body));
}

beforeAll(async () => {
  world = await publishedSandbox();
  store = new FolderObjectStore(world.storeDir);
  manifest = (await readManifest(store, ''))!;
}, 600_000);

describe('tax/yields.json', () => {
  it('equals the yields computed from the truth’s share pools over the last 7 complete days', async () => {
    const published = TaxYields.parse(await json('tax/yields.json'));
    const expected = expectedYields(world.truth);
    expect(published.window).toEqual(expected.window);
    expect(published.source).toBe(`chain:share-price:${expected.window.from}..${expected.window.to}`);
    expect(published.subnets.map((s) => [s.netuid, s.registered_at, s.stake_rao, s.stake_tao_rao])).toEqual(
      expected.subnets.map((s) => [s.netuid, s.registeredAt, s.stake.toString(), s.stakeTao.toString()]),
    );
    for (const [i, subnet] of published.subnets.entries()) {
      expect(subnet.window).toEqual(expected.window);
      expect(subnet.source).toBe(published.source);
      expectClose(subnet.yield, expected.subnets[i]!.rate);
    }
    expect(published.root.stake_rao).toBe(expected.root.stake.toString());
    expectClose(published.root.yield, expected.root.rate);
    expect(published.alpha.stake_tao_rao).toBe(expected.alpha.stakeTao.toString());
    expectClose(published.alpha.yield, expected.alpha.rate);

    // The world's pools grow by 0.01–0.25 % a day: every yield is a real, positive figure.
    expect(published.root.yield).toBeGreaterThan(0);
    expect(published.alpha.yield).toBeGreaterThan(published.root.yield!);
    expect(published.subnets.length).toBeGreaterThan(3);
    // Today's chain moves stake inside the window (a hotkey swap re-issues it on a new hotkey): still, every
    // subnet with stake at the end has a yield, and each is a real, positive figure.
    const staked = published.subnets.filter((s) => s.netuid !== 0);
    const withYield = staked.filter((s) => s.yield !== null && s.yield > 0);
    expect(withYield.length / staked.length).toBeGreaterThanOrEqual(0.9);
    expect(published.subnets.every((s) => s.yield === null || s.yield > 0)).toBe(true);
  });
});

describe('tax/fiat-prices.json', () => {
  it('holds every fetched day’s price, as stored, oldest first', async () => {
    const published = TaxFiatPrices.parse(await json('tax/fiat-prices.json'));
    const days: string[] = [];
    for (let t = Date.parse(world.firstDay); t <= Date.parse(world.today); t += DAY_MS) {
      days.push(new Date(t).toISOString().slice(0, 10));
    }
    // The sandbox's price at 00:00 UTC of each day is the day's price, stored with 8 decimals.
    const price = (currency: 'usd' | 'gbp', day: string) =>
      taoPrice(SANDBOX_OPTIONS.seed, currency, Date.parse(day)).toFixed(8);
    expect(published.days.map(({ source: _, ...day }) => day)).toEqual(
      days.map((date) => ({ date, usd: price('usd', date), gbp: price('gbp', date) })),
    );
    expect(new Set(published.days.map((d) => d.source)).size).toBe(1);
    expect(published.days[0]!.source).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});

describe('tax/coldkeys/<shard>.json', () => {
  it('lists every truth staking event under each coldkey it concerns, in chain order', async () => {
    // The truth lists each event of the runtimes before spec 425 as a staking event: those are compared whole.
    // From spec 425 one call emits several events (its TAO legs among them), which the truth lists per action:
    // each action's naming event is checked below.
    const cut = world.truth.current_runtime_block ?? Number.POSITIVE_INFINITY;
    const expected = expectedShards({
      ...world.truth,
      staking_events: world.truth.staking_events.filter((e) => e.block < cut),
      burns: world.truth.burns.filter((b) => b.block < cut),
    });
    const published = new Map<string, Map<string, ColdkeyEvent[]>>();
    const all: ColdkeyEvent[] = [];
    for (const path of manifest.objects
      .map((entry) => entry.path)
      .filter((p) => p.startsWith('tax/coldkeys/'))) {
      const object = ColdkeyShard.parse(await json(path));
      const coldkeys = new Map<string, ColdkeyEvent[]>();
      for (const [coldkey, events] of Object.entries(object.coldkeys)) {
        all.push(...events);
        const before = events.filter((e) => e.block < cut);
        if (before.length > 0) coldkeys.set(coldkey, before);
      }
      if (coldkeys.size > 0) published.set(object.shard, coldkeys);
    }
    expect([...published.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [shard, coldkeys] of expected) {
      expect(Object.fromEntries(published.get(shard)!)).toEqual(Object.fromEntries(coldkeys));
    }
    // Both roles and every kind are there, and a transfer's receiver sees it too.
    const kinds = new Set(all.map((e) => e.kind));
    for (const kind of ['StakeAdded', 'StakeRemoved', 'StakeMoved', 'StakeTransferred', 'Transfer'])
      expect(kinds).toContain(kind);
    expect(all.some((e) => e.role === 'destination' && e.kind === 'StakeTransferred')).toBe(true);
    expect(all.some((e) => e.role === 'destination' && e.kind === 'Transfer')).toBe(true);
  });

  it('lists the naming event of every action of today\u2019s runtimes under the coldkey that acted', async () => {
    const actions = world.truth.actions.filter(
      // A dissolution names its holders by their payout transfers, a miner's incentive by no event at all.
      (a) =>
        world.truth.coldkeys.some((c) => c.coldkey === a.coldkey) &&
        a.action !== 'miner-incentive' &&
        a.action !== 'dissolution',
    );
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) {
      const shard = createHash('sha256').update(action.coldkey).digest('hex').slice(0, 2);
      const object = ColdkeyShard.parse(await json(`tax/coldkeys/${shard}.json`));
      const events = object.coldkeys[action.coldkey] ?? [];
      expect(
        events.some((e) => e.block === action.block && e.event_index === action.event_index),
        `${action.action} at ${action.block}/${action.event_index}`,
      ).toBe(true);
    }
  });
});

function expectClose(got: number | null, want: number | null): void {
  if (want === null) {
    expect(got).toBeNull();
    return;
  }
  expect(got).not.toBeNull();
  expect(Math.abs(got! / want - 1)).toBeLessThan(1e-12);
}

// ---------------------------------------------------------------------------------------------------
// The yields, straight from the truth, with exact fractions
// ---------------------------------------------------------------------------------------------------

interface Fraction {
  n: bigint;
  d: bigint;
}

const ZERO: Fraction = { n: 0n, d: 1n };

/** A truth pool's shares, exactly: the V2 SafeFloat where the denominator moved there, else V1 bits ÷ 2^64. */
function truthShares(pool: TruthSharePool): Fraction {
  const v2 = pool.total_shares_v2;
  if (v2 === null) return fraction(BigInt(pool.total_shares_bits), 1n << 64n);
  const exponent = BigInt(v2.exponent);
  return exponent >= 0n
    ? fraction(BigInt(v2.mantissa) * 10n ** exponent, 1n)
    : fraction(BigInt(v2.mantissa), 10n ** -exponent);
}

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function fraction(n: bigint, d: bigint): Fraction {
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

const add = (a: Fraction, b: Fraction) => fraction(a.n * b.d + b.n * a.d, a.d * b.d);
const times = (a: Fraction, b: Fraction) => fraction(a.n * b.n, a.d * b.d);

/** a ÷ b as a double (to far better than 1e-12). */
function ratio(a: Fraction, b: Fraction): number {
  const scaled = (a.n * b.d * 10n ** 30n) / (a.d * b.n);
  return Number(scaled) / 1e30;
}

function expectedYields(truth: Truth) {
  const complete = truth.days.slice(0, -1).map((d) => d.date); // the last truth day is today, partial
  const to = complete[complete.length - 1]!;
  const from = new Date(Date.parse(to) - 7 * DAY_MS).toISOString().slice(0, 10);
  expect(complete).toContain(from);
  const window = { from, to, days: 7 };
  const dates = complete.filter((date) => date >= from && date <= to);
  expect(dates).toHaveLength(8);
  const poolsOf = (date: string) => truth.share_pools.filter((p) => p.date === date);
  const key = (p: TruthSharePool) => `${p.netuid}/${p.registered_at}/${p.hotkey}`;
  const subnetId = (p: TruthSharePool) => `${p.netuid}/${p.registered_at}`;

  // Per subnet: the product of its day factors Σ a1·s0/s1 ÷ Σ a0 over pools on both days (a time-weighted
  // growth: a pool that appears or moves to a new hotkey inside the window counts on the days it has), the
  // days that had a factor, and the start stake of the pools that go on to the next day.
  const subnets = new Map<
    string,
    { netuid: number; registeredAt: number; factor: Fraction; days: number; stake: bigint }
  >();
  const subnetOf = (p: TruthSharePool) => {
    const found = subnets.get(subnetId(p)) ?? {
      netuid: p.netuid,
      registeredAt: p.registered_at,
      factor: fraction(1n, 1n),
      days: 0,
      stake: 0n,
    };
    subnets.set(subnetId(p), found);
    return found;
  };
  const held = (p: TruthSharePool) => BigInt(p.total_alpha_rao) > 0n && truthShares(p).n > 0n;
  const second = new Map(poolsOf(dates[1]!).map((p) => [key(p), p]));
  for (const p of poolsOf(from)) {
    const next = second.get(key(p));
    if (next && held(p) && truthShares(next).n > 0n) subnetOf(p).stake += BigInt(p.total_alpha_rao);
  }
  for (let i = 1; i < dates.length; i++) {
    const before = new Map(poolsOf(dates[i - 1]!).map((p) => [key(p), p]));
    const day = new Map<string, { worth: Fraction; held: bigint }>();
    for (const end of poolsOf(dates[i]!)) {
      subnetOf(end);
      const begin = before.get(key(end));
      if (!begin || !held(begin) || truthShares(end).n === 0n) continue;
      const [a0, s0, a1, s1] = [
        BigInt(begin.total_alpha_rao),
        truthShares(begin),
        BigInt(end.total_alpha_rao),
        truthShares(end),
      ];
      // What the start shares are worth at the end: a1·s0/s1, the shares exact fractions (V1 bits ÷ 2^64,
      // or V2 mantissa × 10^exponent).
      const sums = day.get(subnetId(end)) ?? { worth: ZERO, held: 0n };
      sums.worth = add(sums.worth, fraction(a1 * s0.n * s1.d, s1.n * s0.d));
      sums.held += a0;
      day.set(subnetId(end), sums);
    }
    for (const [id, sums] of day) {
      const subnet = subnets.get(id)!;
      subnet.factor = times(subnet.factor, fraction(sums.worth.n, sums.worth.d * sums.held));
      subnet.days += 1;
    }
  }
  const listed = new Set(poolsOf(to).map(subnetId));

  let alphaWeighted = ZERO;
  let alphaWeight = 0n;
  let alphaStakeTao = 0n;
  let root = { stake: 0n, rate: null as number | null };
  const rows = [...subnets.entries()]
    .filter(([id]) => listed.has(id))
    .map(([, subnet]) => subnet)
    .sort((a, b) => a.netuid - b.netuid || a.registeredAt - b.registeredAt)
    .map((subnet) => {
      const panel = truth.panel_prices.find(
        (p) => p.date === from && p.netuid === subnet.netuid && p.registered_at === subnet.registeredAt,
      );
      const price =
        subnet.netuid === 0
          ? fraction(1n, 1n)
          : panel?.subnet_tao_rao && panel.subnet_alpha_in_rao
            ? fraction(BigInt(panel.subnet_tao_rao), BigInt(panel.subnet_alpha_in_rao))
            : null;
      // (Π factors − 1) ÷ days × 365.
      const rateFraction =
        subnet.days === 0
          ? null
          : fraction((subnet.factor.n - subnet.factor.d) * 365n, subnet.factor.d * BigInt(subnet.days));
      const rate = rateFraction === null ? null : ratio(rateFraction, fraction(1n, 1n));
      const stakeTao = price === null ? 0n : (subnet.stake * price.n) / price.d;
      if (subnet.netuid === 0) root = { stake: subnet.stake, rate };
      else if (price !== null) {
        // Each subnet's rate weighted by its start stake valued in TAO: Σ rate·W / Σ W.
        if (rateFraction !== null && stakeTao > 0n) {
          alphaWeighted = add(alphaWeighted, times(rateFraction, fraction(stakeTao, 1n)));
          alphaWeight += stakeTao;
        }
        alphaStakeTao += stakeTao;
      }
      return { ...subnet, stakeTao, rate };
    });
  return {
    window,
    subnets: rows,
    root,
    alpha: {
      stakeTao: alphaStakeTao,
      rate: alphaWeight === 0n ? null : ratio(alphaWeighted, fraction(alphaWeight, 1n)),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The shards, straight from the truth
// ---------------------------------------------------------------------------------------------------

function expectedShards(truth: Truth): Map<string, Map<string, ColdkeyEvent[]>> {
  const details = new Map(truth.staking_details.map((d) => [`${d.block}/${d.event_index}`, d]));
  const shards = new Map<string, Map<string, ColdkeyEvent[]>>();
  const put = (coldkey: string, event: ColdkeyEvent) => {
    const shard = createHash('sha256').update(coldkey).digest('hex').slice(0, 2);
    const coldkeys = shards.get(shard) ?? new Map<string, ColdkeyEvent[]>();
    shards.set(shard, coldkeys);
    coldkeys.set(coldkey, [...(coldkeys.get(coldkey) ?? []), event]);
  };
  for (const event of truth.staking_events) {
    const detail = details.get(`${event.block}/${event.event_index}`)!;
    const common = {
      block: event.block,
      event_index: event.event_index,
      extrinsic_index: event.extrinsic_index,
      time: event.time,
      kind: event.kind,
      tao_rao: event.tao_rao,
      alpha_rao: event.alpha_rao,
    };
    const none = { counterpart_coldkey: null, counterpart_hotkey: null, counterpart_netuid: null };
    // Where the stake went: moves and swaps keep the coldkey, the world names every other destination.
    const destination = {
      counterpart_coldkey:
        event.kind === 'StakeMoved' || event.kind === 'StakeSwapped'
          ? event.coldkey
          : detail.destination_coldkey,
      counterpart_hotkey: detail.destination_hotkey,
      counterpart_netuid: detail.destination_netuid,
    };
    const moves = event.kind !== 'StakeAdded' && event.kind !== 'StakeRemoved';
    // Transfers say which side is a subnet's account (none between the world's coldkeys).
    const legs =
      event.kind === 'Transfer' ? { from_subnet: null, to_subnet: null, dissolved_netuid: null } : {};
    put(event.coldkey, {
      ...common,
      role: 'origin',
      hotkey: event.hotkey,
      netuid: event.netuid,
      fee_rao: detail.fee_rao,
      ...(moves ? destination : none),
      ...legs,
    });
    if (event.kind === 'StakeTransferred' || event.kind === 'Transfer') {
      put(detail.destination_coldkey!, {
        ...common,
        role: 'destination',
        hotkey: detail.destination_hotkey,
        netuid: detail.destination_netuid,
        fee_rao: null,
        counterpart_coldkey: event.coldkey,
        counterpart_hotkey: event.hotkey,
        counterpart_netuid: event.netuid,
        ...legs,
      });
    }
  }
  // A holder's own recycles and burns (buybacks too) are its events as well.
  for (const burn of truth.burns) {
    if (burn.coldkey === null) continue;
    put(burn.coldkey, {
      block: burn.block,
      event_index: burn.event_index,
      extrinsic_index: burn.extrinsic_index,
      time: burn.time,
      kind: burn.kind === 'recycle' ? 'AlphaRecycled' : 'AlphaBurned',
      role: 'origin',
      hotkey: burn.hotkey,
      netuid: burn.netuid,
      tao_rao: null,
      alpha_rao: burn.alpha_rao,
      fee_rao: null,
      counterpart_coldkey: null,
      counterpart_hotkey: null,
      counterpart_netuid: null,
    });
  }
  // Chain order within each coldkey, keys in address order as the object lists them.
  for (const [shard, coldkeys] of shards) {
    const sorted = [...coldkeys.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [, events] of sorted) {
      events.sort(
        (a, b) => a.block - b.block || a.event_index - b.event_index || (a.role === 'origin' ? -1 : 1),
      );
    }
    shards.set(shard, new Map(sorted));
  }
  return shards;
}
