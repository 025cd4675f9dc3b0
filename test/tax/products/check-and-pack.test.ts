/**
 * Issue 26 item 5: the free check and the pack agree where they measure the same thing. For a coldkey
 * whose stake did not change (no staking event in the record), the check's income to date (today's stake ×
 * the 7-day yield × its window, valued at the latest price) and the pack's income for the same days (the
 * stake's growth day by day, each valued at that day's prices) differ only by the price basis: per unit of
 * time the TAO amounts match, and revalued at the check's price the pack's income is the check's.
 *
 * A sandbox record of two winter weeks published by the real pipeline, the gateway's real check route over
 * the sandbox chain, and the real pack builder: nothing is computed here but the comparison.
 */
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaxCheck } from '../../../pipeline/contract/tax-check.js';
import { ColdkeyShard, coldkeyShardOf, taxPaths } from '../../../pipeline/contract/tax-published.js';
import { readManifest, readPublishedObject } from '../../../pipeline/store/index.js';
import { type ColdkeyChain, createColdkeyChain } from '../../../pipeline/tax/chain-record/coldkey-chain.js';
import { buildPack } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { STATE_ENGINES, type TestStateStore } from '../../gateway/state/state-engines.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../../support/gateway-under-test.js';
import { type PackWorld, publishPackWorld } from './pack/pack-world.js';
import { readCsv } from './pack/read-pack-csv.js';

const DAY_MS = 86_400_000;
/** Winter UK days are UTC days: 5 to 19 January 2026, the clock at 15:00 on the 19th (2025/26). */
const GENESIS = new Date('2026-01-05T00:00:00Z');
const HISTORY_DAYS = 14;
/**
 * How far apart the check's and the pack's TAO may be: the check's yield is the last 7 days' growth, the
 * pack's income each day's own (about 2% apart in this world). Extrapolated from 6 April, as the check was
 * before issue 26, the check would be over 20 times the pack.
 */
const TOLERANCE = 0.03;

let world: PackWorld;
let stateStore: TestStateStore;
let coldkeyChain: ColdkeyChain;
let packChain: PackChain;
let gw: GatewayUnderTest;
/** Tracked coldkeys of the sandbox with stake and no staking event in the whole record. */
let unchanged: string[];

beforeAll(async () => {
  world = await publishPackWorld({
    seed: 'check-and-pack',
    genesis: GENESIS,
    historyDays: HISTORY_DAYS,
    sharePools: true,
    // The history before today's runtimes: there every pool grows by its emission alone, so the network's
    // yield is what an unchanged coldkey earns. On today's chain the demo coldkey's root claims, auto-stakes
    // and lease dividends raise single pools' share prices, and the network average is an estimate only
    // (the check says so: income_basis "current_price_estimate").
    runtimes: 'legacy',
  });
  stateStore = await STATE_ENGINES[0]!.start();
  coldkeyChain = createColdkeyChain({ url: world.devnet.url });
  packChain = openPackChain(world.devnet.url);
  gw = await gatewayUnderTest({
    storeDir: join(world.dir, 'store'),
    stateUrl: stateStore.url,
    nowMs: world.nowMs,
    baseUrl: 'https://sbm.example',
    taxChain: coldkeyChain,
  });
  const manifest = (await readManifest(world.store, ''))!;
  unchanged = [];
  for (const staker of world.devnet.world.stakers.stakers) {
    const address = staker.coldkey.address;
    const shard = await readPublishedObject(
      world.store,
      manifest,
      taxPaths.coldkeyShard(coldkeyShardOf(address)),
    );
    const events = shard
      ? (ColdkeyShard.parse(JSON.parse(new TextDecoder().decode(shard.body))).coldkeys[address] ?? [])
      : [];
    if (events.length === 0) unchanged.push(address);
  }
}, 600_000);

afterAll(async () => {
  await gw?.close();
  await coldkeyChain?.close();
  await packChain?.close();
  await stateStore?.stop();
  await world?.close();
});

