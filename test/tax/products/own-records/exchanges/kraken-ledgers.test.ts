/**
 * Kraken's ledger export, as a person downloads it (History → Export → Ledgers), written here from the
 * columns Kraken documents for it: the pack reads its trades, deposits, withdrawals, fees and staking
 * rewards, and BittyTax's converter (run unchanged) makes the same trades, deposits, withdrawals and fees of
 * the same file. Rows the reader does not understand are refused at their line and column.
 */
import { describe, expect, it } from 'vitest';
import { locateBittyTax } from '../../../../support/bittytax.js';
import { runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import { fromConverter, fromRecords, readRecordsFile, refusalsOf } from './export-comparison.js';

const HEADER = '"txid","refid","time","type","subtype","aclass","asset","wallet","amount","fee","balance"';

/** One ledger row, quoted as Kraken writes them. */
function row(...cells: string[]): string {
  return cells.map((c) => `"${c}"`).join(',');
}

const LEDGER = [
  HEADER,
  // Pounds paid in, then 5 TAO bought for £1,500 with a £3.90 fee on the pounds.
  row(
    'LGBP01-AAAAA-AAAAAA',
    'QGBP01-AAAAA-AAAAAA',
    '2025-05-01 09:00:00',
    'deposit',
    '',
    'currency',
    'ZGBP',
    'spot / main',
    '5000.0000',
    '0.0000',
    '5000.0000',
  ),
  row(
    'LT0001-AAAAA-AAAAAA',
    'TRADE1-AAAAA-AAAAAA',
    '2025-05-01 10:00:00',
    'trade',
    '',
    'currency',
    'ZGBP',
    'spot / main',
    '-1500.0000',
    '3.9000',
    '3496.1000',
  ),
  row(
    'LT0002-AAAAA-AAAAAA',
    'TRADE1-AAAAA-AAAAAA',
    '2025-05-01 10:00:00',
    'trade',
    '',
    'currency',
    'TAO',
    'spot / main',
    '5.0000000000',
    '0.0000000000',
    '5.0000000000',
  ),
  // 2 TAO bought for £620, the fee taken in TAO.
  row(
    'LT0003-AAAAA-AAAAAA',
    'TRADE2-AAAAA-AAAAAA',
    '2025-05-01 11:00:00',
    'trade',
    '',
    'currency',
    'ZGBP',
    'spot / main',
    '-620.0000',
    '0.0000',
    '2876.1000',
  ),
  row(
    'LT0004-AAAAA-AAAAAA',
    'TRADE2-AAAAA-AAAAAA',
    '2025-05-01 11:00:00',
    'trade',
    '',
    'currency',
    'TAO',
    'spot / main',
    '2.0000000000',
    '0.0050000000',
    '6.9950000000',
  ),
  // 6 TAO withdrawn to a coldkey (fee 0.0009 TAO), the same day.
  row(
    'LW0001-AAAAA-AAAAAA',
    'WDRAW1-AAAAA-AAAAAA',
    '2025-05-01 12:00:00',
    'withdrawal',
    '',
    'currency',
    'TAO',
    'spot / main',
    '-6.0000000000',
    '0.0009000000',
    '0.9941000000',
  ),
  // Moved into Kraken's staking, a reward there, and back (moves between Kraken's own wallets).
  row(
    'LS0001-AAAAA-AAAAAA',
    'STAKE1-AAAAA-AAAAAA',
    '2025-05-01 13:00:00',
    'transfer',
    'spottostaking',
    'currency',
    'TAO',
    'spot / main',
    '-0.5000000000',
    '0.0000000000',
    '0.4941000000',
  ),
  row(
    'LS0002-AAAAA-AAAAAA',
    'STAKE1-AAAAA-AAAAAA',
    '2025-05-01 13:00:05',
    'transfer',
    'stakingfromspot',
    'currency',
    'TAO.S',
    'earn / bonded',
    '0.5000000000',
    '0.0000000000',
    '0.5000000000',
  ),
  row(
    'LR0001-AAAAA-AAAAAA',
    'REWARD-AAAAA-AAAAAA',
    '2025-05-01 20:10:00',
    'earn',
    'reward',
    'currency',
    'TAO',
    'earn / bonded',
    '0.0040000000',
    '0.0000000000',
    '0.5040000000',
  ),
  // 3 TAO deposited back, then sold for £960 with a £2.50 fee.
  row(
    'LD0001-AAAAA-AAAAAA',
    'DEPOS1-AAAAA-AAAAAA',
    '2025-06-02 08:00:00',
    'deposit',
    '',
    'currency',
    'TAO',
    'spot / main',
    '3.0000000000',
    '0.0000000000',
    '3.4981000000',
  ),
  row(
    'LT0005-AAAAA-AAAAAA',
    'TRADE3-AAAAA-AAAAAA',
    '2025-06-02 09:30:00',
    'trade',
    '',
    'currency',
    'TAO',
    'spot / main',
    '-3.0000000000',
    '0.0000000000',
    '0.4981000000',
  ),
  row(
    'LT0006-AAAAA-AAAAAA',
    'TRADE3-AAAAA-AAAAAA',
    '2025-06-02 09:30:00',
    'trade',
    '',
    'currency',
    'ZGBP',
    'spot / main',
    '960.0000',
    '2.5000',
    '3833.6000',
  ),
  // Bought with a card in the app (Buy Crypto): the card's pounds paid in, spent, and the TAO received.
  row(
    'LC0001-AAAAA-AAAAAA',
    'CARD01-AAAAA-AAAAAA',
    '2025-06-10 15:00:00',
    'deposit',
    '',
    'currency',
    'ZGBP',
    'spot / main',
    '100.0000',
    '0.0000',
    '3933.6000',
  ),
  row(
    'LC0002-AAAAA-AAAAAA',
    'CARD02-AAAAA-AAAAAA',
    '2025-06-10 15:00:01',
    'spend',
    '',
    'currency',
    'ZGBP',
    'spot / main',
    '-98.5000',
    '1.5000',
    '3833.6000',
  ),
  row(
    'LC0003-AAAAA-AAAAAA',
    'CARD02-AAAAA-AAAAAA',
    '2025-06-10 15:00:01',
    'receive',
    '',
    'currency',
    'TAO',
    'spot / main',
    '0.3000000000',
    '0.0000000000',
    '0.7981000000',
  ),
].join('\n');

const read = (text: string, name = 'kraken-ledgers.csv') => readRecordsFile(text, name);
const refusal = (text: string) => refusalsOf(text, 'kraken-ledgers.csv');

describe('Kraken ledgers', () => {
  it('are recognised by their header and read: trades, fees, withdrawals, deposits and rewards', () => {
    const inputs = read(LEDGER);
    expect(inputs.files[0]!.format).toBe('kraken-ledgers');
    expect(fromRecords(inputs.records)).toEqual([
      { at: '2025-05-01T10:00:00', kind: 'buy', asset: 'TAO', quantity: '5', gbp: '1500', fee: '3.9 GBP' },
      { at: '2025-05-01T11:00:00', kind: 'buy', asset: 'TAO', quantity: '2', gbp: '620', fee: '0.005 TAO' },
      {
        at: '2025-05-01T12:00:00',
        kind: 'withdrawal',
        asset: 'TAO',
        quantity: '6',
        gbp: '',
        fee: '0.0009 TAO',
      },
      { at: '2025-05-01T20:10:00', kind: 'income', asset: 'TAO', quantity: '0.004', gbp: '', fee: '' },
      { at: '2025-06-02T08:00:00', kind: 'deposit', asset: 'TAO', quantity: '3', gbp: '', fee: '' },
      { at: '2025-06-02T09:30:00', kind: 'sell', asset: 'TAO', quantity: '3', gbp: '960', fee: '2.5 GBP' },
      { at: '2025-06-10T15:00:01', kind: 'buy', asset: 'TAO', quantity: '0.3', gbp: '98.5', fee: '1.5 GBP' },
    ]);
    const byLine = new Map(inputs.records.map((r) => [r.line, r]));
    // A fee in TAO inside a trade is valued at the trade's own price (£310 a TAO).
    expect(byLine.get(5)!.fee!.gbp.toFixed()).toBe('1.55');
    expect(byLine.get(5)!.valueAtDayRate).toBeUndefined();
    // The withdrawal's fee and the reward have no pounds in the ledger: they take the pack's TAO/GBP rate
    // of their UK day (day-rate-values.test.ts), even on a day the file has a TAO/GBP trade.
    expect([7, 10].map((line) => byLine.get(line)!.valueAtDayRate)).toEqual([true, true]);
    expect(byLine.get(7)!.fee).toMatchObject({ asset: 'TAO', quantity: expect.anything() });
    expect(byLine.get(7)!.fee!.quantity.toFixed()).toBe('0.0009');
  });

  it("book the TAO of a trade against USD at the day rate, a fee in dollars at the trade's ratio", () => {
    const usd = [
      ...LEDGER.split('\n'),
      row(
        'LT0007-AAAAA-AAAAAA',
        'TRADE4-AAAAA-AAAAAA',
        '2025-06-03 09:30:00',
        'trade',
        '',
        'currency',
        'ZUSD',
        'spot / main',
        '-400.0000',
        '1.0400',
        '0.0000',
      ),
      row(
        'LT0008-AAAAA-AAAAAA',
        'TRADE4-AAAAA-AAAAAA',
        '2025-06-03 09:30:00',
        'trade',
        '',
        'currency',
        'TAO',
        'spot / main',
        '1.0000000000',
        '0.0000000000',
        '1.4981000000',
      ),
    ].join('\n');
    const trade = read(usd).records.find((r) => r.line === 17)!;
    expect(trade).toMatchObject({ kind: 'buy', asset: 'TAO', valueAtDayRate: true });
    expect(trade.quantity.toFixed()).toBe('1');
    expect(trade.counter?.asset).toBe('USD');
    expect(trade.counter?.quantity.toFixed()).toBe('400');
    expect(trade.fee?.asset).toBe('USD');
    expect(trade.fee?.quantity.toFixed()).toBe('1.04');
  });

  it('refuse, at their line and column, what they do not read', () => {
    const lines = LEDGER.split('\n');
    const usd = [
      ...lines,
      row(
        'LT0007-AAAAA-AAAAAA',
        'TRADE4-AAAAA-AAAAAA',
        '2025-06-03 09:30:00',
        'trade',
        '',
        'currency',
        'ZUSD',
        'spot / main',
        '-400.0000',
        '0.0000',
        '0.0000',
      ),
      row(
        'LT0008-AAAAA-AAAAAA',
        'TRADE4-AAAAA-AAAAAA',
        '2025-06-03 09:30:00',
        'trade',
        '',
        'currency',
        'XXBT',
        'spot / main',
        '0.0100000000',
        '0.0000000000',
        '0.0100000000',
      ),
      row(
        'LM0001-AAAAA-AAAAAA',
        'MARGIN-AAAAA-AAAAAA',
        '2025-06-04 09:30:00',
        'margin',
        '',
        'currency',
        'TAO',
        'spot / main',
        '-0.1000000000',
        '0.0000000000',
        '1.3981000000',
      ),
      row(
        'LB0001-AAAAA-AAAAAA',
        'BTCDEP-AAAAA-AAAAAA',
        '2025-06-05 09:30:00',
        'deposit',
        '',
        'currency',
        'XXBT',
        'spot / main',
        '0.1000000000',
        '0.0000000000',
        '0.1000000000',
      ),
    ].join('\n');
    expect(refusal(usd)).toEqual([
      expect.stringMatching(
        /^line 17, asset: trade TRADE4-AAAAA-AAAAAA of USD for BTC is not read: the pack pools TAO and subnet alpha/,
      ),
      expect.stringMatching(/^line 19, type: "margin" is not read: /),
      expect.stringMatching(/^line 20, asset: BTC is not read: the pack pools TAO and subnet alpha/),
    ]);
  });
});

it("Kraken's Trades export is refused, naming the export to download", () => {
  const trades = [
    'txid,ordertxid,pair,time,type,ordertype,price,cost,fee,vol,margin,misc,ledgers',
    'TXID01-AAAAA-AAAAAA,OXID01-AAAAA-AAAAAA,TAOGBP,2025-05-01 10:00:00,buy,market,300,1500,3.9,5,0,,LT0001-AAAAA-AAAAAA',
  ].join('\n');
  expect(refusal(trades)).toEqual([
    expect.stringMatching(/^line 1, null: this is Kraken's Trades export, .*download the Ledgers export/),
  ]);
});

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax's converter makes the same trades, deposits, withdrawals and fees of the same file${SKIPPED}`,
  async () => {
    const converted = await runBittyTaxConv(LEDGER, 'kraken-ledgers.csv', bittytax);
    expect(converted.parser).toBe('Kraken Ledgers');
    // The converter leaves the reward's value for BittyTax to look up; the pack's reading has it (above).
    expect(fromConverter(converted.records)).toEqual(fromRecords(read(LEDGER).records));
  },
);
