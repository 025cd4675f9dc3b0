/**
 * Binance's transaction history, as a person downloads it (Wallet → Transaction History → Export), written
 * here from the columns Binance documents for it (`User_ID,UTC_Time,Account,Operation,Coin,Change,Remark`):
 * the pack reads its trades (against USDT, BTC and GBP), deposits, withdrawals, fees and Simple Earn rewards,
 * and BittyTax's converter (run unchanged, told the statement is the whole record) makes the same trades,
 * deposits, withdrawals and fees of the same file. Rows the reader does not understand are refused at their
 * line and column; the TAO of a trade against USDT and a reward take the TAO/GBP rate of their UK day.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { locateBittyTax } from '../../../../support/bittytax.js';
import { runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import { reportWithFiles } from '../run-cgt-with-files.js';
import { fromConverter, fromRecords, readRecordsFile, refusalsOf } from './export-comparison.js';

const HEADER = 'User_ID,UTC_Time,Account,Operation,Coin,Change,Remark';
const USER = '81234567';
const row = (time: string, account: string, operation: string, coin: string, change: string) =>
  [USER, time, account, operation, coin, change, ''].join(',');

const HISTORY = [
  HEADER,
  // 2 TAO bought for 640 USDT, the fee taken in TAO.
  row('2025-05-01 10:00:00', 'Spot', 'Transaction Buy', 'TAO', '2.00000000'),
  row('2025-05-01 10:00:00', 'Spot', 'Transaction Spend', 'USDT', '-640.00000000'),
  row('2025-05-01 10:00:00', 'Spot', 'Transaction Fee', 'TAO', '-0.00200000'),
  // 1.5 TAO withdrawn to a coldkey.
  row('2025-05-01 12:00:00', 'Spot', 'Withdraw', 'TAO', '-1.50000000'),
  // Into Simple Earn (a move between Binance's wallets), and its interest.
  row('2025-05-02 08:00:00', 'Spot', 'Simple Earn Flexible Subscription', 'TAO', '-0.40000000'),
  row('2025-05-03 01:00:00', 'Earn', 'Simple Earn Flexible Interest', 'TAO', '0.00120000'),
  // 1 TAO deposited, sold for 350 USDT with the fee in USDT; 0.5 TAO sold for BTC the next day.
  row('2025-06-02 08:00:00', 'Spot', 'Deposit', 'TAO', '1.00000000'),
  row('2025-06-02 09:30:00', 'Spot', 'Transaction Sold', 'TAO', '-1.00000000'),
  row('2025-06-02 09:30:00', 'Spot', 'Transaction Revenue', 'USDT', '350.00000000'),
  row('2025-06-02 09:30:00', 'Spot', 'Transaction Fee', 'USDT', '-0.35000000'),
  row('2025-06-03 10:00:00', 'Spot', 'Transaction Sold', 'TAO', '-0.50000000'),
  row('2025-06-03 10:00:01', 'Spot', 'Transaction Revenue', 'BTC', '0.00250000'),
  row('2025-06-03 10:00:01', 'Spot', 'Transaction Fee', 'BTC', '-0.00000250'),
  // Pounds paid in, and 0.3 TAO bought for £99 with the fee in TAO.
  row('2025-06-10 15:00:00', 'Spot', 'Fiat Deposit', 'GBP', '100.00000000'),
  row('2025-06-10 15:05:00', 'Spot', 'Transaction Buy', 'TAO', '0.30000000'),
  row('2025-06-10 15:05:00', 'Spot', 'Transaction Spend', 'GBP', '-99.00000000'),
  row('2025-06-10 15:05:00', 'Spot', 'Transaction Fee', 'TAO', '-0.00030000'),
].join('\n');

const read = (text: string, name = 'binance-history.csv') => readRecordsFile(text, name);
const refusal = (text: string) => refusalsOf(text, 'binance-history.csv');

describe("Binance's transaction history", () => {
  it('is recognised by its header and read: trades, fees, withdrawals, deposits and rewards', () => {
    const inputs = read(HISTORY);
    expect(inputs.files[0]!.format).toBe('binance-transactions');
    expect(fromRecords(inputs.records)).toEqual([
      {
        at: '2025-05-01T10:00:00',
        kind: 'buy',
        asset: 'TAO',
        quantity: '2',
        gbp: '640',
        fee: '0.002 TAO',
        against: 'USDT',
      },
      { at: '2025-05-01T12:00:00', kind: 'withdrawal', asset: 'TAO', quantity: '1.5', gbp: '', fee: '' },
      { at: '2025-05-03T01:00:00', kind: 'income', asset: 'TAO', quantity: '0.0012', gbp: '', fee: '' },
      { at: '2025-06-02T08:00:00', kind: 'deposit', asset: 'TAO', quantity: '1', gbp: '', fee: '' },
      {
        at: '2025-06-02T09:30:00',
        kind: 'sell',
        asset: 'TAO',
        quantity: '1',
        gbp: '350',
        fee: '0.35 USDT',
        against: 'USDT',
      },
      {
        at: '2025-06-03T10:00:00',
        kind: 'sell',
        asset: 'TAO',
        quantity: '0.5',
        gbp: '0.0025',
        fee: '0.0000025 BTC',
        against: 'BTC',
      },
      { at: '2025-06-10T15:05:00', kind: 'buy', asset: 'TAO', quantity: '0.3', gbp: '99', fee: '0.0003 TAO' },
    ]);
    const byLine = new Map(inputs.records.map((r) => [r.line, r]));
    // Against pounds the file gives the value, and a fee in TAO takes the trade's own price (£330 a TAO).
    expect(byLine.get(16)!.gbp!.toFixed()).toBe('99');
    expect(byLine.get(16)!.fee!.gbp.toFixed()).toBe('0.099');
    expect(byLine.get(16)!.valueAtDayRate).toBeUndefined();
    // Against USDT or BTC, and the reward: valued at the day's rate where the records meet the prices.
    expect([2, 7, 9, 12].map((line) => byLine.get(line)!.valueAtDayRate)).toEqual([true, true, true, true]);
  });

  it('refuses, at its line and column, what it does not read', () => {
    const more = [
      ...HISTORY.split('\n'),
      row('2025-06-11 09:00:00', 'Spot', 'Deposit', 'BTC.B', '0.01000000'),
      row('2025-06-12 09:00:00', 'Cross Margin', 'Margin Loan', 'TAO', '1.00000000'),
      row('2025-06-13 09:00:00', 'Spot', 'Crypto Box', 'TAO', '0.01000000'),
      row('2025-06-14 09:00:00', 'Spot', 'Transaction Buy', 'TAO', '0.10000000'),
      row('2025-06-14 09:00:00', 'Spot', 'Transaction Spend', 'USDT', '-33.00000000'),
      row('2025-06-14 09:00:00', 'Spot', 'Transaction Fee', 'BNB', '-0.00010000'),
    ].join('\n');
    // Each problem once, at its line (listed here in line order).
    expect(refusal(more).sort()).toEqual([
      expect.stringMatching(
        /^line 19, Coin: BTC\.B is not read: it is neither a token's code nor a currency/,
      ),
      expect.stringMatching(/^line 20, Account: rows of Binance's "Cross Margin" account are not read/),
      expect.stringMatching(/^line 21, Operation: "Crypto Box" is not read: /),
      expect.stringMatching(/^line 24, Coin: the trade's fee in BNB is not read: /),
    ]);
  });

  it("takes TAO's rate of the UK day for a trade against USDT when the prices have no USDT, its fee and a reward", async () => {
    const history = [
      HEADER,
      row('2025-05-01 10:00:00', 'Spot', 'Transaction Buy', 'TAO', '2.00000000'),
      row('2025-05-01 10:00:00', 'Spot', 'Transaction Spend', 'USDT', '-640.00000000'),
      row('2025-05-01 10:00:00', 'Spot', 'Transaction Fee', 'USDT', '-0.64000000'),
      // 23:30 UTC on 3 May is 00:30 on 4 May in London: that day's rate.
      row('2025-05-03 23:30:00', 'Earn', 'Simple Earn Flexible Interest', 'TAO', '0.01000000'),
    ].join('\n');
    const prices = JSON.stringify({
      days: [
        { date: '2025-05-02', usd: null, gbp: '310.50000000', source: 'test' },
        { date: '2025-05-04', usd: null, gbp: '299.00000000', source: 'test' },
        { date: '2025-05-05', usd: null, gbp: '305.25000000', source: 'test' },
      ],
    });
    const report = await reportWithFiles({ records: { 'binance.csv': history }, prices });
    // UK day D is valued by the quote dated D + 1: 1 May by 2 May's, 4 May by 5 May's. The USDT fee is
    // worth the trade's own price of USDT, and falls half on the TAO's cost (the other half on the USDT
    // disposed of, which the file shows arriving from nowhere: taken at its market value).
    const bought = new Decimal('310.50').times(2);
    const fee = bought.times('0.64').div(640);
    const cost = bought.plus(fee.div(2)).plus(new Decimal('305.25').times('0.01'));
    expect(report.pools.map((p) => [p.asset, p.quantity, new Decimal(p.cost).toFixed(6)])).toEqual([
      ['TAO', '2.01', cost.toFixed(6)],
      ['USDT', '0', '0.000000'],
    ]);
    expect(report.points_to_check?.join('\n')).toMatch(
      /640\.64 USDT spent on 2025-05-01 that your records do not show arriving/,
    );
  });
});

it("Binance's trade and deposit histories are refused, naming the export to download", () => {
  const trades = [
    'Date(UTC),Pair,Side,Price,Executed,Amount,Fee',
    '2025-05-01 10:00:00,TAOUSDT,BUY,320,2TAO,640USDT,0.002TAO',
  ].join('\n');
  const deposits = [
    'Date(UTC+0),Coin,Network,Amount,Address,TXID,Status',
    '2025-06-02 08:00:00,TAO,TAO,1,5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY,0xabc,Completed',
  ].join('\n');
  expect([...refusal(trades), ...refusal(deposits)]).toEqual([
    expect.stringMatching(
      /^line 1, null: this is Binance's trade history, .*download the Transaction History/,
    ),
    expect.stringMatching(
      /^line 1, null: this is Binance's deposit or withdrawal history, .*Transaction History/,
    ),
  ]);
});

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax's converter makes the same trades, deposits, withdrawals and fees of the same file${SKIPPED}`,
  async () => {
    const converted = await runBittyTaxConv(
      HISTORY,
      'binance-history.csv',
      bittytax,
      'binance_statements_only: True\n',
    );
    expect(converted.parser).toBe('Binance Statements');
    expect(fromConverter(converted.records, ['GBP'], ['USDT', 'BTC'])).toEqual(
      fromRecords(read(HISTORY).records),
    );
  },
);
