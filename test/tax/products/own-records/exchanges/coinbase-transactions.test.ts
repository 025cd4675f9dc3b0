/**
 * Coinbase's transaction export, as a person downloads it (Profile → Statements → Transaction history →
 * Generate report, CSV), written here from the columns Coinbase documents for it, with the title lines it
 * puts above its header: the pack reads its buys and sells in pounds, its Advanced Trades and conversions
 * against USDC, its sends, receives, fees and staking income, and BittyTax's converter (run unchanged) makes
 * the same trades, deposits, withdrawals and fees of the same file. Rows the reader does not understand are
 * refused at their line (the file's own line, title lines counted); the TAO of a trade against USDC and a
 * reward take the TAO/GBP rate of their UK day.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { locateBittyTax } from '../../../../support/bittytax.js';
import { runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import { reportWithFiles } from '../run-cgt-with-files.js';
import { fromConverter, fromRecords, readRecordsFile, refusalsOf } from './export-comparison.js';

const TITLE = ['Transactions', 'User,A Buyer,8a1b2c3d-0000-4000-8000-000000000001'];
const HEADER =
  'ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes';
let id = 0;
/** One row as Coinbase writes it: amounts with their currency sign, quoted when they hold a comma. */
const row = (...cells: string[]) => {
  id++;
  const quoted = cells.map((c) => (c.includes(',') ? `"${c}"` : c));
  return [`6735f2f0c5e4a1b2c3d4e${String(id).padStart(3, '0')}`, ...quoted].join(',');
};

