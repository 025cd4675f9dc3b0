import { encodeAddress } from '@polkadot/util-crypto';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { TaxYearLedger } from '../../../../pipeline/tax/products/compute-tax-year.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
  type InputProblem,
  type UploadedFile,
} from '../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { poolsCsv } from '../../../../pipeline/tax/products/pack/pack-csv.js';
import { SECRET_MESSAGE } from '../../../../pipeline/tax/products/parse-coldkey.js';

const file = (name: string, text: string, role: UploadedFile['role']): UploadedFile => ({
  name,
  bytes: new Uint8Array(Buffer.from(text, 'utf8')),
  role,
});

function problems(files: UploadedFile[], previous?: CustomerInputs): InputProblem[] {
  try {
    readCustomerFiles(files, previous);
  } catch (error) {
    if (error instanceof CustomerInputsRejected) return error.problems;
    throw error;
  }
  throw new Error('the upload was accepted');
}

const address = (seed: number) => encodeAddress(new Uint8Array(32).fill(seed), 42);
const A = address(1);
const B = address(2);

describe('own addresses', () => {
  it('reads address,label in any column order, trimmed', () => {
    const inputs = readCustomerFiles([
      file('own.csv', `Label,Address\nKraken deposit,${A}\n Old coldkey , ${B} \n`, 'addresses'),
    ]);
    expect(inputs.addresses).toEqual([
      { address: A, label: 'Kraken deposit' },
      { address: B, label: 'Old coldkey' },
    ]);
    expect(inputs.files[0]).toMatchObject({ name: 'own.csv', role: 'addresses', rows: 2, format: null });
  });

  it('refuses markup, formulas, long labels, bad addresses and addresses given twice', () => {
    const wrongChecksum = `${A.slice(0, -1)}${A.endsWith('a') ? 'b' : 'a'}`;
    const text = [
      'address,label',
      `${A},<script>alert(1)</script>`,
      `${B},=HYPERLINK("http://x.example")`,
      `${address(3)},${'x'.repeat(65)}`,
      `${wrongChecksum},typo`,
      `${address(4)},`,
      `${address(5)},first`,
      `${address(5)},again`,
    ].join('\n');
    const found = problems([file('own.csv', text, 'addresses')]);
    expect(found).toEqual([
      {
        file: 'own.csv',
        line: 2,
        column: 'label',
        reason: 'holds "<": markup characters are not accepted in a cell',
      },
      {
        file: 'own.csv',
        line: 3,
        column: 'label',
        reason: 'starts with "=": a spreadsheet would run it as a formula; remove that character',
      },
    ]);
    const safe = text.replace(/\n[^\n]*<script>[^\n]*/, '').replace(/\n[^\n]*=HYPERLINK[^\n]*/, '');
    expect(problems([file('own.csv', safe, 'addresses')])).toEqual([
      { file: 'own.csv', line: 2, column: 'label', reason: 'is 65 characters long; a label is at most 64' },
      {
        file: 'own.csv',
        line: 3,
        column: 'address',
        reason:
          'the address is not a valid address: its SS58 checksum does not match, so a character is wrong; copy the address again from the wallet.',
      },
      {
        file: 'own.csv',
        line: 4,
        column: 'label',
        reason: 'is empty: name the address (for example "Kraken deposit")',
      },
      { file: 'own.csv', line: 6, column: 'address', reason: 'is given twice: also on line 5' },
    ]);
  });

  it('refuses an address already named in an earlier upload', () => {
    const earlier = readCustomerFiles([file('one.csv', `address,label\n${A},Kraken\n`, 'addresses')]);
    expect(problems([file('two.csv', `address,label\n${A},Binance\n`, 'addresses')], earlier)).toEqual([
      { file: 'two.csv', line: 2, column: 'address', reason: 'is already named as your own ("Kraken")' },
    ]);
  });

  it('refuses a seed phrase pasted as an address, without quoting it', () => {
    // A BIP39 test vector: its words are known not to be in the warning.
    const phrase = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
    expect(problems([file('own.csv', `address,label\n${phrase},mine\n`, 'addresses')])).toEqual([
      { file: 'own.csv', line: 2, column: 'address', reason: SECRET_MESSAGE },
    ]);
    expect(SECRET_MESSAGE).not.toMatch(/legal|winner|sausage|yellow/);
  });
});

