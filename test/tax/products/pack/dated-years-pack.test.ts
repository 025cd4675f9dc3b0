/**
 * Both tax years on the runtimes mainnet ran: the default world of 27 November 2026 whose history reaches back
 * to 4 April 2025 (so it runs spec 257's runtimes on 6 April 2025, the swap pallet from 30 June, root claims
 * from 4 November, 393 from 25 March 2026, then 425 and 473), with one-hour blocks to stay fast. The packs of
 * 2025/26 of the demo coldkey, with its 2025/26 life on that year's runtimes (world/dated-life.ts: a recycle at
 * 257, a hotkey swap at 297, an auto-stake at 320, root claims and a dissolution at 343), and of 2026/27 opened
 * from the 2025/26 pack's pools.csv, built over the real WebSocket from what the pipeline published.
 * Heavy: about 25 minutes on a loaded machine (collecting 602 days), and more for the 2026/27 pack.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedToText } from '../../../../pipeline/amounts/rao.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../../../pipeline/chain/subtensor-extensions.js';
import { buildTruth, type Truth } from '../../../../pipeline/devnet/index.js';
import { ukDayIncome } from '../../../../pipeline/devnet/truth/truth.js';
import type { CustomerInputs } from '../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { buildPack, type PackOrder } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { CgtDecimal, pounds } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { readCgtCsv } from '../../../../pipeline/tax/uk-rules/cgt/read-cgt-csv.js';
import { ukDay, ukDayEndMs } from '../../../../pipeline/time/uk-day.js';
import { field, runtimeCall } from '../../../devnet/decorated.js';
import { sharedPackWorld } from '../../../support/shared-pack-world.js';
import type { PackWorld } from './pack-world.js';
import { pdfToText } from './pdf-text.js';
import { raoOf, readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2025-04-04T00:00:00Z');
const HISTORY_DAYS = 602; // to 27 November 2026
/** GMT days of 2025/26 (UK day = UTC day), fixed here: spec 334's root claims, 343 and 393 run in them. */
const WINDOW_2025 = { from: '2025-11-02', to: '2026-03-28' };

let world: PackWorld;
let chain: PackChain;
let truth: Truth;
/** The truth of the whole of 2025/26 (the life's actions and each day's positions). */
let yearTruth: Truth;
/** The demo coldkey's income on each UK day of 2025/26, from the world. */
let ukYearIncome: ReturnType<typeof ukDayIncome>;
/** 2026/27 to the last whole UK day: the demo coldkey's income and, after its coldkey swap, its successor's. */
let ukThisYearIncome: ReturnType<typeof ukDayIncome>;
const packs = new Map<string, Map<string, string>>();
let carriedPdf: Uint8Array;
const pdfs = new Map<string, Uint8Array>();

async function packOf(taxYear: string, customer?: CustomerInputs): Promise<Map<string, string>> {
  const order: PackOrder = {
    id: `ord_${taxYear.replace('/', '_')}`,
    sku: 'tax-pack',
    packName: 'UK staking tax pack',
    taxYear,
    coldkeys: [world.devnet.demoColdkey],
    paidAt: new Date('2026-11-27T14:00:00Z'),
  };
  const zip = await JSZip.loadAsync(
    await buildPack(order, { store: world.store, chain: chain.reader }, customer),
  );
  const files = new Map<string, string>();
  for (const name of Object.keys(zip.files)) files.set(name, await zip.file(name)!.async('string'));
  if (customer) carriedPdf = await zip.file('summary.pdf')!.async('uint8array');
  else pdfs.set(taxYear, await zip.file('summary.pdf')!.async('uint8array'));
  return files;
}

const opening = (pools: string): CustomerInputs =>
  readCustomerFiles([{ name: 'pools.csv', bytes: new TextEncoder().encode(pools), role: 'opening' }]);

