/**
 * What a buyer with such a history sees: the free check names the mechanisms the coldkey's events ran beside
 * plain staking, this tax year and the last, and says which the pack lists as points to check.
 *
 * The dated world of both tax years (the world `dated-years-pack.test.ts` and
 * `reconciliation-against-chain.test.ts` use, shared with them), its last days' share pools read as
 * `sbm daily` reads them so that the yields the check needs are published, and the gateway's real check route
 * over the sandbox chain. Its clock stands in 2026/27, so the demo coldkey's 2025/26 life (user liquidity,
 * crowdloans, a lease's dividends, a registration, a proxy deposit, an EVM round trip, fees on every call…)
 * is the previous year's: the check must name each, as many times as the sandbox's truth and schedule say,
 * on their UK days.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckMechanismId, TaxCheck } from '../../../pipeline/contract/tax-check.js';
import { buildTruth, type Truth } from '../../../pipeline/devnet/index.js';
import { EVM_STAKING_SCHEDULE } from '../../../pipeline/devnet/world/evm-staking.js';
import { TAO_MECHANISM_SCHEDULE } from '../../../pipeline/devnet/world/tao-mechanisms.js';
import { publishSnapshots } from '../../../pipeline/snapshots/publish-snapshots.js';
import { type ColdkeyChain, createColdkeyChain } from '../../../pipeline/tax/chain-record/coldkey-chain.js';
import { buildPackFiles } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { ukDay } from '../../../pipeline/time/uk-day.js';
import { ukTaxYearOf } from '../../../pipeline/time/uk-tax-year.js';
import { addDays } from '../../../pipeline/time/utc-day.js';
import { readDailySharePools } from '../../../pipeline/yields/read-share-pools.js';
import { STATE_ENGINES, type TestStateStore } from '../../gateway/state/state-engines.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { sharedPackWorld } from '../../support/shared-pack-world.js';
import type { PackWorld } from './pack/pack-world.js';

/** The world of dated-years-pack.test.ts: the same options, so one build serves the three files. */
const WORLD = { genesis: new Date('2025-04-04T00:00:00Z'), historyDays: 602, blockTimeMs: 3_600_000 };

let world: PackWorld;
let stateStore: TestStateStore;
let coldkeyChain: ColdkeyChain;
let gw: GatewayUnderTest;
let check: TaxCheck;
/** The truth of the whole of 2025/26: the demo coldkey's dated life. */
let yearTruth: Truth;
let demo: string;

beforeAll(async () => {
  world = await sharedPackWorld(WORLD);
  demo = world.devnet.demoColdkey;
  // The yields the check needs: the last days' share pools, read and published as the daily run does.
  const clock = () => new Date(world.nowMs + 60_000);
  const warehousePath = join(world.dir, 'burns.duckdb');
  const today = new Date(world.nowMs).toISOString().slice(0, 10);
  await readDailySharePools({
    chainUrl: world.devnet.url,
    warehousePath,
    from: addDays(today, -9),
    concurrency: 32,
    clock,
  });
  await publishSnapshots({
    warehousePath,
    store: world.store,
    baseUrl: 'https://sbm.example',
    keepRuns: 2,
    now: clock,
    chain: { url: world.devnet.url, concurrency: 32 },
  });
  stateStore = await STATE_ENGINES[0]!.start();
  coldkeyChain = createColdkeyChain({ url: world.devnet.url });
  gw = await gatewayUnderTest({
    storeDir: join(world.dir, 'store'),
    stateUrl: stateStore.url,
    nowMs: world.nowMs + 120_000,
    baseUrl: 'https://sbm.example',
    taxChain: coldkeyChain,
  });
  const response = await gw.get(`/tax/check.json?coldkey=${demo}`, {}, '198.51.100.9');
  expect(response.status, await response.clone().text()).toBe(200);
  check = TaxCheck.parse(await response.json());
  const finalizedNow = world.nowMs - world.options.finalityLag * world.options.blockTimeMs;
  yearTruth = buildTruth({ ...world.options, now: () => finalizedNow }, '2025-04-06', '2026-04-05');
}, 900_000);

afterAll(async () => {
  await gw?.close();
  await coldkeyChain?.close();
  await stateStore?.stop();
  await world?.close();
});

