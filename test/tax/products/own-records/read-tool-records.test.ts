import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  CustomerInputsRejected,
  type InputProblem,
  type OwnRecord,
  type UploadedFile,
} from '../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { bittytaxCsv } from '../../../../pipeline/tax/products/pack/exports/bittytax-csv.js';
import type { ExportRecord } from '../../../../pipeline/tax/products/pack/exports/export-records.js';
import { koinlyCsv } from '../../../../pipeline/tax/products/pack/exports/koinly-csv.js';

const file = (name: string, text: string): UploadedFile => ({
  name,
  bytes: new Uint8Array(Buffer.from(text, 'utf8')),
  role: 'records',
});

function problems(name: string, text: string): InputProblem[] {
  try {
    readCustomerFiles([file(name, text)]);
  } catch (error) {
    if (error instanceof CustomerInputsRejected) return error.problems;
    throw error;
  }
  throw new Error('the upload was accepted');
}

/** A record as a line of text, so a list compares at a glance. */
function shown(r: OwnRecord): string {
  const fee = r.fee ? ` fee ${r.fee.quantity.toFixed()} ${r.fee.asset} £${r.fee.gbp.toFixed()}` : '';
  const wallet = r.wallet === null ? '' : ` @${r.wallet}`;
  return `${r.line} ${r.at.toISOString()} ${r.kind} ${r.quantity.toFixed()} ${r.asset} ${r.gbp === null ? '-' : `£${r.gbp.toFixed()}`}${fee}${wallet}`;
}

const read = (name: string, text: string) => readCustomerFiles([file(name, text)]);

const d = (v: string) => new Decimal(v);
const at = (iso: string) => new Date(iso);
/** The pack's own records of a few kinds, as its exports are built from them. */
const PACK_RECORDS: ExportRecord[] = [
  {
    kind: 'trade',
    at: at('2025-06-01T10:00:00Z'),
    sell: { asset: 'TAO', quantity: d('5'), gbp: d('1500') },
    buy: { asset: 'alpha:12:0', quantity: d('100.123456789'), gbp: d('1500') },
    ref: 'event 123/4',
    note: 'stake, TAO for alpha',
  },
  {
    kind: 'staking-income',
    at: at('2025-06-02T22:59:59Z'),
    buy: { asset: 'alpha:12:0', quantity: d('0.5'), gbp: d('7.123456789') },
    ref: 'income 2025-06-02',
    note: 'staking income, valued when received',
  },
  {
    kind: 'deposit',
    at: at('2025-06-03T00:00:00Z'),
    buy: { asset: 'TAO', quantity: d('10'), gbp: d('3000') },
    ref: 'event 200/1',
    note: 'received from outside the order',
  },
  {
    kind: 'withdrawal',
    at: at('2025-06-04T00:00:00Z'),
    sell: { asset: 'TAO', quantity: d('1'), gbp: d('300') },
    ref: 'event 201/1',
    note: 'sent outside the order',
  },
  {
    kind: 'acquired-at-market-value',
    at: at('2025-04-06T00:00:00Z'),
    buy: { asset: 'alpha:3:4567', quantity: d('2'), gbp: d('20') },
    ref: 'opening 2025-04-06',
    note: 'held when the record opens: at market value',
  },
  {
    kind: 'disposed',
    at: at('2025-06-05T00:00:00Z'),
    sell: { asset: 'alpha:12:0', quantity: d('3'), gbp: d('0') },
    ref: 'event 300/2',
    note: 'gone for nothing: a disposal for £0',
  },
  {
    kind: 'disposed',
    at: at('2025-06-06T00:00:00Z'),
    sell: { asset: 'TAO', quantity: d('0.1'), gbp: d('30') },
    ref: 'event 301/2',
    note: 'disposal at its value',
  },
];

