/**
 * A fee paid in a token inside a trade of two tokens (HMRC CRYPTO22150: attributable to both sides) is
 * allowed half on the disposal and half on the acquisition, by every reader as by the chain's own rule,
 * as BittyTax splits it. The example: 100 alpha of income worth £100, then 90 alpha sold for 1 TAO worth
 * £300 with a fee of 10 alpha worth £30:
 *
 *   alpha: one disposal of 100 (the 90 sold and the 10 paid as fee, one UK day) for £300 + £30 = £330;
 *          cost: the whole pool £100 + half the fee £15 = £115; gain £215.
 *   TAO:   acquired 1 for £300 + the other half of the fee £15 = £315.
 */
import { describe, expect, it } from 'vitest';
import { combineOwnRecords } from '../../../../pipeline/tax/products/own-records/combine-own-records.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { bittytaxCsv } from '../../../../pipeline/tax/products/pack/exports/bittytax-csv.js';
import { exportRecords } from '../../../../pipeline/tax/products/pack/exports/export-records.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { CgtTransaction } from '../../../../pipeline/tax/uk-rules/cgt/cgt-types.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { locateBittyTax, runBittyTax } from '../../../support/bittytax.js';
import { pence, reportWithFiles } from './run-cgt-with-files.js';

const BITTYTAX = [
  'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note',
  'Income,100,SN12-ALPHA,100,,,,,,,Kraken,2025-06-01T10:00:00Z,',
  'Trade,1,TAO,300,90,SN12-ALPHA,300,10,SN12-ALPHA,30,Kraken,2025-06-02T10:00:00Z,',
].join('\n');

/**
 * Koinly: the sent amount leaves out the fee and Net Worth is the worth of the 90 sent, so the trade's one
 * price is £300 / 90 an alpha, and the fee of 10 alpha is worth £33.33…, as BittyTax values a fee in the
 * token sold (its Sell Value over its Sell Quantity, which excludes the fee) when no Fee Value is given:
 *
 *   alpha: one disposal of 100 for £300 + £33.33… = £333.33; cost £100 + half the fee £16.67 = £116.67.
 *   TAO:   acquired 1 for £300 + the other half £16.67 = £316.67.
 */
const KOINLY = [
  'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
  '2025-06-01 10:00:00 UTC,,,100,SN12-ALPHA,,,100,GBP,income,,',
  '2025-06-02 10:00:00 UTC,90,SN12-ALPHA,1,TAO,10,SN12-ALPHA,300,GBP,,,',
].join('\n');

/** The BittyTax file with the fee's value left for BittyTax to work out from the trade. */
const BITTYTAX_UNVALUED_FEE = BITTYTAX.replace(',10,SN12-ALPHA,30,', ',10,SN12-ALPHA,,');

const bittytax = await locateBittyTax();

function figures(report: Awaited<ReturnType<typeof reportWithFiles>>) {
  return {
    alpha: report.disposals
      .filter((d) => d.asset.startsWith('alpha:12:'))
      .map((d) => `${d.date} ${d.quantity} £${pence(d.proceeds)} cost £${pence(d.cost)}`),
    pools: report.pools.map((p) => `${p.asset} ${p.quantity} £${pence(p.cost)}`),
  };
}

const EXPECTED = {
  alpha: ['2025-06-02 100 £330.00 cost £115.00'],
  pools: ['TAO 1 £315.00', 'alpha:12:0 0 £0.00'],
};

describe('a fee in a token inside a trade of two tokens', () => {
  it('from a BittyTax file: alpha cost £115, TAO pool £315', async () => {
    expect(figures(await reportWithFiles({ records: { 'kraken.csv': BITTYTAX } }))).toEqual(EXPECTED);
  });

  it("from a Koinly file: the fee at the trade's own price of the 90 sent", async () => {
    const koinly = {
      alpha: ['2025-06-02 100 £333.33 cost £116.67'],
      pools: ['TAO 1 £316.67', 'alpha:12:0 0 £0.00'],
    };
    expect(figures(await reportWithFiles({ records: { 'kraken-koinly.csv': KOINLY } }))).toEqual(koinly);
    expect(
      figures(await reportWithFiles({ records: { 'kraken.csv': BITTYTAX_UNVALUED_FEE } })),
      'the same trade as a BittyTax row without a Fee Value',
    ).toEqual(koinly);
  });

  it.skipIf('skip' in bittytax)('BittyTax values the unvalued fee at that price too', async () => {
    const years = await runBittyTax(BITTYTAX_UNVALUED_FEE, { location: bittytax });
    expect(years).toEqual([
      {
        taxYear: '2025/26',
        disposals: 1,
        proceeds: '333.33',
        costs: '116.67',
        gains: '216.66',
        losses: '0.00',
      },
    ]);
  });

  it.skipIf('skip' in bittytax)('BittyTax itself gives these figures for the BittyTax file', async () => {
    const years = await runBittyTax(BITTYTAX, { location: bittytax });
    expect(years).toEqual([
      {
        taxYear: '2025/26',
        disposals: 1,
        proceeds: '330.00',
        costs: '115.00',
        gains: '215.00',
        losses: '0.00',
      },
    ]);
  });

  it("a pack's own bittytax.csv of such a chain exchange, read back as records, gives the pack's figures", () => {
    const at = (iso: string) => new Date(iso);
    const d = (v: string) => new CgtDecimal(v);
    // The chain's rows as the pack books an unstake that paid its fee in alpha: the fee in the disposal's
    // quantity and proceeds, half allowed against it, half on the TAO's cost.
    const chain: CgtTransaction[] = [
      {
        at: at('2025-06-01T22:00:00Z'),
        asset: 'alpha:12:0',
        action: 'acquire',
        quantity: d('100'),
        gbp: d('100'),
        ref: 'income 2025-06-01',
        kind: 'income',
      },
      {
        at: at('2025-06-02T10:00:00Z'),
        asset: 'alpha:12:0',
        action: 'dispose',
        quantity: d('100'),
        gbp: d('330'),
        fee: d('15'),
        paidAsFee: { quantity: d('10'), gbp: d('30') },
        ref: 'event 5/1',
      },
      {
        at: at('2025-06-02T10:00:00Z'),
        asset: 'TAO',
        action: 'acquire',
        quantity: d('1'),
        gbp: d('315'),
        ref: 'event 5/1',
      },
    ];
    const pack = computeGains(chain);
    const csv = bittytaxCsv(exportRecords(chain, []), 'Bittensor');
    const records = readCustomerFiles([
      { name: 'bittytax.csv', bytes: new TextEncoder().encode(csv), role: 'records' },
    ]);
    const readBack = computeGains(combineOwnRecords({ transactions: [], flags: [] }, records).transactions);
    const shown = (r: typeof pack) => ({
      disposals: r.disposals.map(
        (x) => `${x.date} ${x.asset} ${x.quantity.toFixed()} ${x.proceeds.toFixed(2)} ${x.cost.toFixed(2)}`,
      ),
      pools: r.pools.map((p) => `${p.asset} ${p.quantity.toFixed()} ${p.cost.toFixed(2)}`),
    });
    expect(shown(readBack)).toEqual(shown(pack));
    expect(shown(pack).pools).toEqual(['TAO 1 315.00', 'alpha:12:0 0 0.00']);
  });
});