/** The mechanism each step of the demo's dated life is, as the truth names the step. */
const OF_ACTION: Partial<Record<Truth['actions'][number]['action'], CheckMechanismId>> = {
  recycle: 'recycle_or_burn',
  'crowdloan-contribution': 'crowdloan',
  'crowdloan-refund': 'crowdloan',
  'auto-stake': 'auto_stake',
  'liquidity-add': 'user_liquidity',
  'liquidity-remove': 'user_liquidity',
  'liquidity-refund': 'liquidity_refund',
  'root-claim': 'root_claim',
  dissolution: 'dissolution',
  'lease-dividends': 'lease_dividends',
  'network-registration': 'network_registration',
  // The lock's refund is credited as a dissolved subnet's payout: the check names it so.
  'network-lock-refund': 'dissolution',
  'multisig-deposit': 'reserved_deposit',
  'multisig-executed': 'reserved_deposit',
};
const OF_TAO_MECHANISM: Partial<Record<(typeof TAO_MECHANISM_SCHEDULE)[number][0], CheckMechanismId>> = {
  ProxyAdded: 'reserved_deposit',
  ProxyRemoved: 'reserved_deposit',
  NeuronRegistered: 'registration',
  EvmDeposit: 'own_evm_transfer',
  EvmWithdraw: 'own_evm_transfer',
};

/** The UK days of the demo's 2025/26 steps, per mechanism, from the truth and the dated schedule. */
function expected2025(): Map<CheckMechanismId, string[]> {
  const days = new Map<CheckMechanismId, string[]>();
  const add = (id: CheckMechanismId, day: string) => days.set(id, [...(days.get(id) ?? []), day]);
  for (const action of yearTruth.actions) {
    const id = OF_ACTION[action.action];
    if (!id) continue;
    // A dissolution is the demo's when it paid the demo; every other step is one the demo made or received.
    const mine =
      action.action === 'dissolution'
        ? (action.payouts ?? []).some((p) => p.coldkey === demo && BigInt(p.tao_rao) > 0n)
        : action.coldkey === demo;
    if (mine) add(id, ukDay(Date.parse(action.time)));
  }
  for (const [kind, date, hour] of TAO_MECHANISM_SCHEDULE) {
    add(OF_TAO_MECHANISM[kind]!, ukDay(Date.parse(`${date}T${String(hour).padStart(2, '0')}:00:00Z`)));
  }
  // The stake and unstake of its own EVM address's account, through the EVM staking precompile.
  for (const [, date, hour] of EVM_STAKING_SCHEDULE) {
    add('evm_staking', ukDay(Date.parse(`${date}T${String(hour).padStart(2, '0')}:00:00Z`)));
  }
  return days;
}

const of = (year: string, id: CheckMechanismId) =>
  check.mechanisms.find((m) => m.tax_year === year && m.mechanism === id);

