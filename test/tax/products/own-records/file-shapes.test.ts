/**
 * Shapes that real record files have: BittyTax's money deposits and withdrawals and its Stake/Unstake
 * types, times ending in BST or GMT, dates a spreadsheet saved (`01/06/2025 12:00`), identical rows, two
 * files exporting the same transactions, and a pools.csv of a provisional pack. Each is read, or refused
 * with a line that says what to do, and what the buyer should check is listed.
 */
import { describe, expect, it } from 'vitest';
import { combineOwnRecords } from '../../../../pipeline/tax/products/own-records/combine-own-records.js';
import {
  CustomerInputsRejected,
  type InputProblem,
  type UploadedFile,
} from '../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';

const BT_HEADER =
  'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note';
const KOINLY_HEADER =
  'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash';
const PLAIN = 'time_utc,type,asset,quantity,gbp_value,fee';

const upload = (name: string, text: string, role: UploadedFile['role'] = 'records'): UploadedFile => ({
  name,
  bytes: new TextEncoder().encode(text),
  role,
});
const read = (...files: UploadedFile[]) => readCustomerFiles(files);
function problems(...files: UploadedFile[]): InputProblem[] {
  try {
    readCustomerFiles(files);
  } catch (error) {
    if (error instanceof CustomerInputsRejected) return error.problems;
    throw error;
  }
  throw new Error('the upload was accepted');
}
const times = (text: string) => read(upload('r.csv', text)).records.map((r) => r.at.toISOString());

