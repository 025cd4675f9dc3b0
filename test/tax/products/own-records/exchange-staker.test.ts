/**
 * Issue 36's staker whose TAO came from an exchange: two purchases and a withdrawal in a Koinly CSV, the
 * exchange's address named as theirs, then on the chain a stake, a day's income and an unstake, the TAO
 * sent back to the exchange (a deposit in the same CSV) and sold there. The chain side is what a pack
 * writes to `cgt-input.csv` for such a coldkey (its `kind` and `counterparty` columns); `sbm tax cgt` with
 * the buyer's files runs the pack's own combining (`combineOwnRecords`), so these are the pack's figures.
 *
 * The SA108 figures are computed by hand below, each pool and match shown, and BittyTax (run unchanged from
 * its source) is given the `bittytax.csv` the pack writes for the combined records and must agree.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combineOwnRecords } from '../../../../pipeline/tax/products/own-records/combine-own-records.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { bittytaxCsv } from '../../../../pipeline/tax/products/pack/exports/bittytax-csv.js';
import { exportRecords } from '../../../../pipeline/tax/products/pack/exports/export-records.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { CgtJson } from '../../../../pipeline/tax/uk-rules/cgt/cgt-json.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { readCgtCsv } from '../../../../pipeline/tax/uk-rules/cgt/read-cgt-csv.js';
import { locateBittyTax, runBittyTax } from '../../../support/bittytax.js';
import { runArgs } from '../../uk-rules/cgt/run-cgt.js';

/** The exchange's deposit address (a well-known development key, so a valid SS58 address). */
const EXCHANGE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALPHA = 'alpha:12:100';

/** What the pack writes for the coldkey: the TAO from the exchange and back at market value, as it stands. */
const CHAIN = [
  'datetime,asset,action,quantity,gbp,fee_gbp,kind,counterparty',
  `2025-05-10T12:00:00.000Z,TAO,acquire,10,3000,,transfer-in,${EXCHANGE}`,
  `2025-05-11T12:00:00.000Z,TAO,dispose,10,3100,,,`,
  `2025-05-11T12:00:00.000Z,${ALPHA},acquire,500,3100,,,`,
  `2025-06-01T22:00:00.000Z,${ALPHA},acquire,5,30,,income,`,
  `2025-07-01T12:00:00.000Z,${ALPHA},dispose,505,3535,,,`,
  `2025-07-01T12:00:00.000Z,TAO,acquire,11,3535,,,`,
  `2025-07-02T12:00:00.000Z,TAO,dispose,11,3850,,transfer-out,${EXCHANGE}`,
].join('\n');

/** The exchange's Koinly export: buys with pound fees, the withdrawal (fee in TAO), the deposit, the sale. */
const KOINLY = [
  'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
  '2025-04-01 10:00:00 UTC,1500,GBP,6,TAO,5,GBP,,,,buy,',
  '2025-04-20 10:00:00 UTC,1200.60,GBP,4.002,TAO,3,GBP,,,,buy,',
  '2025-05-10 11:30:00 UTC,10,TAO,,,0.002,TAO,3000,GBP,,withdrawal to my coldkey,',
  '2025-07-02 13:00:00 UTC,,,11,TAO,,,,,,deposit from my coldkey,',
  '2025-07-03 09:00:00 UTC,11,TAO,3850,GBP,10,GBP,,,,sell,',
].join('\n');

const ADDRESSES = `address,label\n${EXCHANGE},Kraken deposit\n`;

