import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type CustomerInputs,
  CustomerInputsRejected,
  type InputProblem,
  type UploadedFile,
} from '../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { MAX_PROBLEMS } from '../../../../pipeline/tax/products/own-records/input-problems.js';
import {
  MAX_RECORD_ROWS,
  MAX_UPLOAD_BYTES,
  readCustomerFiles,
} from '../../../../pipeline/tax/products/own-records/read-customer-files.js';

const file = (
  name: string,
  text: string | Uint8Array,
  role: UploadedFile['role'] = 'records',
): UploadedFile => ({
  name,
  bytes: typeof text === 'string' ? new Uint8Array(Buffer.from(text, 'utf8')) : text,
  role,
});

/** The problems of a refused upload; fails the test when the upload is accepted. */
function problems(files: UploadedFile[], previous?: CustomerInputs): InputProblem[] {
  try {
    readCustomerFiles(files, previous);
  } catch (error) {
    if (error instanceof CustomerInputsRejected) return error.problems;
    throw error;
  }
  throw new Error('the upload was accepted');
}

const PLAIN = [
  'time_utc,type,asset,quantity,gbp_value,fee',
  '2025-06-01T12:00:00Z,buy,TAO,10,3000,4.5',
  '2025-06-02 09:30:00,deposit,tao,2,,',
  '2025-06-03T10:00:00+01:00,sell,sn12-alpha,100.5,55.25,',
  '2025-06-04T10:00:00Z,withdrawal,SN12-ALPHA-R123456,1,,',
  '2025-06-05T10:00:00Z,fee,TAO,0.001,0.3,',
  '2025-06-06T10:00:00Z,income,SN3-ALPHA-R0,0.5,0.1,',
].join('\r\n');

