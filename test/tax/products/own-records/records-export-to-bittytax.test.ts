/**
 * The pack's bittytax.csv of a buyer's records must give BittyTax the pack's own figures: a row that traded
 * two tokens with a fee is one Trade (so BittyTax splits the fee as the pack did, not all on a purchase
 * against pounds), and a negligible value claim is a Lost row (BittyTax's claim), not a Spend.
 */
import { describe, expect, it } from 'vitest';
import { combineOwnRecords } from '../../../../pipeline/tax/products/own-records/combine-own-records.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { bittytaxCsv } from '../../../../pipeline/tax/products/pack/exports/bittytax-csv.js';
import { exportRecords } from '../../../../pipeline/tax/products/pack/exports/export-records.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { locateBittyTax, runBittyTax } from '../../../support/bittytax.js';
import { readCsv } from '../pack/read-pack-csv.js';

const RECORDS = [
  'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note',
  'Income,100,SN12-ALPHA,100,,,,,,,Kraken,2025-06-01T10:00:00Z,',
  'Trade,1,TAO,300,90,SN12-ALPHA,300,10,SN12-ALPHA,30,Kraken,2025-06-02T10:00:00Z,',
  'Trade,10,TAO,,1000,GBP,,,,,Kraken,2025-06-03T10:00:00Z,',
  'Lost,,,,2,TAO,,,,,Ledger,2025-06-10T10:00:00Z,',
  'Trade,2000,GBP,,8,TAO,,,,,Kraken,2025-06-15T10:00:00Z,',
].join('\n');

const bittytax = await locateBittyTax();

function packOfRecords() {
  const customer = readCustomerFiles([
    { name: 'kraken.csv', bytes: new TextEncoder().encode(RECORDS), role: 'records' },
  ]);
  const combined = combineOwnRecords({ transactions: [], flags: [] }, customer);
  return { combined, gains: computeGains(combined.transactions) };
}

describe("the pack's bittytax.csv of the buyer's records", () => {
  it('writes a two-token trade as one Trade with its fee, and a claim as Lost', () => {
    const { combined } = packOfRecords();
    const rows = readCsv(bittytaxCsv(exportRecords(combined.transactions, [], combined), 'Bittensor'));
    expect(
      rows.map((row) => `${row['Type']} ${row['Buy Asset']}|${row['Sell Asset']}|${row['Fee Asset']}`),
    ).toEqual([
      'Income SN12-ALPHA||',
      'Trade TAO|SN12-ALPHA|SN12-ALPHA',
      'Trade TAO|GBP|',
      'Lost |TAO|',
      'Trade GBP|TAO|',
    ]);
  });

  it.skipIf('skip' in bittytax)("BittyTax, given it, computes the pack's figures", async () => {
    const { combined, gains } = packOfRecords();
    const csv = bittytaxCsv(exportRecords(combined.transactions, [], combined), 'Bittensor');
    const year = gains.taxYears.find((y) => y.taxYear === '2025/26')!;
    const years = await runBittyTax(csv, { location: bittytax });
    expect(years).toEqual([
      {
        taxYear: '2025/26',
        disposals: year.disposals,
        proceeds: year.proceeds.toFixed(2),
        costs: year.costs.toFixed(2),
        gains: year.gains.toFixed(2),
        losses: year.losses.toFixed(2),
      },
    ]);
  });
});
