/**
 * Bybit's account change details, the Funding account's and the Unified Trading account's, written here
 * from the columns Bybit's Transaction Log export writes (the header line on; see the docs for the line
 * above it): the pack reads spot trades against USDT and BTC (at the day's TAO/GBP rate) with their fees,
 * deposits, withdrawals and Earn interest. BittyTax's converter reads the Funding account's deposits and
 * withdrawals the same; it has no reading of Bybit's spot trades or Earn rows to compare with. Rows not
 * understood, and other tokens, are refused at their line.
 */
import { describe, expect, it } from 'vitest';
import { locateBittyTax } from '../../../../support/bittytax.js';
import { runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import { fromConverter, fromRecords, readRecordsFile, refusalsOf } from './export-comparison.js';

const FUNDING_HEADER = 'Uid,Date & Time(UTC),Coin,QTY,Type,Account Balance,Description';
const MOVES = [
  '1234567,2025-04-30 08:00:00,TAO,3.5,Deposit,3.5,Deposit',
  '1234567,2025-05-04 12:00:00,TAO,-4,Withdrawal,0.0021,Withdrawal',
];
const FUNDING = [
  FUNDING_HEADER,
  MOVES[0],
  // Moved to the trading account and back: the buyer's own accounts.
  '1234567,2025-04-30 09:00:00,TAO,-3.5,Transfer,0,Transfer to Unified Trading Account',
  '1234567,2025-05-03 00:00:00,TAO,4,Transfer,4,Transfer from Unified Trading Account',
  '1234567,2025-05-03 00:05:00,TAO,0.0021,Earn,4.0021,Easy Earn | Flexible Interest Distribution',
  MOVES[1],
].join('\n');

const TRADING = [
  'Uid,Currency,Contract,Type,Direction,Quantity,Position,Filled Price,Funding,Fee Paid,Cash Flow,Change,Wallet Balance,Action,Time(UTC)',
  // 2 TAO bought for 640 USDT, 0.002 TAO fee.
  '1234567,TAO,TAOUSDT,TRADE,BUY,2,0,320,0,0.002,2,1.998,1.998,OPEN,2025-05-01 10:00:00',
  '1234567,USDT,TAOUSDT,TRADE,BUY,2,0,320,0,0,-640,-640,360,OPEN,2025-05-01 10:00:00',
  // 1 TAO sold for 0.0031 BTC, the fee in BTC.
  '1234567,TAO,TAOBTC,TRADE,SELL,1,0,0.0031,0,0,-1,-1,0.998,CLOSE,2025-05-02 11:30:00',
  '1234567,BTC,TAOBTC,TRADE,SELL,1,0,0.0031,0,0.0000031,0.0031,0.0030969,0.0030969,CLOSE,2025-05-02 11:30:00',
  '1234567,TAO,,TRANSFER_IN,NONE,0,0,0,0,0,3.5,3.5,3.5,NONE,2025-04-30 09:00:00',
].join('\n');

const read = readRecordsFile;
const refusal = refusalsOf;

describe('Bybit account change details', () => {
  it("are read as downloaded, under Bybit's line of the account's details", () => {
    const titled = read(`UID: 123456,Company Name: ,Country: United Kingdom\n${TRADING}`, 'bybit-uta.csv');
    expect(fromRecords(titled.records)).toEqual(fromRecords(read(TRADING, 'bybit-uta.csv').records));
    // Bybit writes `--` where a cell has no value (a transfer's contract, a spot trade's position).
    const dashed = TRADING.replace(',TAO,,TRANSFER_IN,', ',TAO,--,TRANSFER_IN,').replaceAll(
      ',BUY,2,0,',
      ',BUY,2,--,',
    );
    expect(dashed).not.toBe(TRADING);
    expect(fromRecords(read(dashed, 'bybit-uta.csv').records)).toEqual(
      fromRecords(read(TRADING, 'bybit-uta.csv').records),
    );
  });

  it('are recognised by their headers and read: spot trades, fees, deposits, withdrawals, earn interest', () => {
    const trading = read(TRADING, 'bybit-uta.csv');
    expect(trading.files[0]!.format).toBe('bybit');
    expect(fromRecords(trading.records)).toEqual([
      {
        at: '2025-05-01T10:00:00',
        kind: 'buy',
        asset: 'TAO',
        quantity: '2',
        gbp: '640',
        fee: '0.002 TAO',
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
    ]);
    for (const record of trading.records) expect(record.valueAtDayRate).toBe(true);
    expect(trading.records[0]!.fee!.gbp.toFixed()).toBe('0');

    const funding = read(FUNDING, 'bybit-funding.csv');
    expect(funding.files[0]!.format).toBe('bybit');
    expect(fromRecords(funding.records)).toEqual([
      { at: '2025-04-30T08:00:00', kind: 'deposit', asset: 'TAO', quantity: '3.5', gbp: '', fee: '' },
      { at: '2025-05-03T00:05:00', kind: 'income', asset: 'TAO', quantity: '0.0021', gbp: '', fee: '' },
      { at: '2025-05-04T12:00:00', kind: 'withdrawal', asset: 'TAO', quantity: '4', gbp: '', fee: '' },
    ]);
    const income = funding.records.find((r) => r.kind === 'income')!;
    expect(income.valueAtDayRate).toBe(true);
    expect(income.gbp!.toFixed()).toBe('0');
    expect(funding.records.find((r) => r.kind === 'deposit')!.valueAtDayRate).toBeUndefined();
  });

  it('refuse, at their line and column, what they do not read (another token is read: its own pool)', () => {
    const more = [
      TRADING,
      '1234567,ETH,ETHUSDT,TRADE,BUY,0.1,0,3000,0,0.0001,0.1,0.0999,0.0999,OPEN,2025-05-03 09:00:00',
      '1234567,USDT,ETHUSDT,TRADE,BUY,0.1,0,3000,0,0,-300,-300,60,OPEN,2025-05-03 09:00:00',
      '1234567,USDT,TAOUSDT,SETTLEMENT,BUY,1,1,320,0.01,0,0,0.01,60.01,SETTLEMENT,2025-05-03 16:00:00',
    ].join('\n');
    expect(refusal(more, 'bybit-uta.csv')).toEqual([
      expect.stringMatching(/^line 9, Type: "SETTLEMENT" is not read: /),
    ]);
    const funding = `${FUNDING}\n1234567,2025-05-05 08:00:00,USDT,500,Deposit,500,Deposit\n1234567,2025-05-05 09:00:00,TAO,0.1,Airdrop,0.1021,Airdrop`;
    expect(refusal(funding, 'bybit-funding.csv')).toEqual([
      expect.stringMatching(/^line 8, Type: "Airdrop" is not read: /),
    ]);
  });
});

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax's converter makes the same deposits and withdrawals of the funding account's file${SKIPPED}`,
  async () => {
    // The converter knows the funding account's file in its form without `Uid`, and no Earn rows.
    const file = [
      'Date & Time(UTC),Coin,QTY,Type,Account Balance,Description',
      ...MOVES.map((m) => m.replace(/^1234567,/, '')),
    ].join('\n');
    const converted = await runBittyTaxConv(file, 'bybit-funding.csv', bittytax);
    expect(converted.parser).toBe('Bybit Deposits/Withdrawals');
    expect(fromConverter(converted.records)).toEqual(fromRecords(read(file, 'bybit-funding.csv').records));
  },
);
