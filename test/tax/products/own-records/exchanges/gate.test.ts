/**
 * Gate's account book, as a person downloads it, written here from the columns BittyTax's converter
 * recognises for it (`no,time,action_desc,action_data,type,change_amount,amount,total`): the pack reads its
 * trades against USDT and BTC (at the day's TAO/GBP rate), deposits, withdrawals and earn interest, and
 * BittyTax's converter (run unchanged) makes the same trades, deposits, withdrawals and fees of the same
 * file. Rows the reader does not understand, and rows of other tokens, are refused at their line.
 */
import { describe, expect, it } from 'vitest';
import { locateBittyTax } from '../../../../support/bittytax.js';
import { runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import { fromConverter, fromRecords, readRecordsFile, refusalsOf } from './export-comparison.js';

const HEADER = 'no,time,action_desc,action_data,type,change_amount,amount,total';

const BOOK = [
  HEADER,
  // The book starts with TAO paid in.
  '1,2025-05-01 09:00:00,Deposits,D100,TAO,3.5,3.5,3.5',
  // 2 TAO bought for 640 USDT, the fee in TAO.
  '2,2025-05-01 10:00:00,Order Filled,O200,TAO,2,5.5,5.5',
  '3,2025-05-01 10:00:00,Order Filled,O200,USDT,-640,360,360',
  '4,2025-05-01 10:00:00,Trading Fees,O200,TAO,-0.004,5.496,5.496',
  // 1 TAO sold for 0.0031 BTC, the fee in BTC.
  '5,2025-05-02 11:30:00,Order Filled,O201,TAO,-1,4.496,4.496',
  '6,2025-05-02 11:30:00,Order Filled,O201,BTC,0.0031,0.0031,0.0031',
  '7,2025-05-02 11:30:00,Trading Fees,O201,BTC,-0.0000062,0.0030938,0.0030938',
  // Interest from Gate's earn on TAO.
  '8,2025-05-03 00:05:00,HODL Interest,H300,TAO,0.0021,4.4981,4.4981',
  // 4 TAO withdrawn to a coldkey.
  '9,2025-05-04 12:00:00,Withdrawals,W400,TAO,-4,0.4981,0.4981',
].join('\n');

const read = (text: string, name = 'gate-account-book.csv') => readRecordsFile(text, name);
const refusal = (text: string) => refusalsOf(text, 'gate-account-book.csv');

describe('Gate account book', () => {
  it('is recognised by its header and read: trades against USDT and BTC, fees, deposits, withdrawals, interest', () => {
    const inputs = read(BOOK);
    expect(inputs.files[0]!.format).toBe('gate');
    expect(fromRecords(inputs.records)).toEqual([
      { at: '2025-05-01T09:00:00', kind: 'deposit', asset: 'TAO', quantity: '3.5', gbp: '', fee: '' },
      {
        at: '2025-05-01T10:00:00',
        kind: 'buy',
        asset: 'TAO',
        quantity: '2',
        gbp: '640',
        fee: '0.004 TAO',
        against: 'USDT',
      },
      {
        at: '2025-05-02T11:30:00',
        kind: 'sell',
        asset: 'TAO',
        quantity: '1',
        gbp: '0.0031',
        fee: '0.0000062 BTC',
        against: 'BTC',
      },
      { at: '2025-05-03T00:05:00', kind: 'income', asset: 'TAO', quantity: '0.0021', gbp: '', fee: '' },
      { at: '2025-05-04T12:00:00', kind: 'withdrawal', asset: 'TAO', quantity: '4', gbp: '', fee: '' },
    ]);
    // Trades and interest are valued at the day's TAO/GBP rate where the records meet the pack's prices;
    // the deposit needs no value; the withdrawal's fee is inside its amount, valued once paired.
    const byLine = new Map(inputs.records.map((r) => [r.line, r]));
    for (const line of [3, 6, 9]) {
      expect(byLine.get(line)!.valueAtDayRate).toBe(true);
      expect(byLine.get(line)!.gbp!.toFixed()).toBe('0');
    }
    expect(byLine.get(3)!.fee).toMatchObject({ asset: 'TAO' });
    expect(byLine.get(3)!.fee!.gbp.toFixed()).toBe('0');
    expect(byLine.get(2)!.valueAtDayRate).toBeUndefined();
    expect(byLine.get(10)).toMatchObject({ kind: 'withdrawal', feeInside: true, valueAtDayRate: true });
  });

  it('refuses, at their line and column, what it does not read (another token is read: its own pool)', () => {
    const more = [
      BOOK,
      '10,2025-05-05 08:00:00,Deposits,D101,USDT,500,500,500',
      '11,2025-05-05 09:00:00,Airdrop,A500,TAO,0.5,0.9981,0.9981',
      '12,2025-05-05 10:00:00,Order Filled,O202,ETH,0.1,0.1,0.1',
      '13,2025-05-05 10:00:00,Order Filled,O202,USDT,-300,200,200',
      '14,2025-05-05 11:00:00,Deposits,D102,GBP,100,100,100',
    ].join('\n');
    expect(refusal(more)).toEqual([expect.stringMatching(/^line 12, action_desc: "Airdrop" is not read: /)]);
  });
});

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax's converter makes the same trades, deposits, withdrawals and fees of the same file${SKIPPED}`,
  async () => {
    const converted = await runBittyTaxConv(BOOK, 'gate-account-book.csv', bittytax);
    expect(converted.parser).toBe('Gate.io');
    expect(fromConverter(converted.records, ['GBP'], ['USDT', 'BTC'])).toEqual(
      fromRecords(read(BOOK).records),
    );
  },
);