describe('file shapes', () => {
  it("skips BittyTax's GBP Deposit and Withdrawal rows, and says so", () => {
    const inputs = read(
      upload(
        'bt.csv',
        [
          BT_HEADER,
          'Deposit,1000,GBP,,,,,,,,Kraken,2025-06-01T09:00:00Z,',
          'Trade,10,TAO,,1000,GBP,,,,,Kraken,2025-06-01T10:00:00Z,',
          'Withdrawal,,,,500,GBP,,,,,Kraken,2025-06-02T09:00:00Z,',
        ].join('\n'),
      ),
    );
    expect(inputs.records.map((r) => `${r.line} ${r.kind} ${r.asset}`)).toEqual(['3 buy TAO']);
    expect(inputs.notes?.map((n) => `${n.line} ${n.at?.toISOString()} ${n.text}`)).toEqual([
      '2 2025-06-01T09:00:00.000Z a deposit of GBP (money, not a token): skipped, as it changes no pool',
      '4 2025-06-02T09:00:00.000Z a withdrawal of GBP (money, not a token): skipped, as it changes no pool',
    ]);
    // Listed as points to check when combined.
    const flags = combineOwnRecords({ transactions: [], flags: [] }, inputs).flags;
    expect(flags.map((f) => `${f.date} ${f.text.slice(0, 30)}`)).toEqual([
      '2025-06-01 bt.csv line 2: a deposit of GB',
      '2025-06-02 bt.csv line 4: a withdrawal of',
    ]);
  });

  it('reads BittyTax Stake and Unstake: nothing booked, a fee paid in a token disposed of', () => {
    const inputs = read(
      upload(
        'bt.csv',
        [
          BT_HEADER,
          'Stake,,,,5,TAO,,,,,Kraken,2025-06-01T10:00:00Z,',
          'Unstake,5,TAO,,,,,0.01,TAO,3,Kraken,2025-07-01T10:00:00Z,',
        ].join('\n'),
      ),
    );
    expect(
      inputs.records.map(
        (r) => `${r.line} ${r.kind} ${r.quantity.toFixed()} ${r.asset} £${r.gbp?.toFixed()}`,
      ),
    ).toEqual(['3 fee 0.01 TAO £3']);
  });

  it('reads times ending in BST (UK summer time, UTC+1) and GMT', () => {
    expect(
      times(
        [
          PLAIN,
          '2025-06-01 12:00:00 BST,buy,TAO,1,300,',
          '2025-12-01 12:00:00 GMT,buy,TAO,1,300,',
          '2025-06-02T12:00:00 bst,buy,TAO,1,300,',
        ].join('\n'),
      ),
    ).toEqual(['2025-06-01T11:00:00.000Z', '2025-12-01T12:00:00.000Z', '2025-06-02T11:00:00.000Z']);
  });

  it('reads dates a UK spreadsheet saved day first; a US file shows itself month first', () => {
    expect(
      times([PLAIN, '01/06/2025 12:00,buy,TAO,1,300,', '02/06/2025 9:30:15,buy,TAO,1,300,'].join('\n')),
    ).toEqual(['2025-06-01T12:00:00.000Z', '2025-06-02T09:30:15.000Z']);
    // 06/13/2025 can only be 13 June: the file is month first, and its 06/01/2025 is 1 June.
    expect(
      times([PLAIN, '06/01/2025 12:00,buy,TAO,1,300,', '06/13/2025 12:00,buy,TAO,1,300,'].join('\n')),
    ).toEqual(['2025-06-01T12:00:00.000Z', '2025-06-13T12:00:00.000Z']);
  });

  it('refuses a date that could be read two ways when the file has dates of both kinds', () => {
    const text = [
      PLAIN,
      '13/06/2025 12:00,buy,TAO,1,300,',
      '06/14/2025 12:00,buy,TAO,1,300,',
      '05/06/2025 12:00,buy,TAO,1,300,',
    ].join('\n');
    expect(problems(upload('r.csv', text))).toEqual([
      {
        file: 'r.csv',
        line: 4,
        column: 'time_utc',
        reason:
          '"05/06/2025 12:00" could be read day first or month first, and this file has dates of both kinds: write the dates as 2025-06-01 12:00:00 (UTC)',
      },
    ]);
  });

  it('keeps identical rows in a file with no transaction id, and lists them; refuses them when their id is the same', () => {
    const row = '2025-06-01 10:00:00 UTC,300,GBP,1,TAO,,,,,,partial fill,';
    const inputs = read(upload('k.csv', [KOINLY_HEADER, row, row].join('\n')));
    expect(inputs.records).toHaveLength(2);
    expect(inputs.notes?.map((n) => `${n.line} ${n.text.slice(0, 28)}`)).toEqual([
      '3 the same row as line 2, kept',
    ]);
    const withId = '2025-06-01 10:00:00 UTC,300,GBP,1,TAO,,,,,,,0xabc';
    expect(problems(upload('k.csv', [KOINLY_HEADER, withId, withId].join('\n')))).toEqual([
      {
        file: 'k.csv',
        line: 3,
        column: null,
        reason: 'the same transaction as line 2 (the same txhash): remove one',
      },
    ]);
  });

  it('lists the rows of two files that export the same transactions', () => {
    const kraken = [
      PLAIN,
      '2025-06-01T10:00:00Z,buy,TAO,10,3000,',
      '2025-06-03T10:00:00Z,sell,TAO,2,700,',
    ].join('\n');
    const koinly = [KOINLY_HEADER, '2025-06-01 10:00:30 UTC,3000,GBP,10,TAO,,,,,,,'].join('\n');
    const inputs = read(upload('kraken.csv', kraken), upload('koinly.csv', koinly));
    expect(inputs.notes?.map((n) => `${n.file} ${n.line}: ${n.text.slice(0, 45)}`)).toEqual([
      'koinly.csv 2: looks like kraken.csv line 2, the same transa',
    ]);
    // Across uploads too.
    const later = readCustomerFiles([upload('koinly.csv', koinly)], read(upload('kraken.csv', kraken)));
    expect(later.notes?.map((n) => `${n.file} ${n.line}`)).toEqual(['koinly.csv 2']);
  });

  it('warns where it reads the pools.csv of a provisional pack', () => {
    const pools = (end: string) =>
      `asset,quantity,cost_gbp,as_at,kind\nTAO,4,1000,2026-04-05,pool\n,0,0,${end},record-end\n`;
    const warned = (end: string) =>
      combineOwnRecords(
        { transactions: [], flags: [] },
        read(upload('pools.csv', pools(end), 'opening')),
      ).flags.filter((f) => f.text.includes('provisional pack'));
    expect(warned('2026-04-20').map((f) => `${f.date} ${f.kind}`)).toEqual(['2026-04-05 opening']);
    expect(warned('2026-04-20')[0]!.text).toContain('built after 2026-05-05');
    expect(warned('2026-05-05')).toEqual([]);
  });
});