describe('the free check and the pack', () => {
  it('agree for a coldkey whose stake did not change, but for the price basis', async () => {
    expect(unchanged.length).toBeGreaterThan(0);
    const coldkey = unchanged[0]!;
    const response = await gw.get(`/tax/check.json?coldkey=${coldkey}`, {}, '198.51.100.7');
    expect(response.status, await response.clone().text()).toBe(200);
    const check = TaxCheck.parse(await response.json());
    expect(check.events).toBe(0);
    expect(check.staked_tao).toBeGreaterThan(0);
    expect(check.income_basis).toBe('current_price_estimate');
    // The record starts on 5 January: the check counts from the end of that day, as the pack does.
    expect(check.income_window).toEqual({ from: '2026-01-06', to: '2026-01-19' });

    const zip = await JSZip.loadAsync(
      await buildPack(
        {
          id: 'ord_check_and_pack',
          sku: 'tax-pack',
          packName: 'UK staking tax pack',
          taxYear: check.tax_year,
          coldkeys: [coldkey],
          paidAt: new Date(world.nowMs),
        },
        { store: world.store, chain: packChain.reader },
      ),
    );
    const income = readCsv(await zip.file('income.csv')!.async('string'));
    const days = [...new Set(income.map((row) => row['date']!))].sort();
    // Every day of the window but today, which is not over.
    expect(days[0]).toBe(check.income_window.from);
    expect(days.at(-1)).toBe('2026-01-18');
    const packTao = income.reduce((sum, row) => sum.plus(row['tao']!), new Decimal(0));
    const packGbp = income.reduce((sum, row) => sum.plus(row['gbp']!), new Decimal(0));
    expect(packTao.gt(0)).toBe(true);

    // The same days: the check runs from the end of 5 January to now (15:00 on the 19th) at a steady rate;
    // the pack's days end at midnight on the 18th.
    const windowStart = Date.parse('2026-01-06T00:00:00Z');
    const checkTaoSameDays = new Decimal(check.income_tao)
      .times(days.length * DAY_MS)
      .div(world.nowMs - windowStart);
    // The check values alpha at today's pool prices, the pack at each day's: revalued at the last day's pool
    // price (the nearest the pack has to today's), the pack's alpha income is in the check's price basis.
    const lastDay = days.at(-1)!;
    const poolPrice = new Map<string, Decimal>();
    for (const row of income.filter((r) => r['date'] === lastDay && new Decimal(r['alpha']!).gt(0))) {
      poolPrice.set(row['netuid']!, new Decimal(row['tao']!).div(row['alpha']!));
    }
    const packTaoAtTodaysPools = income.reduce(
      (sum, row) => sum.plus(new Decimal(row['alpha']!).times(poolPrice.get(row['netuid']!) ?? 0)),
      new Decimal(0),
    );
    const taoGap = checkTaoSameDays.minus(packTaoAtTodaysPools).abs().div(packTaoAtTodaysPools).toNumber();
    expect(
      taoGap,
      `check ${checkTaoSameDays} TAO; pack ${packTaoAtTodaysPools} TAO at today's pools, ${packTao} at each day's`,
    ).toBeLessThan(TOLERANCE);

    // The price basis: the check values at one rate, the pack at each day's.
    expect(new Decimal(check.income_gbp).div(check.income_tao).toNumber()).toBeCloseTo(check.tao_gbp, 6);
    const packAtCheckRate = packTaoAtTodaysPools.times(check.tao_gbp);
    const checkGbpSameDays = checkTaoSameDays.times(check.tao_gbp);
    expect(checkGbpSameDays.minus(packAtCheckRate).abs().div(packAtCheckRate).toNumber()).toBeLessThan(
      TOLERANCE,
    );
    // The pack's own figure differs from that by its days' rates only: each row is its TAO at its day's rate.
    for (const row of income) {
      expect(
        new Decimal(row['tao']!).times(row['tao_gbp']!).minus(row['gbp']!).abs().toNumber(),
      ).toBeLessThan(0.00000001 + new Decimal(row['gbp']!).abs().times(1e-9).toNumber());
    }
    expect(packGbp.gt(0)).toBe(true);
  });
});