describe("the free check on the dated world's demo coldkey", () => {
  it('reads this tax year and the last, from the events the pack reads', () => {
    expect(check.tax_year).toBe('2026/27');
    expect(check.mechanism_window).toEqual({ from: '2025-04-06', to: ukDay(world.nowMs + 120_000) });
    const years = [...new Set(check.mechanisms.map((m) => m.tax_year))];
    expect(years).toEqual(['2026/27', '2025/26']);
  });

  it('names every mechanism of its 2025/26 life, as many times as it ran, on its UK days', () => {
    const expected = expected2025();
    // The life has all of them: the list and the ones worth naming beside it.
    expect([...expected.keys()].sort()).toEqual(
      [
        'auto_stake',
        'crowdloan',
        'dissolution',
        'evm_staking',
        'lease_dividends',
        'liquidity_refund',
        'network_registration',
        'own_evm_transfer',
        'recycle_or_burn',
        'registration',
        'reserved_deposit',
        'root_claim',
        'user_liquidity',
      ].sort(),
    );
    for (const [id, days] of expected) {
      const found = of('2025/26', id);
      expect(found, id).toBeDefined();
      expect([found!.count, found!.first_day, found!.last_day], id).toEqual([
        days.length,
        days.reduce((a, b) => (a < b ? a : b)),
        days.reduce((a, b) => (a > b ? a : b)),
      ]);
    }
    // Every call the demo signed paid its fee: fees on the year's first and last days of calls.
    const fees = of('2025/26', 'transaction_fees');
    expect(fees).toBeDefined();
    expect(fees!.count).toBeGreaterThan(100);
    // Nothing named that the year did not run (transfers and swaps are checked below).
    const named = check.mechanisms.filter((m) => m.tax_year === '2025/26').map((m) => m.mechanism);
    const rest = named.filter(
      (id) => !expected.has(id) && !['transaction_fees', 'transfer_out', 'transfer_in'].includes(id),
    );
    expect(rest).toEqual([]);
  });

  it('counts transfers across the edge as the truth has them, and the coldkey swap of 2026/27', () => {
    // The world's own transfers of TAO and stake between the demo and other coldkeys in 2025/26, by call.
    const details = new Map(yearTruth.staking_details.map((d) => [`${d.block}/${d.event_index}`, d]));
    const calls = (side: 'out' | 'in') =>
      new Set(
        yearTruth.staking_events
          .filter((e) => e.kind === 'Transfer' || e.kind === 'StakeTransferred')
          .filter((e) => {
            const to = details.get(`${e.block}/${e.event_index}`)?.destination_coldkey ?? null;
            return side === 'out' ? e.coldkey === demo && to !== demo : to === demo && e.coldkey !== demo;
          })
          .map((e) => `${e.block}/${e.extrinsic_index}`),
      ).size;
    expect(calls('out')).toBeGreaterThan(0);
    expect(of('2025/26', 'transfer_out')?.count).toBe(calls('out'));
    expect(of('2025/26', 'transfer_in')?.count ?? 0).toBe(calls('in'));
    const swap = of('2026/27', 'coldkey_swap');
    expect(swap?.count).toBe(1);
    expect(swap?.first_day).toBe('2026-07-07');
  });

  it('says which the pack lists as points to check and which it books by its method', () => {
    const points = check.mechanisms.filter((m) => m.in_pack === 'point_to_check').map((m) => m.mechanism);
    expect(new Set(points)).toEqual(
      new Set(['transfer_out', 'transfer_in', 'coldkey_swap', 'liquidity_refund']),
    );
    for (const m of check.mechanisms) {
      expect(m.name.length).toBeGreaterThan(0);
      expect(m.pack.length).toBeGreaterThan(0);
      expect(ukTaxYearOf(Date.parse(`${m.first_day}T12:00:00Z`)).label).toBe(m.tax_year);
      expect(ukTaxYearOf(Date.parse(`${m.last_day}T12:00:00Z`)).label).toBe(m.tax_year);
    }
    // Points to check first within each year, as the contract lists them.
    const year = check.mechanisms.filter((m) => m.tax_year === '2025/26').map((m) => m.in_pack);
    expect(year).toEqual([...year].sort((a, b) => (a === b ? 0 : a === 'point_to_check' ? -1 : 1)));
  });

  it("matches the 2025/26 pack's points to check: one per call it counts across the edge, the liquidity refund's on its day", async () => {
    const packChain = openPackChain(world.devnet.url);
    try {
      const pack = await buildPackFiles(
        {
          id: 'ord_check_mechanisms',
          sku: 'tax-pack',
          packName: 'UK staking tax pack',
          taxYear: '2025/26',
          coldkeys: [demo],
          paidAt: new Date(world.nowMs),
        },
        { store: world.store, chain: packChain.reader },
      );
      const flags = pack.ledger.mapping.flags;
      const calls = (kind: 'transfer-out' | 'transfer-in') =>
        new Set(flags.filter((f) => f.kind === kind).map((f) => f.ref)).size;
      expect(calls('transfer-out')).toBe(of('2025/26', 'transfer_out')!.count);
      expect(calls('transfer-in')).toBe(of('2025/26', 'transfer_in')?.count ?? 0);
      const refund = of('2025/26', 'liquidity_refund')!;
      expect(flags.filter((f) => f.kind === 'unexplained').map((f) => f.date)).toEqual([refund.first_day]);
      // What the check calls booked raises no point of its own: the year's points are the crossings, the
      // refund and the record's opening (the daily reconciliation's points are its own tests').
      expect([...new Set(flags.map((f) => f.kind))].filter((k) => k !== 'reconciliation').sort()).toEqual([
        'opening',
        'transfer-in',
        'transfer-out',
        'unexplained',
      ]);
    } finally {
      await packChain.close();
    }
  }, 900_000);

  it('logs nothing about the coldkey', () => {
    expect(JSON.stringify(gw.logs)).not.toContain(demo);
    expect(JSON.stringify(gw.errors.map(String))).not.toContain(demo);
  });
});