/**
 * By hand (HMRC CRYPTO22200 onwards; one pool per token across the coldkey and the exchange):
 *
 * TAO pool
 *   2025-04-01 buy 6 for £1,500 + £5 fee                      pool 6        £1,505.00
 *   2025-04-20 buy 4.002 for £1,200.60 + £3 fee               pool 10.002   £2,708.60
 *   2025-05-10 withdrawal of 10 to the coldkey: a move within the holdings, nothing; its fee, 0.002 TAO
 *              worth £0.60 (£3,000 / 10 per TAO), is a disposal. No TAO is acquired on that day or the 30
 *              after it, so s104: cost £2,708.60 × 0.002 / 10.002 = £0.5416116776...      gain £0.0583883223...
 *                                                             pool 10       £2,708.0583883223...
 *   2025-05-11 staked: 10 TAO disposed of for the alpha's value £3,100; s104 takes the whole pool
 *              (no TAO acquired in the 30 days after): cost £2,708.0583883223...           gain £391.9416116776...
 *                                                             pool 0        £0
 *   2025-07-01 unstaked: 11 TAO acquired for £3,535              pool 11       £3,535.00
 *   2025-07-02 sent to the exchange (the Kraken address, and the deposit in the CSV): nothing
 *   2025-07-03 sold 11 for £3,850, fee £10: s104 cost £3,535 + £10 fee = £3,545           gain £305.00
 * alpha:12:100 pool
 *   2025-05-11 acquired 500 for £3,100; 2025-06-01 income 5 at £30   pool 505   £3,130.00
 *   2025-07-01 unstaked 505 for £3,535: s104 cost £3,130                                 gain £405.00
 *
 * SA108 2025/26: 4 disposals; proceeds £0.60 + £3,100 + £3,535 + £3,850 = £10,485.60; allowable costs
 * £2,708.60 (both TAO disposals together take the whole pool) + £3,130 + £3,545 = £9,383.60; gains
 * £1,102.00; losses £0.
 */
const BY_HAND = { disposals: 4, proceeds: '10485.60', costs: '9383.60', gains: '1102.00', losses: '0.00' };

const bittytax = await locateBittyTax();
const skipped = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

let dir: string;
const path = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-exchange-staker-'));
  await writeFile(path('cgt-input.csv'), `${CHAIN}\n`);
  await writeFile(path('kraken-koinly.csv'), `${KOINLY}\n`);
  await writeFile(path('addresses.csv'), ADDRESSES);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function combined() {
  const customer = readCustomerFiles([
    { name: 'kraken-koinly.csv', bytes: new TextEncoder().encode(KOINLY), role: 'records' },
    { name: 'addresses.csv', bytes: new TextEncoder().encode(ADDRESSES), role: 'addresses' },
  ]);
  return combineOwnRecords({ transactions: readCgtCsv(CHAIN), flags: [] }, customer);
}

const pennies = (value: string) => new CgtDecimal(value).toFixed(2, CgtDecimal.ROUND_HALF_EVEN);

