/**
 * KuCoin's exports (Spot Orders_Filled Orders, Deposit and Withdrawal History, Earn Profit History), written
 * here from the columns BittyTax's converter recognises for them, with times in the account's time zone as
 * the header names it (`Time(UTC+08:00)`): the pack reads orders against USDT and BTC (at the day's TAO/GBP
 * rate), deposits, withdrawals with their fee and earn rewards, and BittyTax's converter (run unchanged)
 * makes the same trades, deposits, withdrawals, fees and rewards of the same files. Rows not understood, and
 * other tokens, are refused at their line.
 */
import { describe, expect, it } from 'vitest';
import { locateBittyTax } from '../../../../support/bittytax.js';
import { runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import {
  fromConverter,
  fromRecords,
  type Movement,
  readRecordsFile,
  refusalsOf,
} from './export-comparison.js';

const ORDERS = [
  'UID,Account Type,Order ID,Order Time(UTC+08:00),Symbol,Side,Order Type,Order Price,Order Amount,Avg. Filled Price,Filled Amount,Filled Volume,Filled Volume (USDT),Filled Time(UTC+08:00),Fee,Fee Currency,Tax,Status',
  // 2 TAO bought for 640 USDT at 18:00 in UTC+08:00 (10:00 UTC), the fee in USDT.
  '12345678,mainAccount,6650a1,2025-05-01 18:00:00,TAO-USDT,BUY,market,,,320,2,640,640,2025-05-01 18:00:00,0.64,USDT,0,deal',
  // 1 TAO sold for 0.0031 BTC, the fee in BTC.
  '12345678,mainAccount,6650a2,2025-05-02 19:30:00,TAO-BTC,SELL,limit,0.0031,1,0.0031,1,0.0031,320,2025-05-02 19:30:00,0.0000031,BTC,0,deal',
  // A limit order filled in part, the rest cancelled: the 0.5 TAO filled was bought.
  '12345678,mainAccount,6650a5,2025-05-03 17:10:00,TAO-USDT,BUY,limit,300,2,300,0.5,150,150,2025-05-03 17:10:00,0.15,USDT,0,cancel',
].join('\n');

const DEPOSITS = [
  'UID,Account Type,Time(UTC+08:00),Coin,Amount,Fee,Hash,Deposit Address,Transfer Network,Status,Remarks',
  '12345678,mainAccount,2025-04-30 16:00:00,TAO,3.5,0,0xdeposit1,5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV,TAO,SUCCESS,',
].join('\n');

const WITHDRAWALS = [
  'UID,Account Type,Time(UTC+08:00),Coin,Amount,Fee,Hash,Withdrawal Address/Account,Transfer Network,Status,Remarks',
  '12345678,mainAccount,2025-05-04 20:00:00,TAO,4,0.01,0xwithdraw1,5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX,TAO,SUCCESS,',
].join('\n');

const EARN = [
  'UID,Account Type,Order ID,Time(UTC+08:00),Staked Coin,Product Type,Product Name,Earnings Coin,Earnings Type,Remarks,Amount,Amount（USDT）,Fee',
  // 07:05 on 3 May in UTC+08:00 is 23:05 on 2 May UTC, 00:05 on 3 May in London: the UK day is the 3rd.
  '12345678,mainAccount,E100,2025-05-03 07:05:00,TAO,Staking,TAO Staking,TAO,Staking Rewards,,0.0021,0.67,0',
].join('\n');

const read = readRecordsFile;
const refusal = refusalsOf;

/**
 * BittyTax's converter hands `2025-05-01 18:00:00 UTC+08:00` to dateutil, which reads `UTC+08:00` as a POSIX
 * zone name, 8 hours behind UTC rather than ahead: its instants are 16 hours after the pack's (and KuCoin's
 * own header, which means UTC+8 as ISO 8601 does). Its times are brought back by those 16 hours to compare.
 */
const POSIX_SHIFT_MS = 16 * 3_600_000;
const posixRead = (ms: Movement[]) =>
  ms.map((m) => ({ ...m, at: new Date(Date.parse(`${m.at}Z`) - POSIX_SHIFT_MS).toISOString().slice(0, 19) }));

describe('KuCoin exports', () => {
  it('are recognised by their headers and read in the clock the header names', () => {
    const orders = read(ORDERS, 'kucoin-spot-orders.csv');
    expect(orders.files[0]!.format).toBe('kucoin');
    expect(fromRecords(orders.records)).toEqual([
      {
        at: '2025-05-01T10:00:00',
        kind: 'buy',
        asset: 'TAO',
        quantity: '2',
        gbp: '640',
        fee: '0.64 USDT',
        against: 'USDT',
      },
      {
        at: '2025-05-02T11:30:00',
        kind: 'sell',
        asset: 'TAO',
        quantity: '1',
        gbp: '0.0031',
        against: 'BTC',
        fee: '0.0000031 BTC',
      },
      {
        at: '2025-05-03T09:10:00',
        kind: 'buy',
        asset: 'TAO',
        quantity: '0.5',
        gbp: '150',
        fee: '0.15 USDT',
        against: 'USDT',
      },
    ]);
    for (const record of orders.records) expect(record.valueAtDayRate).toBe(true);

    const moves = [read(DEPOSITS, 'kucoin-deposits.csv'), read(WITHDRAWALS, 'kucoin-withdrawals.csv')];
    expect(moves.flatMap((m) => fromRecords(m.records))).toEqual([
      { at: '2025-04-30T08:00:00', kind: 'deposit', asset: 'TAO', quantity: '3.5', gbp: '', fee: '' },
      {
        at: '2025-05-04T12:00:00',
        kind: 'withdrawal',
        asset: 'TAO',
        quantity: '4',
        gbp: '',
        fee: '0.01 TAO',
      },
    ]);
    expect(moves[0]!.records[0]!.valueAtDayRate).toBeUndefined();
    expect(moves[1]!.records[0]!.valueAtDayRate).toBe(true);

    const earn = read(EARN, 'kucoin-earn.csv');
    expect(fromRecords(earn.records)).toEqual([
      { at: '2025-05-02T23:05:00', kind: 'income', asset: 'TAO', quantity: '0.0021', gbp: '', fee: '' },
    ]);
    expect(earn.records[0]).toMatchObject({ kind: 'income', valueAtDayRate: true });
    expect(earn.records[0]!.gbp!.toFixed()).toBe('0');
  });

  it('refuse, at their line and column, what they do not read (another token is read: its own pool)', () => {
    const more = [
      ORDERS,
      '12345678,mainAccount,6650a3,2025-05-03 09:00:00,ETH-USDT,BUY,market,,,3000,0.1,300,300,2025-05-03 09:00:00,0.3,USDT,0,deal',
      '12345678,mainAccount,6650a4,2025-05-03 09:10:00,TAO-USDT,BORROW,market,,,320,1,320,320,2025-05-03 09:10:00,0.32,USDT,0,deal',
    ].join('\n');
    expect(refusal(more, 'kucoin-spot-orders.csv')).toEqual([
      expect.stringMatching(/^line 6, Side: "BORROW" is not read/),
    ]);
    const processing = `${WITHDRAWALS}\n12345678,mainAccount,2025-05-05 20:00:00,TAO,1,0.01,,5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX,TAO,PROCESSING,`;
    expect(refusal(processing, 'kucoin-withdrawals.csv')).toEqual([
      expect.stringMatching(/^line 3, Status: "PROCESSING": only a completed withdrawal is read/),
    ]);
    const history = [
      'UID,Account Type,Currency,Side,Amount,Fee,Time(UTC+08:00),Remark,Type',
      '12345678,mainAccount,TAO,Deposit,2,0,2025-05-01 18:00:00,,Spot Trading',
    ].join('\n');
    expect(refusal(history, 'kucoin-account-history.csv')).toEqual([
      expect.stringMatching(
        /^line 1, null: this is KuCoin's Account History, .*Spot Orders \(Filled Orders\)/,
      ),
    ]);
  });
});

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax's converter makes the same trades, deposits, withdrawals, fees and rewards of the same files${SKIPPED}`,
  async () => {
    const files: Array<[string, string, string]> = [
      [ORDERS, 'kucoin-spot-orders.csv', 'KuCoin Trades'],
      [DEPOSITS, 'kucoin-deposits.csv', 'KuCoin Deposits'],
      [WITHDRAWALS, 'kucoin-withdrawals.csv', 'KuCoin Withdrawals'],
      [EARN, 'kucoin-earn.csv', 'KuCoin Staking'],
    ];
    for (const [text, name, parser] of files) {
      const converted = await runBittyTaxConv(text, name, bittytax);
      expect(converted.parser).toBe(parser);
      expect(posixRead(fromConverter(converted.records, ['GBP'], ['USDT', 'BTC']))).toEqual(
        fromRecords(read(text, name).records),
      );
    }
  },
);
