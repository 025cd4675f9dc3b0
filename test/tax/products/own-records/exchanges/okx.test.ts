/**
 * OKX's funding account bills and trading account history, written here from the columns OKX writes (the
 * funding account's as BittyTax's converter recognises it; the trading account's in its current form, from
 * its header line on, with the account's time zone named in the `Time` header as the docs ask): the pack
 * reads spot trades against USDT and BTC (at the day's TAO/GBP rate) with their fees, deposits,
 * withdrawals with their fee, and staking yield. BittyTax's converter makes the same deposits, withdrawals,
 * fees and rewards of the funding account's file; it reads only an older form of the trading history
 * (which names a `Unit` column twice), so there is no reading of these trades to compare with.
 */
import { describe, expect, it } from 'vitest';
import { locateBittyTax } from '../../../../support/bittytax.js';
import { runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import { fromConverter, fromRecords, readRecordsFile, refusalsOf } from './export-comparison.js';

const FUNDING = [
  'id,Time(UTC+08:00),Type,Amount,Before Balance,After Balance,Fee,Symbol',
  '1,2025-04-30 16:00:00,Deposit,3.5,0,3.5,0,TAO',
  // To the trading account and back: the buyer's own accounts.
  '2,2025-04-30 17:00:00,To unified trading account,-3.5,3.5,0,0,TAO',
  '3,2025-05-04 08:00:00,From unified trading account,4,0,4,0,TAO',
  // 08:05 on 4 May in UTC+08:00 is 00:05 UTC, 01:05 in London.
  '4,2025-05-04 08:05:00,Staking Yield,0.0021,4,4.0021,0,TAO',
  '5,2025-05-04 20:00:00,Withdrawal,-4,4.0021,0.0011,0.001,TAO',
].join('\n');

const TRADES = [
  'id,Order id,Time(UTC+08:00),Trade Type,Symbol,Action,Amount,Trading Unit,Filled Price,PnL,Fee,Fee Unit,Position Change,Position Balance,Balance Change,Balance,Balance Unit',
  '9,499,2025-05-01 17:00:00,Transfer,,Transfer in,0,cont,0,0,0,USDT,0,0,1000,1000,USDT',
  // 2 TAO bought for 640 USDT, 0.002 TAO fee (the TAO's balance change is after it).
  '11,500,2025-05-01 18:00:00,Spot,TAO-USDT,Buy,2,TAO,320,0,-0.002,TAO,0,0,1.998,1.998,TAO',
  '10,500,2025-05-01 18:00:00,Spot,TAO-USDT,Sell,640,TAO,320,0,0,USDT,0,0,-640,360,USDT',
  // 1 TAO sold for 0.0031 BTC, the fee in BTC.
  '13,501,2025-05-02 19:30:00,Spot,TAO-BTC,Buy,0.0031,TAO,0.0031,0,-0.0000031,BTC,0,0,0.0030969,0.0030969,BTC',
  '12,501,2025-05-02 19:30:00,Spot,TAO-BTC,Sell,1,TAO,0.0031,0,0,TAO,0,0,-1,0.998,TAO',
].join('\n');

const read = readRecordsFile;
const refusal = refusalsOf;

describe('OKX exports', () => {
  it('are recognised by their headers and read in the clock the Time header names', () => {
    const trades = read(TRADES, 'okx-trading.csv');
    expect(trades.files[0]!.format).toBe('okx');
    expect(fromRecords(trades.records)).toEqual([
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
    for (const record of trades.records) expect(record.valueAtDayRate).toBe(true);

    const funding = read(FUNDING, 'okx-funding.csv');
    expect(fromRecords(funding.records)).toEqual([
      { at: '2025-04-30T08:00:00', kind: 'deposit', asset: 'TAO', quantity: '3.5', gbp: '', fee: '' },
      { at: '2025-05-04T00:05:00', kind: 'income', asset: 'TAO', quantity: '0.0021', gbp: '', fee: '' },
      {
        at: '2025-05-04T12:00:00',
        kind: 'withdrawal',
        asset: 'TAO',
        quantity: '4',
        gbp: '',
        fee: '0.001 TAO',
      },
    ]);
    const [deposit, income, withdrawal] = funding.records;
    expect(deposit!.valueAtDayRate).toBeUndefined();
    expect(income).toMatchObject({ valueAtDayRate: true });
    expect(income!.gbp!.toFixed()).toBe('0');
    expect(withdrawal).toMatchObject({ valueAtDayRate: true });
    expect(withdrawal!.fee!.gbp.toFixed()).toBe('0');
  });

  it("are read as downloaded: the account's zone from OKX's line above a plain Time header", () => {
    const zoned = read(TRADES, 'okx-trading.csv');
    const plain = TRADES.replace('Time(UTC+08:00)', 'Time');
    const asDownloaded = read(`UID:123456,Account Type:Unified,Time Zone:UTC+8\n${plain}`, 'okx-trading.csv');
    // The same instants as the file whose header names the zone, and problems still at the file's lines.
    expect(fromRecords(asDownloaded.records)).toEqual(fromRecords(zoned.records));
    expect(asDownloaded.records.map((r) => r.line)).toEqual(zoned.records.map((r) => r.line + 1));
    const inUtc = read(`UID:123456,Account Type:Unified,Time Zone:UTC\n${plain}`, 'okx-trading.csv');
    expect(inUtc.records[0]!.at.getTime() - zoned.records[0]!.at.getTime()).toBe(8 * 3_600_000);
  });

  it('refuse, at their line and column, what they do not read and a Time without its zone (another token is read)', () => {
    const more = [
      TRADES,
      '15,502,2025-05-03 09:00:00,Spot,ETH-USDT,Buy,0.1,ETH,3000,0,-0.0001,ETH,0,0,0.0999,0.0999,ETH',
      '14,502,2025-05-03 09:00:00,Spot,ETH-USDT,Sell,300,ETH,3000,0,0,USDT,0,0,-300,60,USDT',
      '16,503,2025-05-03 10:00:00,Perpetual,TAO-USDT-SWAP,Open long,3,cont,320,0,-0.15,USDT,3,3,0,60,USDT',
    ].join('\n');
    expect(refusal(more, 'okx-trading.csv')).toEqual([
      expect.stringMatching(/^line 9, Trade Type: "Perpetual" is not read: /),
    ]);
    const plain = FUNDING.replace('Time(UTC+08:00)', 'Time');
    expect(refusal(plain, 'okx-funding.csv')).toEqual([
      expect.stringMatching(/^line 2, Time: does not name its time zone: .*Time\(UTC\+08:00\)/),
    ]);
    const other = `${FUNDING}\n6,2025-05-05 08:00:00,Deposit,500,0,500,0,USDT\n7,2025-05-05 09:00:00,Fee rebate,0.01,0.0011,0.0111,0,TAO`;
    expect(refusal(other, 'okx-funding.csv')).toEqual([
      expect.stringMatching(/^line 8, Type: "Fee rebate" is not read: /),
    ]);
  });
});

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax's converter makes the same deposits, withdrawals, fees and rewards of the funding account's file${SKIPPED}`,
  async () => {
    // The converter knows the header with a plain `Time`, which it reads as UTC; the pack is told UTC.
    const converted = await runBittyTaxConv(
      FUNDING.replace('Time(UTC+08:00)', 'Time'),
      'okx-funding.csv',
      bittytax,
    );
    expect(converted.parser).toBe('OKX Funding');
    const utc = read(FUNDING.replace('Time(UTC+08:00)', 'Time(UTC)'), 'okx-funding.csv');
    expect(fromConverter(converted.records)).toEqual(fromRecords(utc.records));
  },
);