describe('a staker whose TAO came from an exchange', () => {
  it('gives the SA108 figures of the computation by hand, with the records, the named address and sbm tax cgt', async () => {
    const run = await runArgs([
      'tax',
      'cgt',
      path('cgt-input.csv'),
      '--records',
      path('kraken-koinly.csv'),
      '--addresses',
      path('addresses.csv'),
      '--json',
    ]);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as CgtJson;
    const year = report.tax_years.find((y) => y.tax_year === '2025/26')!;
    expect({
      disposals: year.disposals,
      proceeds: pennies(year.proceeds),
      costs: pennies(year.costs),
      gains: pennies(year.gains),
      losses: pennies(year.losses),
    }).toEqual(BY_HAND);
    // Each disposal and its matches as worked out above.
    expect(
      report.disposals.map(
        (d) => `${d.date} ${d.asset} ${d.quantity} ${pennies(d.proceeds)} ${pennies(d.cost)}`,
      ),
    ).toEqual([
      '2025-05-10 TAO 0.002 0.60 0.54',
      '2025-05-11 TAO 10 3100.00 2708.06',
      `2025-07-01 ${ALPHA} 505 3535.00 3130.00`,
      '2025-07-03 TAO 11 3850.00 3545.00',
    ]);
    expect(report.disposals.flatMap((d) => d.matched.map((m) => m.rule))).toEqual([
      's104',
      's104',
      's104',
      's104',
    ]);
    expect(report.pools.map((p) => `${p.asset} ${p.quantity} ${pennies(p.cost)}`)).toEqual([
      'TAO 0 0.00',
      `${ALPHA} 0 0.00`,
    ]);
  });

  it('books the withdrawal and the deposit as moves within the holdings, not at market value', () => {
    const result = combined();
    expect(result.ownTransfers.map((m) => `${m.direction} ${m.quantity.toFixed()} ${m.label}`)).toEqual([
      'in 10 Kraken deposit',
      'out 11 Kraken deposit',
    ]);
    expect(result.ownTransfers.every((m) => m.record !== null)).toBe(true);
    expect(result.transactions.some((tx) => tx.kind === 'transfer-in' || tx.kind === 'transfer-out')).toBe(
      false,
    );
    expect(result.flags).toEqual([]);
  });

  it('without the records, the chain alone takes the TAO at market value: the transfer in costs what it was worth then', () => {
    // The market values the chain record gives the two transfers (the gbp column of its transfer rows), read
    // here from the rows themselves: the TAO that came in is acquired at £3,000, the TAO sent out disposed of
    // at £3,850.
    const rows = CHAIN.split('\n')
      .slice(1)
      .map((line) => line.split(','));
    const marketValue = (kind: string) => rows.find((r) => r[6] === kind)![4]!;
    expect([marketValue('transfer-in'), marketValue('transfer-out')]).toEqual(['3000', '3850']);
    /*
     * By hand, one pool per token, no records:
     * TAO   2025-05-10 transfer in of 10 at its market value £3,000          pool 10    £3,000
     *       2025-05-11 staked: 10 disposed of for £3,100, s104 cost £3,000 (the market value), gain £100
     *       2025-07-01 unstaked: 11 acquired for £3,535                       pool 11    £3,535
     *       2025-07-02 sent to the exchange: 11 disposed of at its market value £3,850, s104 cost £3,535,
     *                  gain £315
     * alpha 2025-07-01 505 disposed of for £3,535, s104 cost £3,100 + £30 = £3,130, gain £405
     * SA108: 3 disposals, proceeds £10,485, costs £9,665, gains £820.
     */
    const inValue = new CgtDecimal(marketValue('transfer-in'));
    const outValue = new CgtDecimal(marketValue('transfer-out'));
    const report = computeGains(readCgtCsv(CHAIN));
    expect(
      report.disposals.map(
        (d) =>
          `${d.date} ${d.asset} ${d.quantity.toFixed()} ${pennies(d.proceeds.toFixed())} ${pennies(d.cost.toFixed())}`,
      ),
    ).toEqual([
      `2025-05-11 TAO 10 3100.00 ${pennies(inValue.toFixed())}`,
      `2025-07-01 ${ALPHA} 505 3535.00 3130.00`,
      `2025-07-02 TAO 11 ${pennies(outValue.toFixed())} 3535.00`,
    ]);
    const year = report.taxYears.find((y) => y.taxYear === '2025/26')!;
    expect([year.disposals, pennies(year.proceeds.toFixed()), pennies(year.costs.toFixed())]).toEqual([
      3,
      pennies(new CgtDecimal(3100).add(3535).add(outValue).toFixed()),
      pennies(inValue.add(3130).add(3535).toFixed()),
    ]);
    expect([pennies(year.gains.toFixed()), pennies(year.losses.toFixed())]).toEqual(['820.00', '0.00']);
    // Other figures than with the records, which carry the exchange's own cost instead.
    expect(pennies(year.costs.toFixed())).not.toBe(BY_HAND.costs);
  });

  it.skipIf('skip' in bittytax)(
    `BittyTax, given the pack's bittytax.csv of the combined records, gives the same figures${skipped}`,
    async () => {
      const result = combined();
      const csv = bittytaxCsv(exportRecords(result.transactions, [], result), 'Bittensor');
      const years = await runBittyTax(csv, { location: bittytax });
      expect(years).toEqual([{ taxYear: '2025/26', ...BY_HAND }]);
    },
  );
});