const EXPORT = [
  ...TITLE,
  HEADER,
  // Line 4: pounds paid in; line 5: 2 TAO bought for £640 with a £9.99 fee.
  row(
    '2025-05-01 10:00:00 UTC',
    'Deposit',
    'GBP',
    '1000',
    'GBP',
    '£1.00',
    '£1,000.00',
    '£1,000.00',
    '£0.00',
    'Deposit from bank',
  ),
  row(
    '2025-05-01 10:05:00 UTC',
    'Buy',
    'TAO',
    '2',
    'GBP',
    '£320.00',
    '£640.00',
    '£649.99',
    '£9.99',
    'Bought 2 TAO for £649.99 GBP',
  ),
  // 1.5 TAO sent to a coldkey, the network fee given in pounds.
  row(
    '2025-05-01 12:00:00 UTC',
    'Send',
    'TAO',
    '-1.5',
    'GBP',
    '£320.00',
    '-£480.00',
    '-£480.05',
    '£0.05',
    'Sent 1.5 TAO to 5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  ),
  row(
    '2025-05-03 01:00:00 UTC',
    'Staking Income',
    'TAO',
    '0.0012',
    'GBP',
    '£300.00',
    '£0.36',
    '£0.36',
    '£0.00',
    '',
  ),
  row(
    '2025-05-03 02:00:00 UTC',
    'Retail Staking Transfer',
    'TAO',
    '-0.3',
    'GBP',
    '£300.00',
    '-£90.00',
    '-£90.00',
    '£0.00',
    '',
  ),
  row(
    '2025-06-02 08:00:00 UTC',
    'Receive',
    'TAO',
    '1',
    'GBP',
    '£330.00',
    '£330.00',
    '£330.00',
    '£0.00',
    'Received 1 TAO from an external account',
  ),
  row(
    '2025-06-02 09:30:00 UTC',
    'Sell',
    'TAO',
    '-0.5',
    'GBP',
    '£340.00',
    '-£170.00',
    '-£167.50',
    '£2.50',
    'Sold 0.5 TAO for £167.50 GBP',
  ),
  // Against USDC: an Advanced Trade (its fee in USDC is what the total holds beyond 1 × 440) and a Convert.
  row(
    '2025-06-03 10:00:00 UTC',
    'Advanced Trade Buy',
    'TAO',
    '1',
    'GBP',
    '£330.00',
    '£330.00',
    '£330.98',
    '£0.98',
    'Bought 1 TAO for 441.3 USDC on TAO-USDC at 440 USDC/TAO',
  ),
  row(
    '2025-06-04 10:00:00 UTC',
    'Convert',
    'TAO',
    '-0.2',
    'GBP',
    '£330.00',
    '£66.00',
    '£66.00',
    '£0.00',
    'Converted 0.2 TAO to 88.5 USDC',
  ),
].join('\n');

const read = (text: string, name = 'coinbase-transactions.csv') => readRecordsFile(text, name);
const refusal = (text: string) => refusalsOf(text, 'coinbase-transactions.csv');

describe("Coinbase's transaction export", () => {
  it('is found under its title lines and read: trades, fees, sends, receives and staking income', () => {
    const inputs = read(EXPORT);
    expect(inputs.files[0]!.format).toBe('coinbase-transactions');
    expect(inputs.files[0]!.rows).toBe(9);
    expect(fromRecords(inputs.records)).toEqual([
      { at: '2025-05-01T10:05:00', kind: 'buy', asset: 'TAO', quantity: '2', gbp: '640', fee: '9.99 GBP' },
      {
        at: '2025-05-01T12:00:00',
        kind: 'withdrawal',
        asset: 'TAO',
        quantity: '1.5',
        gbp: '',
        fee: '0.05 GBP',
      },
      { at: '2025-05-03T01:00:00', kind: 'income', asset: 'TAO', quantity: '0.0012', gbp: '', fee: '' },
      { at: '2025-06-02T08:00:00', kind: 'deposit', asset: 'TAO', quantity: '1', gbp: '', fee: '' },
      { at: '2025-06-02T09:30:00', kind: 'sell', asset: 'TAO', quantity: '0.5', gbp: '170', fee: '2.5 GBP' },
      {
        at: '2025-06-03T10:00:00',
        kind: 'buy',
        asset: 'TAO',
        quantity: '1',
        gbp: '440',
        fee: '1.3 USDC',
        against: 'USDC',
      },
      {
        at: '2025-06-04T10:00:00',
        kind: 'sell',
        asset: 'TAO',
        quantity: '0.2',
        gbp: '88.5',
        fee: '',
        against: 'USDC',
      },
    ]);
    // Lines are the file's own: the title lines and the header are lines 1 to 3.
    const byLine = new Map(inputs.records.map((r) => [r.line, r]));
    expect(byLine.get(5)!.gbp!.toFixed()).toBe('640');
    expect([7, 11, 12].map((line) => byLine.get(line)!.valueAtDayRate)).toEqual([true, true, true]);
  });

  it('refuses, at its line and column, what it does not read', () => {
    const more = [
      ...EXPORT.split('\n'),
      row(
        '2025-06-05 10:00:00 UTC',
        'Buy',
        'BTC',
        '0.001',
        'GBP',
        '£80,000.00',
        '£80.00',
        '£81.49',
        '£1.49',
        'Bought 0.001 BTC for £81.49 GBP',
      ),
      row(
        '2025-06-06 10:00:00 UTC',
        'Card Spend',
        'TAO',
        '-0.1',
        'GBP',
        '£330.00',
        '-£33.00',
        '-£33.00',
        '£0.00',
        '',
      ),
      row(
        '2025-06-07 10:00:00 UTC',
        'Buy',
        'TAO',
        '0.1',
        'GBP',
        '£330.00',
        '=1+1',
        '£33.00',
        '£0.00',
        'Bought 0.1 TAO for £33.00 GBP',
      ),
    ].join('\n');
    expect(refusal(more).sort()).toEqual([
      expect.stringMatching(/^line 15, Subtotal: starts with "=": a spreadsheet would run it as a formula/),
    ]);
    const read = more.split('\n').slice(0, -1).join('\n');
    expect(refusal(read).sort()).toEqual([
      expect.stringMatching(/^line 13, Asset: BTC is not read: the pack pools TAO and subnet alpha/),
      expect.stringMatching(/^line 14, Transaction Type: "Card Spend" is not read: /),
    ]);
  });

  it('takes the TAO/GBP rate of the UK day for an Advanced Trade against USDC, its fee and a reward', async () => {
    const file = [
      ...TITLE,
      HEADER,
      row(
        '2025-06-03 10:00:00 UTC',
        'Advanced Trade Buy',
        'TAO',
        '1',
        'GBP',
        '£330.00',
        '£330.00',
        '£330.98',
        '£0.98',
        'Bought 1 TAO for 441.3 USDC on TAO-USDC at 440 USDC/TAO',
      ),
      row(
        '2025-06-05 12:00:00 UTC',
        'Staking Income',
        'TAO',
        '0.0012',
        'GBP',
        '£300.00',
        '£0.36',
        '£0.36',
        '£0.00',
        '',
      ),
    ].join('\n');
    const prices = JSON.stringify({
      days: [
        { date: '2025-06-04', usd: null, gbp: '331.10000000', source: 'test' },
        { date: '2025-06-06', usd: null, gbp: '298.70000000', source: 'test' },
      ],
    });
    const report = await reportWithFiles({ records: { 'coinbase.csv': file }, prices });
    // UK day D is valued by the quote dated D + 1; the fee of 1.3 USDC is its share of the 440 USDC's value,
    // allowed half on the TAO's cost and half on the USDC disposed of (a trade of two tokens, CRYPTO22150).
    const bought = new Decimal('331.10');
    const cost = bought.plus(bought.times('1.3').div(440).div(2)).plus(new Decimal('298.70').times('0.0012'));
    expect(report.pools.map((p) => [p.asset, p.quantity, new Decimal(p.cost).toFixed(6)])).toEqual([
      ['TAO', '1.0012', cost.toFixed(6)],
      ['USDC', '0', '0.000000'],
    ]);
  });
});

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax's converter makes the same trades, deposits, withdrawals and fees of the same file${SKIPPED}`,
  async () => {
    const converted = await runBittyTaxConv(EXPORT, 'coinbase-transactions.csv', bittytax);
    expect(converted.parser).toBe('Coinbase');
    expect(fromConverter(converted.records, ['GBP'], ['USDC'])).toEqual(fromRecords(read(EXPORT).records));
  },
);