beforeAll(async () => {
  // Shared with reconciliation-against-chain.test.ts (the same options): built once per run.
  world = await sharedPackWorld({ genesis: GENESIS, historyDays: HISTORY_DAYS, blockTimeMs: 3_600_000 });
  chain = openPackChain(world.devnet.url);
  const finalizedNow = world.nowMs - world.options.finalityLag * world.options.blockTimeMs;
  truth = buildTruth({ ...world.options, now: () => finalizedNow }, WINDOW_2025.from, WINDOW_2025.to);
  yearTruth = buildTruth({ ...world.options, now: () => finalizedNow }, '2025-04-06', '2026-04-05');
  ukYearIncome = ukDayIncome(
    { ...world.options, now: () => finalizedNow },
    world.devnet.demoColdkey,
    '2025-04-06',
    '2026-04-05',
  );
  // The last UK day the pack's record has whole: the day before the finalized head's UK day.
  const lastWholeDay = new Date(Date.parse(ukDay(finalizedNow)) - 86_400_000).toISOString().slice(0, 10);
  const successor = yearTruth.coldkeys.find((c) => c.successor_of === world.devnet.demoColdkey)!.coldkey;
  ukThisYearIncome = [world.devnet.demoColdkey, successor].flatMap((coldkey) =>
    ukDayIncome({ ...world.options, now: () => finalizedNow }, coldkey, '2026-04-06', lastWholeDay),
  );
  packs.set('2025/26', await packOf('2025/26'));
  packs.set('2026/27', await packOf('2026/27'));
  packs.set('2026/27 carried', await packOf('2026/27', opening(packs.get('2025/26')!.get('pools.csv')!)));
}, 3_000_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

describe('2025/26 and 2026/27 on the runtimes mainnet ran', () => {
  it('runs the world by date', () => {
    expect(truth.runtime_placement).toBe('dates');
    expect(truth.runtimes.map((r) => r.spec)).toEqual([
      257, 283, 285, 297, 315, 320, 334, 343, 393, 425, 473,
    ]);
  });

  it("2025/26: income per UK day and position equals the truth's to the rao over the whole year, BST days included", () => {
    // The staking rows (liquidity fees are income of their own rows, held to the truth below).
    const income = readCsv(packs.get('2025/26')!.get('income.csv')!).filter(
      (row) => row['kind'] !== 'liquidity fees',
    );
    const packed = new Map(
      income.map((row) => [`${row['date']}|${row['hotkey']}|${row['netuid']}`, raoOf(row['alpha']!)]),
    );
    const expected = new Map<string, bigint>();
    for (const day of ukYearIncome) {
      for (const position of day.income) {
        expected.set(`${day.date}|${position.hotkey}|${position.netuid}`, BigInt(position.alpha_rao));
      }
    }
    // Both sides of the clock change: summer (BST) days and winter (GMT) days.
    expect([...expected.keys()].some((key) => key.startsWith('2025-07-'))).toBe(true);
    expect([...expected.keys()].some((key) => key.startsWith('2026-01-'))).toBe(true);
    expect(new Map([...packed].sort())).toEqual(new Map([...expected].sort()));
  });

  it("2026/27: income per UK day and position, the demo coldkey's then its successor's, equals the truth's to the rao", () => {
    const income = readCsv(packs.get('2026/27')!.get('income.csv')!);
    const sum = (map: Map<string, bigint>, key: string, rao: bigint) =>
      map.set(key, (map.get(key) ?? 0n) + rao);
    const packed = new Map<string, bigint>();
    for (const row of income)
      sum(packed, `${row['date']}|${row['hotkey']}|${row['netuid']}`, raoOf(row['alpha']!));
    const expected = new Map<string, bigint>();
    for (const day of ukThisYearIncome) {
      for (const position of day.income) {
        sum(expected, `${day.date}|${position.hotkey}|${position.netuid}`, BigInt(position.alpha_rao));
      }
    }
    // The year so far holds the spec 425 life (its hotkey swap on a coldkey that swapped one at 297, its
    // coldkey swap) and the AlphaV2 migration of 5 October 2026.
    expect(expected.size).toBeGreaterThan(1_000);
    expect([...expected.keys()].some((key) => key.startsWith('2026-10-05|'))).toBe(true);
    expect(new Map([...packed].sort())).toEqual(new Map([...expected].sort()));
  });

  it('both years: every disposal is explained by an event of the record, on its UK day', () => {
    for (const year of ['2025/26', '2026/27']) {
      const files = packs.get(year)!;
      const disposals = readCsv(files.get('disposals.csv')!);
      expect(disposals.length, year).toBeGreaterThan(0);
      const events = readCsv(files.get('events.csv')!);
      // Each disposal (one asset, one UK day) names the events it groups (`event <block>/<index>`, or the
      // migration's row `AlphaV2Migration <block>`), and each is an event of the record dated that UK day.
      for (const row of disposals) {
        const blocks = (row['refs'] ?? '')
          .split('; ')
          .map((ref) => /^(?:event (\d+)\/\d+|AlphaV2Migration (\d+))$/.exec(ref))
          .map((match) => match?.[1] ?? match?.[2]);
        expect(blocks.length, `${year} ${row['date']} ${row['asset']}`).toBeGreaterThan(0);
        for (const block of blocks) {
          expect(block, `${year} ${row['date']} ${row['asset']}: ${row['refs']}`).toBeDefined();
          const named = events.filter((e) => e['uk_date'] === row['date'] && e['block'] === block);
          expect(named.length, `${year} ${row['date']} ${row['asset']}: ${row['refs']}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it("2025/26: the demo coldkey's life on that year's runtimes is in the truth, on the runtime of its date", () => {
    const life = yearTruth.actions.map((a) => [a.action, a.time.slice(0, 10), a.events.map((e) => e.name)]);
    expect(life).toEqual([
      ['recycle', '2025-05-14', ['AlphaRecycled']],
      ['hotkey-swap', '2025-08-12', ['HotkeySwapped']],
      ['crowdloan-contribution', '2025-08-20', ['Transfer', 'Contributed']],
      ['crowdloan-contribution', '2025-09-02', ['Transfer', 'Contributed']],
      ['network-registration', '2025-09-03', ['Withdraw', 'NetworkAdded']],
      ['identity-set', '2025-09-10', ['IdentitySet']],
      ['crowdloan-refund', '2025-09-16', ['Transfer', 'AllRefunded']],
      ['auto-stake', '2025-10-01', ['AutoStakeAdded']],
      ['multisig-deposit', '2025-10-14', ['Reserved', 'NewMultisig']],
      ['liquidity-add', '2025-10-15', ['Withdraw', 'LiquidityAdded']],
      ['multisig-executed', '2025-10-16', ['Unreserved', 'MultisigExecuted']],
      ['identity-cleared', '2025-11-05', ['IdentityDissolved']],
      ['network-lock-refund', '2025-11-12', ['Deposit', 'NetworkRemoved']],
      ['liquidity-remove', '2025-11-20', ['Deposit', 'LiquidityRemoved']],
      ['liquidity-add', '2025-11-27', ['Withdraw', 'LiquidityAdded']],
      ['liquidity-refund', '2025-12-05', ['UserLiquidityToggled', 'Deposit']],
      ['root-claim', '2025-12-10', ['RootClaimed']],
      ['dissolution', '2026-01-20', ['Deposit', 'NetworkRemoved']],
      ['root-claim', '2026-02-18', ['RootClaimed']],
      ['lease-dividends', '2026-03-28', ['StakeRemoved', 'StakeAdded', 'SubnetLeaseDividendsDistributed']],
      ['lease-dividends', '2026-04-02', ['StakeRemoved', 'StakeAdded', 'SubnetLeaseDividendsDistributed']],
    ]);
    // Stakes, unstakes, moves and swaps on both sides of the swap pallet (30 June 2025).
    const demo = yearTruth.coldkeys.find((c) => c.demo)!.coldkey;
    const kinds = (before: boolean) =>
      new Set(
        yearTruth.staking_events
          .filter((e) => e.coldkey === demo && e.time < '2025-06-30' === before)
          .map((e) => e.kind),
      );
    for (const side of [true, false]) {
      for (const kind of ['StakeAdded', 'StakeRemoved', 'StakeMoved', 'StakeSwapped'] as const)
        expect(kinds(side), `${kind} ${side ? 'before' : 'after'} the swap pallet`).toContain(kind);
    }
  });

  it('2025/26: root income before root claims is the root position growing, after them the claimed alpha', () => {
    const income = readCsv(packs.get('2025/26')!.get('income.csv')!).filter(
      (row) => row['kind'] !== 'liquidity fees',
    );
    const coldkey = truth.coldkeys.find((c) => c.coldkey === world.devnet.demoColdkey)!;
    const sum = (
      rows: Array<{ date: string; netuid: number; alpha: bigint }>,
      test: (d: string) => boolean,
    ) => rows.filter((r) => test(r.date)).reduce((total, r) => total + r.alpha, 0n);
    const packed = income
      .filter((row) => row['date']! >= WINDOW_2025.from && row['date']! <= WINDOW_2025.to)
      .map((row) => ({ date: row['date']!, netuid: Number(row['netuid']), alpha: raoOf(row['alpha']!) }));
    const expected = coldkey.days.flatMap((day) =>
      day.income.map((p) => ({ date: day.date, netuid: p.netuid, alpha: BigInt(p.alpha_rao) })),
    );
    const beforeClaims = (d: string) => d >= WINDOW_2025.from && d < '2025-11-04';
    const afterClaims = (d: string) => d >= '2025-11-04' && d <= WINDOW_2025.to;
    const root = (rows: typeof packed) => rows.filter((r) => r.netuid === 0);
    // Root stake grows before spec 334 and not after it (root dividends become claimable alpha).
    expect(sum(root(expected), beforeClaims)).toBeGreaterThan(0n);
    expect(sum(root(expected), afterClaims)).toBe(0n);
    expect(sum(root(packed), beforeClaims)).toBe(sum(root(expected), beforeClaims));
    expect(sum(root(packed), afterClaims)).toBe(0n);
    // Each root claim is income on its claim day, as the truth has it.
    for (const claim of yearTruth.actions.filter((a) => a.action === 'root-claim')) {
      const date = claim.time.slice(0, 10);
      const on = (rows: typeof packed) =>
        sum(
          rows.filter((r) => r.netuid === claim.netuid),
          (d) => d === date,
        );
      expect(on(packed), date).toBe(on(expected));
      // The claimed alpha joins the position's shares, which floor by a rao.
      expect(on(expected), date).toBeGreaterThanOrEqual(BigInt(claim.alpha_rao!) - 1n);
    }
  });

  it("2025/26: the life's recycle and dissolution are disposals, each explained by its event", () => {
    const files = packs.get('2025/26')!;
    const disposals = readCsv(files.get('disposals.csv')!);
    const events = readCsv(files.get('events.csv')!);
    for (const action of yearTruth.actions.filter(
      (a) => a.action === 'recycle' || a.action === 'dissolution',
    )) {
      const date = action.time.slice(0, 10);
      const row = disposals.find(
        (d) =>
          d['date'] === date &&
          d['asset']!.startsWith(`alpha:${action.netuid}:`) &&
          (d['refs'] ?? '').includes(String(action.block)),
      );
      expect(row, `${action.action} ${date}`).toBeDefined();
      const named = events.filter((e) => e['block'] === String(action.block));
      expect(named.length, `${action.action} ${date}`).toBeGreaterThan(0);
    }
    // The hotkey swap is no disposal: nothing disposed of names its block.
    const swap = yearTruth.actions.find((a) => a.action === 'hotkey-swap')!;
    expect(disposals.filter((d) => (d['refs'] ?? '').includes(String(swap.block)))).toEqual([]);
  });

  it('2025/26: user liquidity, crowdloans and lease dividends are booked as the method says', () => {
    const files = packs.get('2025/26')!;
    const disposals = readCsv(files.get('disposals.csv')!);
    const events = readCsv(files.get('events.csv')!);
    const liquidity = readCsv(files.get('liquidity.csv')!);
    const lp = yearTruth.actions.filter((a) => a.action.startsWith('liquidity-'));
    // One liquidity.csv row per step, with the chain's amounts: TAO and alpha in, principal and fees out.
    expect(
      liquidity.map((row) => [row['date_uk'], row['direction'], row['position_ids'], row['tao_principal']]),
    ).toEqual(
      lp.map((a) => [
        a.time.slice(0, 10),
        (
          { 'liquidity-add': 'in', 'liquidity-remove': 'out', 'liquidity-refund': 'refund' } as Record<
            string,
            string
          >
        )[a.action],
        String(a.liquidity!.position_id),
        fixedToText(BigInt(a.liquidity!.tao_rao), 9),
      ]),
    );
    const removed = lp.find((a) => a.action === 'liquidity-remove')!;
    const removedRow = liquidity.find((row) => row['direction'] === 'out')!;
    expect(raoOf(removedRow['fee_alpha']!)).toBe(BigInt(removed.liquidity!.fee_alpha_rao));
    expect(Number(removedRow['fees_gbp'])).toBeGreaterThan(0);
    // Each position is its own asset: disposed of when taken out and when the chain refunded it.
    for (const action of lp.filter((a) => a.action !== 'liquidity-add')) {
      const date = action.time.slice(0, 10);
      const asset = `liquidity:${action.netuid}:${action.liquidity!.position_id}`;
      expect(
        disposals.filter((d) => d['date'] === date && d['asset'] === asset).length,
        `${action.action} ${date}`,
      ).toBe(1);
    }
    // The refund, which no swap event names, is found and listed as a point to check.
    const refund = lp.find((a) => a.action === 'liquidity-refund')!;
    const refundRow = events.find(
      (e) => e['block'] === String(refund.block) && e['kind'] === 'LiquidityRefunded',
    );
    expect(refundRow?.['treatment']).toContain(`liquidity:${refund.netuid}:${refund.liquidity!.position_id}`);
    // Crowdloans: a contribution is TAO given for a right, a refund gives it back; the leased one is held.
    const crowdloans = events.filter((e) => e['action'] === 'crowdloan');
    expect(crowdloans.map((e) => [e['uk_date'], e['kind']])).toEqual([
      ['2025-08-20', 'CrowdloanContributed'],
      ['2025-09-02', 'CrowdloanContributed'],
      ['2025-09-16', 'Transfer'],
    ]);
    expect(disposals.filter((d) => d['asset'] === 'crowdloan:2').map((d) => d['date'])).toEqual([
      '2025-09-16',
    ]);
    const pools = readCsv(files.get('pools.csv')!);
    const contributed = yearTruth.actions.find((a) => a.action === 'crowdloan-contribution')!;
    expect(pools.find((p) => p['asset'] === 'crowdloan:1')?.['quantity']).toBe(
      fixedToText(BigInt(contributed.tao_rao), 9),
    );
    // Lease dividends of 393, announced, are income of their UK day on the leased subnet.
    const income = readCsv(files.get('income.csv')!);
    for (const dividend of yearTruth.actions.filter((a) => a.action === 'lease-dividends')) {
      const date = dividend.time.slice(0, 10);
      const received = income
        .filter((row) => row['date'] === date && row['netuid'] === String(dividend.netuid))
        .reduce((sum, row) => sum + raoOf(row['alpha']!), 0n);
      expect(received, date).toBeGreaterThanOrEqual(BigInt(dividend.alpha_rao!) - 1n);
    }
  });

  it("2025/26: the fees paid out with a liquidity position are income: income.csv's own row at their value at receipt, in the PDF's total, counted once", async () => {
    const files = packs.get('2025/26')!;
    const income = readCsv(files.get('income.csv')!);
    const removals = yearTruth.actions.filter((a) => a.action === 'liquidity-remove');
    const feeRows = income.filter((row) => row['kind'] === 'liquidity fees');
    expect(removals.length).toBeGreaterThan(0);
    // One row per payout: its day, position and the fees the chain paid, exact.
    expect(
      feeRows.map((row) => [
        row['date'],
        row['netuid'],
        row['liquidity_position'],
        row['alpha'],
        row['tao_received'],
      ]),
    ).toEqual(
      removals.map((a) => [
        a.time.slice(0, 10),
        String(a.netuid),
        `liquidity:${a.netuid}:${a.liquidity!.position_id}`,
        fixedToText(BigInt(a.liquidity!.fee_alpha_rao), 9),
        fixedToText(BigInt(a.liquidity!.fee_tao_rao), 9),
      ]),
    );
    // Valued at receipt, read from the chain here: the alpha at the pool's price of the payout's block
    // (SubnetTAO / SubnetAlphaIn), TAO and alpha at the day's TAO/GBP rate (the rate of that day's staking rows).
    const api = await ApiPromise.create({
      provider: new WsProvider(world.devnet.url),
      signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
      throwOnConnect: true,
    });
    try {
      for (const [i, removal] of removals.entries()) {
        const row = feeRows[i]!;
        const state = await api.at(await api.rpc.chain.getBlockHash(removal.block));
        const reserve = async (name: string) =>
          BigInt(((await state.query['subtensorModule']![name]!(removal.netuid)) as Codec).toString());
        const alphaValue =
          (BigInt(removal.liquidity!.fee_alpha_rao) * (await reserve('subnetTAO'))) /
          (await reserve('subnetAlphaIn'));
        const feeTao = BigInt(removal.liquidity!.fee_tao_rao);
        expect(raoOf(row['tao']!), 'value in TAO').toBe(feeTao + alphaValue);
        const rate = income.find((r) => r['date'] === row['date'] && r['kind'] !== 'liquidity fees')![
          'tao_gbp'
        ]!;
        expect(row['tao_gbp']).toBe(rate);
        const expected = new CgtDecimal((feeTao + alphaValue).toString()).div(1e9).mul(rate);
        // The TAO's and the alpha's values, each to 8 places.
        expect(new CgtDecimal(row['gbp']!).sub(expected).abs().lte('0.00000002'), row['gbp']).toBe(true);
        expect(new CgtDecimal(row['gbp']!).gt(0)).toBe(true);
        // liquidity.csv's fees_gbp is the same figure.
        const lp = readCsv(files.get('liquidity.csv')!).find((r) => r['block'] === String(removal.block))!;
        expect(lp['fees_gbp']).toBe(row['gbp']);
        // Counted once: the payout's acquisitions are the principal and the fees, the fees (kind income) at
        // income.csv's value; TAO acquired in all is what the chain paid out.
        const atBlock = readCsv(files.get('cgt-input.csv')!).filter(
          (r) => r['action'] === 'acquire' && Date.parse(r['datetime']!) === Date.parse(removal.time),
        );
        const tao = (kind: (k: string) => boolean) =>
          atBlock
            .filter((r) => r['asset'] === 'TAO' && kind(r['kind'] ?? ''))
            .reduce((sum, r) => sum + raoOf(r['quantity']!), 0n);
        expect(tao((k) => k === 'income')).toBe(feeTao);
        expect(tao(() => true)).toBe(BigInt(removal.liquidity!.tao_rao) + feeTao);
        const incomeGbp = atBlock
          .filter((r) => r['kind'] === 'income')
          .reduce((sum, r) => sum.add(r['gbp']!), new CgtDecimal(0));
        expect(incomeGbp.eq(row['gbp']!), incomeGbp.toFixed()).toBe(true);
      }
    } finally {
      await api.disconnect();
    }
    // The PDF's income total is every row of income.csv received, the fees and lease dividends among them,
    // each source with its own total.
    const text = pdfToText(pdfs.get('2025/26')!, world.dir).replace(/\s+/g, ' ');
    const receivedRows = income.filter((row) => !row['alpha']!.startsWith('-') && row['gbp'] !== '');
    const received = receivedRows.reduce((sum, row) => sum.add(row['gbp']!), new CgtDecimal(0));
    const receivedTao = receivedRows.reduce((sum, row) => sum + raoOf(row['tao']!), 0n);
    const feesGbp = feeRows.reduce((sum, row) => sum.add(row['gbp']!), new CgtDecimal(0));
    const feesTao = feeRows.reduce((sum, row) => sum + raoOf(row['tao']!), 0n);
    expect(text).toContain(`Total: ${fixedToText(receivedTao, 9)} TAO, £${pounds(received)}`);
    expect(text).toContain(
      `Liquidity fees (paid out with user liquidity positions): ${fixedToText(feesTao, 9)} TAO, £${pounds(feesGbp)}`,
    );
    // Lease dividends: inside their position's row of the day (the event's alpha; the row's shares floor by
    // a rao), and a line of their own.
    const dividends = yearTruth.actions.filter((a) => a.action === 'lease-dividends');
    const dividendRows = income.filter((row) => row['kind'] === 'staking and lease dividends');
    const noted = (row: Record<string, string>) =>
      /includes ([0-9.]+) alpha of lease dividends \(SubnetLeaseDividendsDistributed\), ([0-9.]+) GBP/.exec(
        row['note']!,
      )!;
    expect(dividendRows.map((row) => [row['date'], row['netuid']])).toEqual(
      dividends.map((a) => [a.time.slice(0, 10), String(a.netuid)]),
    );
    for (const [i, row] of dividendRows.entries()) {
      const alpha = raoOf(noted(row)[1]!);
      expect(alpha).toBeLessThanOrEqual(BigInt(dividends[i]!.alpha_rao!));
      expect(alpha).toBeGreaterThanOrEqual(BigInt(dividends[i]!.alpha_rao!) - 1n);
    }
    const dividendsGbp = dividendRows.reduce((sum, row) => sum.add(noted(row)[2]!), new CgtDecimal(0));
    expect(dividendsGbp.gt(0)).toBe(true);
    const line = (label: string) =>
      new RegExp(`${label}: ([0-9.]+) TAO, £([0-9,.]+)`).exec(text)?.[2]?.replace(/,/g, '');
    expect(line('Lease dividends \\(SubnetLeaseDividendsDistributed\\)')).toBe(
      pounds(dividendsGbp).replace(/,/g, ''),
    );
    // The three lines add up to the total (each rounded to the penny once).
    const staking = line('Staking rewards \\(stake growth\\)')!;
    const sum = new CgtDecimal(staking)
      .add(pounds(dividendsGbp).replace(/,/g, ''))
      .add(pounds(feesGbp).replace(/,/g, ''));
    expect(sum.sub(pounds(received).replace(/,/g, '')).abs().lte('0.02'), sum.toFixed()).toBe(true);
  });

  it("2025/26: the TAO pool at the year's end, less what it matched ahead, is the chain's free and reserved TAO and root stake", async () => {
    const pools = readCsv(packs.get('2025/26')!.get('pools.csv')!);
    const pool = pools.find((r) => r['asset'] === 'TAO' && r['kind'] === 'pool')!;
    const ahead = pools
      .filter((r) => r['asset'] === 'TAO' && r['kind'] === 'matched-ahead')
      .reduce((sum, r) => sum + raoOf(r['quantity']!), 0n);
    // The year's last block: the last before the UK midnight that ends 5 April 2026 (one-hour blocks).
    const end = Math.floor((ukDayEndMs('2026-04-05') - 1 - GENESIS.getTime()) / world.options.blockTimeMs);
    const api = await ApiPromise.create({
      provider: new WsProvider(world.devnet.url),
      signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
      throwOnConnect: true,
    });
    try {
      const state = await api.at(await api.rpc.chain.getBlockHash(end));
      const demo = world.devnet.demoColdkey;
      const account = (await state.query['system']!['account']!(demo)) as unknown as {
        data: { free: Codec; reserved: Codec };
      };
      const info = (await runtimeCall(
        state,
        'stakeInfoRuntimeApi.getStakeInfoForColdkey',
      )(demo)) as Vec<Codec>;
      const root = info
        .filter((p) => field(p, 'netuid').toString() === '0')
        .reduce((sum, p) => sum + BigInt(field(p, 'stake').toString()), 0n);
      const held = BigInt(account.data.free.toString()) + BigInt(account.data.reserved.toString()) + root;
      expect(raoOf(pool['quantity']!) - ahead).toBe(held);
    } finally {
      await api.disconnect();
    }
  });

  it("2026/27 opened from the 2025/26 pack's pools.csv opens with exactly that pack's closing pools", () => {
    const earlier = packs.get('2025/26')!;
    const closing = readCsv(earlier.get('pools.csv')!)
      .filter((row) => row['kind'] === 'pool')
      .map((row) => `${row['asset']}|${row['quantity']}|${row['cost_gbp']}`);
    expect(closing.length).toBeGreaterThan(0);
    // The CGT engine's closing pools of 2025/26 from that pack's own record are the pools.csv's.
    const report = computeGains(readCgtCsv(earlier.get('cgt-input.csv')!));
    const year = report.taxYears.find((y) => y.taxYear === '2025/26');
    expect(
      (year?.closingPools ?? report.pools).map(
        (pool) =>
          `${pool.asset}|${pool.quantity.toFixed()}|${pool.cost.toFixed(8, CgtDecimal.ROUND_HALF_EVEN)}`,
      ),
    ).toEqual(closing);
    // The 2026/27 pack takes them as its opening: as the file gives them, at the end of 5 April 2026.
    const given = opening(earlier.get('pools.csv')!).opening!;
    expect(given.asAt).toBe('2026-04-05');
    expect(given.pools.map((p) => `${p.asset}|${p.quantity.toFixed()}|${p.cost.toFixed(8)}`)).toEqual(
      closing,
    );
    const text = pdfToText(carriedPdf, world.dir).replace(/\s+/g, ' ');
    expect(text).toContain('Pools opened from: your pools.csv, as the pools stood at the end of 2026-04-05');
    // And it computes 2026/27 as one computation over the whole record does, to the penny.
    const penny = (text: string) => new CgtDecimal(text).toFixed(2, CgtDecimal.ROUND_HALF_EVEN);
    const figures = (files: Map<string, string>) =>
      readCsv(files.get('disposals.csv')!).map(
        (row) =>
          `${row['date']}|${row['asset']}|${row['quantity']}|${penny(row['proceeds_gbp']!)}|${penny(row['cost_gbp']!)}|${penny(row['gain_gbp']!)}`,
      );
    const pools = (files: Map<string, string>) =>
      readCsv(files.get('pools.csv')!).map(
        (row) =>
          `${row['asset']}|${row['quantity']}|${penny(row['cost_gbp']!)}|${row['as_at']}|${row['kind']}`,
      );
    const whole = packs.get('2026/27')!;
    const carried = packs.get('2026/27 carried')!;
    expect(figures(whole).length).toBeGreaterThan(0);
    expect(figures(carried)).toEqual(figures(whole));
    expect(pools(carried)).toEqual(pools(whole));
  });
});