describe('Koinly universal records', () => {
  it("reads back the pack's own koinly.csv", () => {
    const inputs = read('koinly.csv', koinlyCsv(PACK_RECORDS));
    expect(inputs.files[0]).toMatchObject({ format: 'koinly', rows: 7 });
    expect(inputs.records.map(shown)).toEqual([
      '2 2025-06-01T10:00:00.000Z sell 5 TAO £1500',
      '2 2025-06-01T10:00:00.000Z buy 100.123456789 SN12-ALPHA £1500',
      '3 2025-06-02T22:59:59.000Z income 0.5 SN12-ALPHA £7.12345679',
      '4 2025-06-03T00:00:00.000Z deposit 10 TAO £3000',
      '5 2025-06-04T00:00:00.000Z withdrawal 1 TAO £300',
      '6 2025-04-06T00:00:00.000Z buy 2 SN3-ALPHA-R4567 £20',
      '7 2025-06-05T00:00:00.000Z sell 3 SN12-ALPHA £0',
      '8 2025-06-06T00:00:00.000Z fee 0.1 TAO £30',
    ]);
  });

  it('reads trades against pounds and other money, labels, and fees in pounds or in a leg of the row', () => {
    const text = [
      'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
      '2025-06-01 12:00:00 UTC,3000,GBP,10,TAO,4.5,GBP,,,,bought on Kraken,',
      '2025-06-02T12:00:00Z,2,TAO,700,USD,0.01,TAO,560,GBP,,sold for dollars,0xabc',
      '2025-06-03T12:00:00+01:00,,,0.25,TAO,,,75,GBP,Staking,Kraken staking,',
      '2025-06-04 12:00:00 UTC,1,TAO,,,0.002,TAO,300,GBP,,to my coldkey,',
      '2025-06-05 12:00:00 UTC,0.5,TAO,,,,,150,GBP,gift,to a friend,',
      '2025-06-06 12:00:00 UTC,2,SN12-ALPHA,0.01,TAO,0.02,sn12-alpha,3,GBP,swap,,',
    ].join('\n');
    expect(read('kraken.csv', text).records.map(shown)).toEqual([
      '2 2025-06-01T12:00:00.000Z buy 10 TAO £3000 fee 4.5 GBP £4.5',
      '3 2025-06-02T12:00:00.000Z sell 2 TAO £560 fee 0.01 TAO £2.8',
      '4 2025-06-03T11:00:00.000Z income 0.25 TAO £75',
      '5 2025-06-04T12:00:00.000Z withdrawal 1 TAO £300 fee 0.002 TAO £0.6',
      '6 2025-06-05T12:00:00.000Z sell 0.5 TAO £150',
      // A trade of two tokens: £3 is the worth of the 2 alpha sent (the fee apart), £1.50 an alpha.
      '7 2025-06-06T12:00:00.000Z sell 2 SN12-ALPHA £3 fee 0.02 SN12-ALPHA £0.03',
      '7 2025-06-06T12:00:00.000Z buy 0.01 TAO £3',
    ]);
  });

  it('names the line, column and reason of each row it cannot read', () => {
    const text = [
      'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
      '2025-06-01 12:00:00 UTC,1,BTC.B,10,TAO,,,,,,,',
      '01/06/2025 12:00,3000,GBP,10,TAO,,,,,,x,',
      '2025-06-03 12:00:00 UTC,3000,GBP,10,TAO,0.1,SN5-ALPHA,,,,,',
      '2025-06-04 12:00:00 UTC,3000,GBP,10,TAO,1,BNB.X,,,,,',
      '2025-06-05 12:00:00 UTC,2,TAO,700,USD,,,700,USD,,,',
      '2025-06-06 12:00:00 UTC,,,1000,GBP,,,,,reward,,',
      '2025-06-07 12:00:00 UTC,2,TAO,1,SN12-ALPHA,,,,,,,',
      '2025-06-08 12:00:00 UTC,,,1,TAO,,,,,staking,,',
      '2025-06-09 12:00:00 UTC,1,TAO,,,,,300,GBP,donation,,',
      '2025-06-10 12:00:00 UTC,1,TAO,,,0.1,TAO,,,,,',
    ].join('\n');
    expect(problems('koinly.csv', text)).toEqual([
      {
        file: 'koinly.csv',
        line: 2,
        column: 'Sent Currency',
        reason:
          'unknown asset "BTC.B": neither a token (TAO, SN12-ALPHA, or another token by its code: USDT, BTC) nor a currency; keep only the rows of tokens and money',
      },
      {
        file: 'koinly.csv',
        line: 4,
        column: 'Fee Currency',
        reason: "fee in SN5-ALPHA has no GBP value: give the fee in GBP, or the row's value of SN5-ALPHA",
      },
      {
        file: 'koinly.csv',
        line: 5,
        column: 'Fee Currency',
        reason:
          'unknown asset "BNB.X": neither a token (TAO, SN12-ALPHA, or another token by its code: USDT, BTC) nor a currency; keep only the rows of tokens and money',
      },
      {
        file: 'koinly.csv',
        line: 6,
        column: 'Net Worth Currency',
        reason: 'is USD: the pack reads values in GBP only',
      },
      {
        file: 'koinly.csv',
        line: 7,
        column: 'Received Currency',
        reason:
          'GBP is read only as the money side of a trade of TAO or alpha: keep only the rows of TAO and alpha',
      },
      {
        file: 'koinly.csv',
        line: 8,
        column: 'Net Worth Amount',
        reason:
          'is empty: a trade of two tokens needs its value in GBP (the pack looks up no prices for your records)',
      },
      {
        file: 'koinly.csv',
        line: 9,
        column: 'Net Worth Amount',
        reason: 'is empty: income needs its value in GBP (the pack looks up no prices for your records)',
      },
      {
        file: 'koinly.csv',
        line: 10,
        column: 'Label',
        reason:
          'donation is not read: a gift to a charity is at no gain and no loss; give it in the plain format as a sell at its cost, or leave the row out and tell your accountant',
      },
      {
        file: 'koinly.csv',
        line: 11,
        column: 'Fee Currency',
        reason: "fee in TAO has no GBP value: give the fee in GBP, or the row's value of TAO",
      },
    ]);
  });

  it('refuses a formula in its Description, though the column is not kept', () => {
    const text =
      'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Net Worth Amount,Net Worth Currency,Label,Description\n' +
      '2025-06-01 12:00:00 UTC,3000,GBP,10,TAO,,,,=HYPERLINK("http://x.example")\n';
    expect(problems('k.csv', text)).toEqual([
      {
        file: 'k.csv',
        line: 2,
        column: 'Description',
        reason: 'starts with "=": a spreadsheet would run it as a formula; remove that character',
      },
    ]);
  });
});