describe('readCustomerFiles: the plain format', () => {
  it('reads each type, with times in UTC, assets normalised and the fee in pounds', () => {
    const inputs = readCustomerFiles([file('kraken.csv', PLAIN)]);
    expect(inputs.files).toEqual([
      {
        name: 'kraken.csv',
        sha256: createHash('sha256').update(PLAIN).digest('hex'),
        rows: 6,
        role: 'records',
        format: 'plain',
      },
    ]);
    const shown = inputs.records.map((r) => ({
      line: r.line,
      at: r.at.toISOString(),
      kind: r.kind,
      asset: r.asset,
      quantity: r.quantity.toFixed(),
      gbp: r.gbp?.toFixed() ?? null,
      fee: r.fee ? `${r.fee.quantity.toFixed()} ${r.fee.asset} £${r.fee.gbp.toFixed()}` : null,
    }));
    expect(shown).toEqual([
      {
        line: 2,
        at: '2025-06-01T12:00:00.000Z',
        kind: 'buy',
        asset: 'TAO',
        quantity: '10',
        gbp: '3000',
        fee: '4.5 GBP £4.5',
      },
      {
        line: 3,
        at: '2025-06-02T09:30:00.000Z',
        kind: 'deposit',
        asset: 'TAO',
        quantity: '2',
        gbp: null,
        fee: null,
      },
      {
        line: 4,
        at: '2025-06-03T09:00:00.000Z',
        kind: 'sell',
        asset: 'SN12-ALPHA',
        quantity: '100.5',
        gbp: '55.25',
        fee: null,
      },
      {
        line: 5,
        at: '2025-06-04T10:00:00.000Z',
        kind: 'withdrawal',
        asset: 'SN12-ALPHA-R123456',
        quantity: '1',
        gbp: null,
        fee: null,
      },
      {
        line: 6,
        at: '2025-06-05T10:00:00.000Z',
        kind: 'fee',
        asset: 'TAO',
        quantity: '0.001',
        gbp: '0.3',
        fee: null,
      },
      {
        line: 7,
        at: '2025-06-06T10:00:00.000Z',
        kind: 'income',
        asset: 'SN3-ALPHA',
        quantity: '0.5',
        gbp: '0.1',
        fee: null,
      },
    ]);
    expect(inputs.records.every((r) => r.source === 'kraken.csv' && r.wallet === null)).toBe(true);
  });

  it('recognises the header in any case and order, without the fee column, after a UTF-8 BOM', () => {
    const text = '\uFEFFQuantity,Asset,GBP_Value,Type,Time_UTC\n3,TAO,900,buy,2025-01-01 00:00:00\n';
    const [record] = readCustomerFiles([file('a.csv', text)]).records;
    expect(record!.quantity.toFixed()).toBe('3');
    expect(record!.gbp!.toFixed()).toBe('900');
    expect(record!.at.toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('adds an accepted upload to what the order already has', () => {
    const first = readCustomerFiles([file('one.csv', PLAIN)]);
    const second = readCustomerFiles(
      [file('two.csv', 'time_utc,type,asset,quantity,gbp_value\n2025-07-01T00:00:00Z,buy,TAO,1,300\n')],
      first,
    );
    expect(second.files.map((f) => f.name)).toEqual(['one.csv', 'two.csv']);
    expect(second.records).toHaveLength(7);
    expect(second.records.at(-1)!.source).toBe('two.csv');
  });

  it('names the line, the column and the reason of each value refused', () => {
    const text = [
      'time_utc,type,asset,quantity,gbp_value,fee',
      '2025-13-01T00:00:00Z,buy,TAO,1,300,',
      '2025-06-01,buy,TAO,1,300,',
      '2025-06-01T00:00:00Z,swap,TAO,1,300,',
      '2025-06-01T00:00:01Z,buy,BTC,1,300,',
      '2025-06-01T00:00:02Z,sell,TAO,-2,300,',
      '2025-06-01T00:00:03Z,sell,TAO,1,,',
      '2025-06-01T00:00:04Z,buy,TAO,"1,250.5",300,',
      '2025-06-01T00:00:05Z,buy,TAO,1e-3,300,',
      '2025-06-01T00:00:06Z,buy,TAO,0,300,',
    ].join('\n');
    expect(problems([file('bad.csv', text)])).toEqual([
      {
        file: 'bad.csv',
        line: 2,
        column: 'time_utc',
        reason:
          '"2025-13-01T00:00:00Z" is not a date and time read here: write it as 2025-06-01 12:00:00 (UTC) or ISO 8601 with Z or an offset',
      },
      {
        file: 'bad.csv',
        line: 3,
        column: 'time_utc',
        reason: '"2025-06-01" has no time of day: give it as 2025-06-01 12:00:00 (UTC)',
      },
      {
        file: 'bad.csv',
        line: 4,
        column: 'type',
        reason: '"swap" is not a type read here: buy, sell, deposit, withdrawal, fee or income',
      },
      {
        file: 'bad.csv',
        line: 5,
        column: 'asset',
        reason:
          'unknown asset "BTC": neither a token (TAO, SN12-ALPHA, or another token by its code: USDT, BTC) nor a currency; keep only the rows of tokens and money',
      },
      {
        file: 'bad.csv',
        line: 6,
        column: 'quantity',
        reason: "is negative (-2): a quantity is greater than zero; the row's type says the direction",
      },
      {
        file: 'bad.csv',
        line: 7,
        column: 'gbp_value',
        reason: 'is empty: a sell needs its value in pounds (the pack looks up no prices for your records)',
      },
      {
        file: 'bad.csv',
        line: 8,
        column: 'quantity',
        reason: '"1,250.5" has a thousands separator: write it as 1250.5',
      },
      {
        file: 'bad.csv',
        line: 9,
        column: 'quantity',
        reason:
          '"1e-3" is in exponent form: write it as a plain decimal (format the column as a number with its decimals)',
      },
      { file: 'bad.csv', line: 10, column: 'quantity', reason: 'is zero: a quantity is greater than zero' },
    ]);
  });
});

describe('readCustomerFiles: hostile files', () => {
  const HEADER = 'time_utc,type,asset,quantity,gbp_value,fee\n';

  it('refuses a UTF-16 file, with or without its byte order mark', () => {
    const utf16 = new Uint8Array(Buffer.from(`\uFEFF${PLAIN}`, 'utf16le'));
    const bare = new Uint8Array(Buffer.from(PLAIN, 'utf16le'));
    const reason =
      'not UTF-8 text: save it as CSV UTF-8 (in Excel: Save As, "CSV UTF-8 (Comma delimited)") (it is UTF-16)';
    expect(problems([file('u16.csv', utf16), file('bare.csv', bare)])).toEqual([
      { file: 'u16.csv', line: 0, column: null, reason },
      { file: 'bare.csv', line: 0, column: null, reason },
    ]);
  });

  it('refuses a latin-1 (Windows-1252) file: a £ is one byte 0xA3 there', () => {
    const latin1 = new Uint8Array(
      Buffer.from(`${HEADER}2025-06-01T00:00:00Z,buy,TAO,1,300,\n# paid \u00a3300\n`, 'latin1'),
    );
    expect(problems([file('latin1.csv', latin1)])).toEqual([
      {
        file: 'latin1.csv',
        line: 0,
        column: null,
        reason: 'not UTF-8 text: save it as CSV UTF-8 (in Excel: Save As, "CSV UTF-8 (Comma delimited)")',
      },
    ]);
  });

  it('refuses 50 MB on its size, fast, before reading it', () => {
    const huge = new Uint8Array(50 * 1024 * 1024).fill(0x41);
    const started = performance.now();
    const found = problems([file('huge.csv', huge)]);
    expect(performance.now() - started).toBeLessThan(50);
    expect(found).toEqual([
      {
        file: 'the upload',
        line: 0,
        column: null,
        reason: 'the files come to 50.0 MiB together; one upload may be at most 8 MiB (upload them in turn)',
      },
    ]);
    // One file over its own limit within the upload's total.
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1).fill(0x41);
    expect(problems([file('big.csv', big)])).toEqual([
      {
        file: 'big.csv',
        line: 0,
        column: null,
        reason: 'the file is 2.0 MiB; a file may be at most 2.0 MiB',
      },
    ]);
  });

  it('refuses an empty file, a file one byte long, a header with no rows, and NUL bytes', () => {
    expect(problems([file('empty.csv', '')])).toEqual([
      {
        file: 'empty.csv',
        line: 0,
        column: null,
        reason: 'the file is empty: a header line and at least one row are needed',
      },
    ]);
    expect(problems([file('one.csv', 'x')])).toEqual([
      { file: 'one.csv', line: 1, column: null, reason: 'the file has a header but no rows under it' },
    ]);
    expect(problems([file('header.csv', HEADER)])).toEqual([
      { file: 'header.csv', line: 1, column: null, reason: 'the file has a header but no rows under it' },
    ]);
    expect(problems([file('nul.csv', `${HEADER}2025-06-01T00:00:00Z,buy,TAO,1,300,\0\n`)])).toEqual([
      {
        file: 'nul.csv',
        line: 0,
        column: null,
        reason: 'the file holds a NUL byte (at byte 79): it is not a text CSV file',
      },
    ]);
  });

  it('refuses a row a byte long and a row with too many fields, naming their lines', () => {
    const text = `${HEADER}x\n2025-06-01T00:00:00Z,buy,TAO,1,300,,extra\n2025-06-01T00:00:00Z,buy,TAO,1,300,\n`;
    expect(problems([file('rows.csv', text)])).toEqual([
      {
        file: 'rows.csv',
        line: 2,
        column: null,
        reason:
          'the row has 1 field where the header has 6 (a comma inside a value must be quoted; a number is written without thousands separators)',
      },
      {
        file: 'rows.csv',
        line: 3,
        column: null,
        reason:
          'the row has 7 fields where the header has 6 (a comma inside a value must be quoted; a number is written without thousands separators)',
      },
    ]);
  });

  it('refuses a line too long and more rows than the limit', () => {
    expect(
      problems([file('long.csv', `${HEADER}2025-06-01T00:00:00Z,buy,TAO,1,300,${'9'.repeat(3000)}\n`)]),
    ).toEqual([
      {
        file: 'long.csv',
        line: 2,
        column: null,
        reason: 'the line is 3035 characters long; a line may be at most 2000',
      },
    ]);
    const many = HEADER + 'a\n'.repeat(MAX_RECORD_ROWS + 1);
    expect(problems([file('many.csv', many)])).toEqual([
      {
        file: 'many.csv',
        line: 0,
        column: null,
        reason: `the file has ${MAX_RECORD_ROWS + 1} rows; a file may have at most ${MAX_RECORD_ROWS} (split it in two)`,
      },
    ]);
  });

  it('refuses formula cells in a text column, naming the column', () => {
    const text = [
      'time_utc,type,asset,quantity,gbp_value,fee',
      '2025-06-01T00:00:00Z,"=HYPERLINK(""http://x.example"",""click"")",TAO,1,300,',
      '2025-06-01T00:00:01Z,buy,@SUM(A1:A2),1,300,',
      '2025-06-01T00:00:02Z,+1,TAO,1,300,',
      '2025-06-01T00:00:03Z,-2+3,TAO,1,300,',
      '2025-06-01T00:00:04Z,buy,TAO,-2+3,300,',
      '2025-06-01T00:00:05Z,"\tbuy",TAO,1,300,',
    ].join('\n');
    const formula = (char: string) =>
      `starts with ${char}: a spreadsheet would run it as a formula; remove that character`;
    expect(problems([file('formula.csv', text)])).toEqual([
      { file: 'formula.csv', line: 2, column: 'type', reason: formula('"="') },
      { file: 'formula.csv', line: 3, column: 'asset', reason: formula('"@"') },
      { file: 'formula.csv', line: 4, column: 'type', reason: formula('"+"') },
      { file: 'formula.csv', line: 5, column: 'type', reason: formula('"-"') },
      { file: 'formula.csv', line: 6, column: 'quantity', reason: formula('"-"') },
      { file: 'formula.csv', line: 7, column: 'type', reason: formula('a tab') },
    ]);
  });

  it('refuses markup in a cell', () => {
    const text = `${HEADER}2025-06-01T00:00:00Z,<script>alert(1)</script>,TAO,1,300,\n`;
    expect(problems([file('markup.csv', text)])).toEqual([
      {
        file: 'markup.csv',
        line: 2,
        column: 'type',
        reason: 'holds "<": markup characters are not accepted in a cell',
      },
    ]);
  });

  it('keeps a row given twice in a file with no transaction id (an order filled in parts), and lists it', () => {
    const text = `${HEADER}2025-06-01T00:00:00Z,buy,TAO,1,300,\n2025-06-02T00:00:00Z,buy,TAO,1,300,\n 2025-06-01T00:00:00Z , buy,TAO,1 ,300,\n`;
    const inputs = readCustomerFiles([file('twice.csv', text)]);
    expect(inputs.records.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(
      inputs.notes?.map((n) => `${n.file} ${n.line} ${n.at?.toISOString()} ${n.text.slice(0, 24)}`),
    ).toEqual(['twice.csv 4 2025-06-01T00:00:00.000Z the same row as line 2, ']);
  });

  it('refuses the same file twice, in one upload and across uploads, and keeps nothing of a refused upload', () => {
    expect(problems([file('a.csv', PLAIN), file('copy of a.csv', PLAIN)])).toEqual([
      { file: 'copy of a.csv', line: 0, column: null, reason: 'the same file was already added (a.csv)' },
    ]);
    const earlier = readCustomerFiles([file('a.csv', PLAIN)]);
    const before = JSON.stringify(earlier);
    const good = file(
      'b.csv',
      'time_utc,type,asset,quantity,gbp_value\n2025-07-01T00:00:00Z,buy,TAO,1,300\n',
    );
    expect(problems([good, file('again.csv', PLAIN)], earlier)).toEqual([
      { file: 'again.csv', line: 0, column: null, reason: 'the same file was already added (a.csv)' },
    ]);
    expect(JSON.stringify(earlier)).toBe(before);
    expect(earlier.files).toHaveLength(1);
  });

  it('lists at most MAX_PROBLEMS problems and says how many more there were', () => {
    const rows = Array.from(
      { length: 80 },
      (_, i) => `2025-06-01T00:00:${String(i % 60).padStart(2, '0')}Z,buy,BTC,${i + 1},300,`,
    );
    const found = problems([file('many.csv', `${HEADER}${rows.join('\n')}\n`)]);
    expect(found).toHaveLength(MAX_PROBLEMS + 1);
    expect(found.at(-1)).toEqual({
      file: 'many.csv',
      line: 0,
      column: null,
      reason: '30 more problems not listed: correct these and upload again',
    });
  });

  it('refuses a file name that is markup or a formula, without repeating it', () => {
    expect(problems([file('<img src=x>.csv', PLAIN)])).toEqual([
      {
        file: 'file 1',
        line: 0,
        column: null,
        reason: 'the file\'s name holds "<": markup characters are not accepted in a cell: rename it',
      },
    ]);
  });

  it('refuses an unknown header, naming the formats read', () => {
    const [problem] = problems([file('x.csv', 'when,what\n1,2\n')]);
    expect(problem).toMatchObject({ file: 'x.csv', line: 1, column: null });
    expect(problem!.reason).toMatch(
      /^the header is not one of the record formats read: plain \(time_utc,type,asset,quantity,gbp_value,fee\)/,
    );
    expect(
      problems([file('y.csv', 'time_utc,type,asset,quantity\n2025-06-01T00:00:00Z,buy,TAO,1\n')]),
    ).toEqual([
      {
        file: 'y.csv',
        line: 1,
        column: null,
        reason: 'the header looks like the plain format but lacks "gbp_value"',
      },
    ]);
  });
});