describe('opening pools', () => {
  const ledger = {
    closingPools: [
      { asset: 'TAO', quantity: new Decimal('12.5'), cost: new Decimal('3750.12345678') },
      { asset: 'alpha:12:0', quantity: new Decimal('100'), cost: new Decimal('400') },
      { asset: 'alpha:3:4567', quantity: new Decimal('0'), cost: new Decimal('0') },
    ],
    disposals: [],
  } as unknown as TaxYearLedger;

  it("reads a pack's pools.csv: its pools at its day", () => {
    const inputs = readCustomerFiles([file('pools.csv', poolsCsv(ledger, '2026-04-05'), 'opening')]);
    const opening = inputs.opening!;
    expect(opening.source).toBe('pools.csv');
    expect(opening.asAt).toBe('2026-04-05');
    expect(opening.pools.map((p) => `${p.asset} ${p.quantity.toFixed()} £${p.cost.toFixed()}`)).toEqual([
      'TAO 12.5 £3750.12345678',
      'alpha:12:0 100 £400',
      'alpha:3:4567 0 £0',
    ]);
    expect(opening.matchedAhead).toEqual([]);
    expect(inputs.files[0]).toMatchObject({ role: 'opening', rows: 3 });
  });

  it('reads matched-ahead rows: acquisitions already matched under the 30-day rule', () => {
    const text = [
      'asset,quantity,cost_gbp,as_at,kind',
      'TAO,12.5,3750,2026-04-05,pool',
      'alpha:12:0,100,400,2026-04-05,',
      'TAO,1,320,2026-04-20,matched-ahead',
    ].join('\n');
    const opening = readCustomerFiles([file('pools.csv', text, 'opening')]).opening!;
    expect(opening.pools.map((p) => p.asset)).toEqual(['TAO', 'alpha:12:0']);
    expect(
      opening.matchedAhead.map((m) => `${m.asset} ${m.day} ${m.quantity.toFixed()} £${m.cost.toFixed()}`),
    ).toEqual(['TAO 2026-04-20 1 £320']);
  });

  it('reads entered figures, with no day', () => {
    const text = 'asset,quantity,cost_gbp\ntao,10,1500\nSN12-ALPHA,50,100\n';
    const opening = readCustomerFiles([file('mine.csv', text, 'opening')]).opening!;
    expect(opening).toMatchObject({ source: 'entered', asAt: null, matchedAhead: [] });
    expect(opening.pools.map((p) => p.asset)).toEqual(['TAO', 'SN12-ALPHA']);
  });

  it("reads a pack's pools.csv with a pool of another token (USDT) and its matched-ahead row", () => {
    const text = [
      'asset,quantity,cost_gbp,as_at,kind',
      'TAO,12.5,3750,2026-04-05,pool',
      'USDT,640.5,500.25,2026-04-05,pool',
      'USDT,100,78,2026-04-20,matched-ahead',
    ].join('\n');
    const opening = readCustomerFiles([file('pools.csv', text, 'opening')]).opening!;
    expect(opening.pools.map((p) => `${p.asset} ${p.quantity} ${p.cost}`)).toEqual([
      'TAO 12.5 3750',
      'USDT 640.5 500.25',
    ]);
    expect(opening.matchedAhead.map((m) => `${m.asset} ${m.day} ${m.quantity}`)).toEqual([
      'USDT 2026-04-20 100',
    ]);
  });

  it('refuses pools at two days, a pool twice, unknown assets, a matched-ahead day out of reach', () => {
    const text = [
      'asset,quantity,cost_gbp,as_at,kind',
      'TAO,12.5,3750,2026-04-05,pool',
      'alpha:12:0,100,400,2026-04-06,pool',
      'SN12-ALPHA,1,4,2026-04-05,',
      'ETH/USD,1,2000,2026-04-05,',
      'TAO,1,320,2026-06-20,matched-ahead',
      'TAO,0,5,2026-04-05,pool',
    ].join('\n');
    expect(problems([file('pools.csv', text, 'opening')])).toEqual([
      {
        file: 'pools.csv',
        line: 3,
        column: 'as_at',
        reason: 'is 2026-04-06 but line 2 has 2026-04-05: a pools.csv gives every pool at one day',
      },
      { file: 'pools.csv', line: 4, column: 'asset', reason: 'this pool is given twice: also on line 3' },
      {
        file: 'pools.csv',
        line: 5,
        column: 'asset',
        reason:
          'unknown asset "ETH/USD": neither a token (TAO, SN12-ALPHA, or another token by its code: USDT, BTC) nor a currency; keep only the rows of tokens and money',
      },
      {
        file: 'pools.csv',
        line: 7,
        column: 'cost_gbp',
        reason: 'an empty pool (quantity 0) has no cost: give 0',
      },
      {
        file: 'pools.csv',
        line: 6,
        column: 'as_at',
        reason: "a matched-ahead day is 1 to 30 days after the pools' day 2026-04-05; 2026-06-20 is not",
      },
    ]);
  });

  it('refuses a second opening, in one upload or after an earlier one', () => {
    const one = file('pools.csv', poolsCsv(ledger, '2026-04-05'), 'opening');
    const two = file('mine.csv', 'asset,quantity,cost_gbp\nTAO,10,1500\n', 'opening');
    expect(problems([one, two])).toEqual([
      {
        file: 'mine.csv',
        line: 0,
        column: null,
        reason: 'an opening is already given (pools.csv): an order starts from one set of pools',
      },
    ]);
    const earlier = readCustomerFiles([one]);
    expect(problems([two], earlier)).toEqual([
      {
        file: 'mine.csv',
        line: 0,
        column: null,
        reason: 'an opening is already given (pools.csv): an order starts from one set of pools',
      },
    ]);
  });
});