describe('BittyTax records', () => {
  it("reads back the pack's own bittytax.csv", () => {
    const inputs = read('bittytax.csv', bittytaxCsv(PACK_RECORDS, '5GrwvaEF coldkey'));
    expect(inputs.files[0]).toMatchObject({ format: 'bittytax', rows: 7 });
    expect(inputs.records.map(shown)).toEqual([
      '2 2025-06-01T10:00:00.000Z buy 100.123456789 SN12-ALPHA £1500 @5GrwvaEF coldkey',
      '2 2025-06-01T10:00:00.000Z sell 5 TAO £1500 @5GrwvaEF coldkey',
      '3 2025-06-02T22:59:59.000Z income 0.5 SN12-ALPHA £7.12345679 @5GrwvaEF coldkey',
      '4 2025-06-03T00:00:00.000Z deposit 10 TAO - @5GrwvaEF coldkey',
      '5 2025-06-04T00:00:00.000Z withdrawal 1 TAO - @5GrwvaEF coldkey',
      '6 2025-04-06T00:00:00.000Z buy 2 SN3-ALPHA-R4567 £20 @5GrwvaEF coldkey',
      '7 2025-06-05T00:00:00.000Z sell 3 SN12-ALPHA £0 @5GrwvaEF coldkey',
      '8 2025-06-06T00:00:00.000Z sell 0.1 TAO £30 @5GrwvaEF coldkey',
    ]);
  });

  it('reads trades against pounds, offsets, fee values and Lost', () => {
    const text = [
      'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note',
      'Trade,10,TAO,,3000,GBP,,5,GBP,,Kraken,2025-06-01T12:00:00.000 UTC,',
      'Trade,2500,GBP,,10,TAO,,0.01,TAO,2.5,Kraken,2025-06-02T12:00:00+01:00,sold',
      'Trade,100,SN12-ALPHA,,5,TAO,1500,0.5,SN12-ALPHA,,Bittensor,2025-06-03T12:00:00Z,',
      'Lost,,,,1,TAO,300,,,,Ledger,2025-06-04T12:00:00.000 UTC,',
      'Staking,0.1,TAO,30,,,,,,,Kraken,2025-06-05T12:00:00.000 UTC,',
    ].join('\n');
    expect(read('bt.csv', text).records.map(shown)).toEqual([
      '2 2025-06-01T12:00:00.000Z buy 10 TAO £3000 fee 5 GBP £5 @Kraken',
      '3 2025-06-02T11:00:00.000Z sell 10 TAO £2500 fee 0.01 TAO £2.5 @Kraken',
      '4 2025-06-03T12:00:00.000Z buy 100 SN12-ALPHA £1500 fee 0.5 SN12-ALPHA £7.5 @Bittensor',
      '4 2025-06-03T12:00:00.000Z sell 5 TAO £1500 @Bittensor',
      '5 2025-06-04T12:00:00.000Z sell 1 TAO £300 @Ledger',
      '6 2025-06-05T12:00:00.000Z income 0.1 TAO £30 @Kraken',
    ]);
  });

  it('names the line, column and reason of each row it cannot read', () => {
    const text = [
      'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note',
      'Charity-Sent,,,,1,TAO,300,,,,Kraken,2025-06-01T12:00:00.000 UTC,',
      'Trade,1,ETH.2,,10,TAO,,,,,Kraken,2025-06-02T12:00:00.000 UTC,',
      'Staking,0.1,TAO,,,,,,,,Kraken,2025-06-03T12:00:00.000 UTC,',
      'Deposit,1,TAO,,,,,,,,Kraken,yesterday,',
      'Withdrawal,1,TAO,,1,TAO,,,,,Kraken,2025-06-05T12:00:00.000 UTC,',
      'Spend,,,,1,TAO,300,,,,<b>Kraken</b>,2025-06-06T12:00:00.000 UTC,',
    ].join('\n');
    expect(problems('bt.csv', text)).toEqual([
      {
        file: 'bt.csv',
        line: 7,
        column: 'Wallet',
        reason: 'holds "<": markup characters are not accepted in a cell',
      },
    ]);
    const safe = text.replace('<b>Kraken</b>', 'Kraken');
    expect(problems('bt.csv', safe)).toEqual([
      {
        file: 'bt.csv',
        line: 2,
        column: 'Type',
        reason:
          'Charity-Sent is not read: a gift to a charity is at no gain and no loss, which a record cannot say: leave the row out and tell your accountant',
      },
      {
        file: 'bt.csv',
        line: 3,
        column: 'Buy Asset',
        reason:
          'unknown asset "ETH.2": neither a token (TAO, SN12-ALPHA, or another token by its code: USDT, BTC) nor a currency; keep only the rows of tokens and money',
      },
      {
        file: 'bt.csv',
        line: 4,
        column: 'Buy Value in GBP',
        reason:
          'is empty: a Staking needs its value in pounds (BittyTax would look a price up; the pack looks up none for your records)',
      },
      {
        file: 'bt.csv',
        line: 5,
        column: 'Timestamp',
        reason:
          '"yesterday" is not a date and time read here: write it as 2025-06-01 12:00:00 (UTC) or ISO 8601 with Z or an offset',
      },
      {
        file: 'bt.csv',
        line: 6,
        column: 'Buy Quantity',
        reason: 'is given but a Withdrawal has no Buy side: leave it empty',
      },
    ]);
  });
});
