/**
 * MEXC's Trade History, Deposit History and Withdrawal History exports, written here from the columns
 * BittyTax's converter recognises for them: the pack reads fills against USDT and BTC (at the day's TAO/GBP
 * rate), deposits and withdrawals with their fee, and BittyTax's converter (run unchanged) makes the same
 * trades, deposits, withdrawals and fees of the same files. MEXC's earn rewards are in none of its exports
 * (the pack says to give them in a plain-format file). Rows not understood, and other tokens, are refused.
 */
import { describe, expect, it } from 'vitest';
import { locateBittyTax } from '../../../../support/bittytax.js';
import { runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import { fromConverter, fromRecords, readRecordsFile, refusalsOf } from './export-comparison.js';

const TRADES = [
  'UID,Pairs,Time,Side,Filled Price,Executed Amount,Total,Fee,Role',
  // 2 TAO bought for 640 USDT, 0.64 USDT fee; 1 TAO sold for 0.0031 BTC.
  '81234567,TAO_USDT,2025-05-01 10:00:00,Buy,320,2,640,0.64USDT,Taker',
  '81234567,TAO_BTC,2025-05-02 11:30:00,Sell,0.0031,1,0.0031,0.0000031BTC,Maker',
  // 0.5 TAO bought in a second fill of the same second at another price.
  '81234567,TAOUSDT,2025-05-02 11:30:00,Buy,321,0.5,160.5,0.1605USDT,Taker',
].join('\n');

const DEPOSITS = [
  'UID,Status,Time,Crypto,Network,Deposit Amount,TxID,Progress',
  '81234567,Credited Successfully,2025-04-30 08:00:00,TAO,Bittensor(TAO),3.5,0xdeposit1,12/12',
  '81234567,Failed,2025-04-30 08:30:00,TAO,Bittensor(TAO),1,0xdeposit2,0/12',
].join('\n');

const WITHDRAWALS = [
  'UID,Status,Time,Crypto,Network,Request Amount,Withdrawal Address,memo,TxID,Trading Fee,Settlement Amount,Withdrawal Descriptions',
  '81234567,Withdrawal Successful,2025-05-04 12:00:00,TAO,Bittensor(TAO),4.001,5F3sa2TJAWMqDhXG6jhV4N8ko9SxwGy8TpaNS1repo5EYjQX,,0xwithdraw1,0.001,4,',
].join('\n');

const read = readRecordsFile;
const refusal = refusalsOf;

describe('MEXC exports', () => {
  it('keep two identical fills (the trade history has no fill id) and list them as a point to check', () => {
    const fill = '81234567,TAO_USDT,2025-05-03 09:00:00,Buy,320,0.25,80,0.08USDT,Taker';
    const read2 = read(`${TRADES}\n${fill}\n${fill}`, 'mexc-trades.csv');
    expect(
      read2.records.filter((r) => r.line === 5 || r.line === 6).map((r) => r.quantity.toFixed()),
    ).toEqual(['0.25', '0.25']);
    expect(read2.notes).toContainEqual(
      expect.objectContaining({
        file: 'mexc-trades.csv',
        line: 6,
        text: expect.stringMatching(/^the same row as line 5, kept/),
      }),
    );
  });

  it('are recognised by their headers and read: fills against USDT and BTC, deposits, withdrawals and fees', () => {
    const trades = read(TRADES, 'mexc-trades.csv');
    expect(trades.files[0]!.format).toBe('mexc');
    expect(fromRecords(trades.records)).toEqual([
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
        kind: 'buy',
        asset: 'TAO',
        quantity: '0.5',
        gbp: '160.5',
        fee: '0.1605 USDT',
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
    for (const record of trades.records) expect(record.valueAtDayRate).toBe(true);

    const deposits = read(DEPOSITS, 'mexc-deposits.csv');
    // The failed deposit moved nothing.
    expect(fromRecords(deposits.records)).toEqual([
      { at: '2025-04-30T08:00:00', kind: 'deposit', asset: 'TAO', quantity: '3.5', gbp: '', fee: '' },
    ]);
    expect(deposits.records[0]!.valueAtDayRate).toBeUndefined();

    const withdrawals = read(WITHDRAWALS, 'mexc-withdrawals.csv');
    // What reached the chain (the settlement), its fee in TAO valued at the day's rate.
    expect(fromRecords(withdrawals.records)).toEqual([
      {
        at: '2025-05-04T12:00:00',
        kind: 'withdrawal',
        asset: 'TAO',
        quantity: '4',
        gbp: '',
        fee: '0.001 TAO',
      },
    ]);
    expect(withdrawals.records[0]!.valueAtDayRate).toBe(true);
    expect(withdrawals.records[0]!.fee!.gbp.toFixed()).toBe('0');
  });

  it('refuse, at their line and column, what they do not read (another token is read: its own pool)', () => {
    const more = [
      TRADES,
      '81234567,BTC_USDT,2025-05-03 09:00:00,Buy,95000,0.01,950,0.95USDT,Taker',
      '81234567,TAO_USDT,2025-05-03 09:10:00,BORROW,320,1,320,0.32USDT,Taker',
    ].join('\n');
    expect(refusal(more, 'mexc-trades.csv')).toEqual([
      expect.stringMatching(/^line 6, Side: "BORROW" is not read/),
    ]);
    const pending = `${DEPOSITS}\n81234567,Pending,2025-05-05 08:00:00,TAO,Bittensor(TAO),2,0xdeposit3,3/12`;
    expect(refusal(pending, 'mexc-deposits.csv')).toEqual([
      expect.stringMatching(/^line 4, Status: "Pending": only a completed deposit is read/),
    ]);
    const orders = [
      'UID,Pairs,Time,Type,Direction,Average Filled Price,Order Price,Filled Quantity,Order Quantity,Order Amount,Status',
      '81234567,TAO_USDT,2025-05-01 10:00:00,Limit,Buy,320,320,2,2,640,Filled',
    ].join('\n');
    expect(refusal(orders, 'mexc-orders.csv')).toEqual([
      expect.stringMatching(/^line 1, null: this is MEXC's Order History, .*download the Trade History/),
    ]);
  });
});

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax's converter makes the same trades, deposits, withdrawals and fees of the same files${SKIPPED}`,
  async () => {
    const trades = await runBittyTaxConv(TRADES, 'mexc-trades.csv', bittytax);
    expect(trades.parser).toBe('MEXC Trades');
    expect(fromConverter(trades.records, ['GBP'], ['USDT', 'BTC'])).toEqual(
      fromRecords(read(TRADES, 'mexc-trades.csv').records),
    );
    const deposits = await runBittyTaxConv(DEPOSITS, 'mexc-deposits.csv', bittytax);
    expect(deposits.parser).toBe('MEXC Deposits');
    expect(fromConverter(deposits.records)).toEqual(fromRecords(read(DEPOSITS, 'mexc-deposits.csv').records));
    const withdrawals = await runBittyTaxConv(WITHDRAWALS, 'mexc-withdrawals.csv', bittytax);
    expect(withdrawals.parser).toBe('MEXC Withdrawals');
    // BittyTax takes the Request Amount as what was sent besides the fee; the pack takes the Settlement
    // Amount, what reached the chain (the request less the fee), so that it pairs with the chain's transfer.
    const [sent] = read(WITHDRAWALS, 'mexc-withdrawals.csv').records;
    const requested = sent!.quantity.plus(sent!.fee!.quantity).toFixed();
    expect(fromConverter(withdrawals.records)).toEqual(
      fromRecords([sent!]).map((m) => ({ ...m, quantity: requested })),
    );
  },
);
