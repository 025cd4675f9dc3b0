/**
 * Combining a pack's chain rows with a buyer's files, on the cases a review found wrong at first: a
 * purchase on a day last year's pools.csv took ahead, entered pools with records dated before them, a record
 * whose coldkeys held nothing at the opening (the CLI must place the pools where the pack did), an
 * exchange's rounding, and a batch paying two addresses.
 */
import { describe, expect, it } from 'vitest';
import { combineOwnRecords } from '../../../../pipeline/tax/products/own-records/combine-own-records.js';
import type { UploadedFile } from '../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { bittytaxCsv } from '../../../../pipeline/tax/products/pack/exports/bittytax-csv.js';
import { cgtInputCsv } from '../../../../pipeline/tax/products/pack/exports/cgt-input-csv.js';
import { exportRecords } from '../../../../pipeline/tax/products/pack/exports/export-records.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { readCgtCsvWithOpening } from '../../../../pipeline/tax/uk-rules/cgt/read-cgt-csv.js';
import { readCsv } from '../pack/read-pack-csv.js';

const KOINLY_HEADER =
  'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
const file = (name: string, text: string, role: UploadedFile['role']): UploadedFile => ({
  name,
  bytes: new TextEncoder().encode(text),
  role,
});
const CHAIN_HEADER = 'datetime,asset,action,quantity,gbp,fee_gbp,kind,counterparty';

describe('combining the chain record with the buyer’s files', () => {
  it('a purchase on a day last year took ahead is reduced, and exported once as the reduced trade', () => {
    const chain = readCgtCsvWithOpening(
      [CHAIN_HEADER, '2026-04-20T12:00:00.000Z,TAO,dispose,2,700,,,'].join('\n'),
    );
    const customer = readCustomerFiles([
      file(
        'pools.csv',
        'asset,quantity,cost_gbp,as_at,kind\nTAO,4,1000,2026-04-05,pool\nTAO,1,300,2026-04-10,matched-ahead\n',
        'opening',
      ),
      file('k.csv', `${KOINLY_HEADER}\n2026-04-10 10:00:00 UTC,1500,GBP,5,TAO,,,,,,buy,\n`, 'records'),
    ]);
    const combined = combineOwnRecords({ transactions: chain.transactions, flags: [] }, customer);
    // 4 in the pool at £1,000 plus the 4 of the 5 bought that last year's disposal left (£1,200): 8 for
    // £2,200; the sale of 2 takes £550: 6 for £1,650.
    const pool = computeGains(combined.transactions).pools.find((p) => p.asset === 'TAO')!;
    expect(`${pool.quantity.toFixed()} ${pool.cost.toFixed(2)}`).toBe('6 1650.00');
    const rows = readCsv(bittytaxCsv(exportRecords(combined.transactions, [], combined), 'Bittensor'));
    const buys = rows.filter((row) => row['Buy Asset'] === 'TAO');
    expect(buys.map((row) => `${row['Type']} ${row['Buy Quantity']}`)).toEqual([
      'Gift-Received 4',
      'Trade 5',
    ]);
  });

  it('entered pools leave out the records dated on or before the day they stand at', () => {
    const chain = readCgtCsvWithOpening(
      [
        CHAIN_HEADER,
        '2026-04-05T22:00:00.000Z,TAO,acquire,10,3000,,opening,',
        '2026-05-01T12:00:00.000Z,TAO,dispose,4,1600,,,',
      ].join('\n'),
    );
    const customer = readCustomerFiles([
      file('opening.csv', 'asset,quantity,cost_gbp\nTAO,10,1000\n', 'opening'),
      file(
        'k.csv',
        `${KOINLY_HEADER}\n2024-05-01 10:00:00 UTC,1200,GBP,12,TAO,,,,,,buy,\n2026-03-20 10:00:00 UTC,2,TAO,600,GBP,,,,,,sell,\n`,
        'records',
      ),
    ]);
    const combined = combineOwnRecords({ transactions: chain.transactions, flags: [] }, customer);
    const report = computeGains(combined.transactions);
    expect(report.disposals.map((d) => `${d.date} ${d.quantity} ${d.cost.toFixed(2)}`)).toEqual([
      '2026-05-01 4 400.00',
    ]);
    expect(
      combined.flags.some((f) => f.text.includes('2 of your record(s) dated on or before 2026-04-05')),
    ).toBe(true);
  });

  it("keeps the record's opening instant in cgt-input.csv when the coldkeys held nothing then", () => {
    const openingAt = new Date('2026-04-05T22:59:00.000Z');
    const text = cgtInputCsv(
      readCgtCsvWithOpening(
        [CHAIN_HEADER, '2026-05-20T12:00:00.000Z,TAO,acquire,10,3000,,transfer-in,5Grw'].join('\n'),
      ).transactions,
      openingAt,
    );
    const read = readCgtCsvWithOpening(text);
    expect(read.openingAt?.toISOString()).toBe(openingAt.toISOString());
    expect(read.transactions).toHaveLength(1);
    // Entered pools then stand at the opening, before a sale on the exchange in April.
    const customer = readCustomerFiles([
      file('opening.csv', 'asset,quantity,cost_gbp\nTAO,10,1500\n', 'opening'),
      file('k.csv', `${KOINLY_HEADER}\n2026-04-10 10:00:00 UTC,1,TAO,400,GBP,,,,,,sell,\n`, 'records'),
    ]);
    const combined = combineOwnRecords(
      { transactions: read.transactions, flags: [] },
      customer,
      read.openingAt ?? undefined,
    );
    const sale = computeGains(combined.transactions).disposals[0]!;
    expect(`${sale.date} ${sale.cost.toFixed(2)} ${sale.matched[0]!.rule}`).toBe('2026-04-10 150.00 s104');
  });

  it('matches a deposit an exchange rounded to 8 places, and lets its sale of the rounded amount through', () => {
    const exchange = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
    const chain = readCgtCsvWithOpening(
      [
        CHAIN_HEADER,
        '2026-05-01T10:00:00.000Z,TAO,acquire,10.123456785,3000,,opening,',
        `2026-05-02T12:00:00.000Z,TAO,dispose,10.123456785,3100,,transfer-out,${exchange}`,
      ].join('\n'),
    );
    const customer = readCustomerFiles([
      file(
        'k.csv',
        `${KOINLY_HEADER}\n2026-05-02 12:30:00 UTC,,,10.12345679,TAO,,,,,,deposit,\n2026-05-03 09:00:00 UTC,10.12345679,TAO,3200,GBP,,,,,,sell,\n`,
        'records',
      ),
    ]);
    const combined = combineOwnRecords({ transactions: chain.transactions, flags: [] }, customer);
    expect(combined.ownTransfers).toHaveLength(1);
    const sale = computeGains(combined.transactions).disposals.find((d) => d.date === '2026-05-03')!;
    expect(sale.proceeds.toFixed(2)).toBe('3200.00');
  });
});
