import { describe, expect, it } from 'vitest';
import { csvField } from '../../pipeline/csv/csv-field.js';
import { CsvRejectedError, listingProblems } from '../../pipeline/csv/csv-rejected-error.js';
import { readCsv } from '../../pipeline/csv/read-csv.js';

const lines = (table: ReturnType<typeof readCsv>) => table.records.map((r) => r.line);

describe('reading a CSV file', () => {
  it('keys each row by the trimmed, lower-case header and keeps field text as written', () => {
    const table = readCsv('\uFEFF Date ,TAO_Price\n2025-03-01, 1.5 \n', ['date', 'tao_price']);
    expect(table).toEqual({
      header: ['date', 'tao_price'],
      records: [{ line: 2, values: { date: '2025-03-01', tao_price: ' 1.5 ' } }],
      problems: [],
    });
  });

  it('reads quoted commas, doubled quotes and line breaks, and a quote inside a bare field as itself', () => {
    const table = readCsv('a,b\n"x, y","say ""hi"""\n"two\nlines",a"b\n', []);
    expect(table.records.map((r) => r.values)).toEqual([
      { a: 'x, y', b: 'say "hi"' },
      { a: 'two\nlines', b: 'a"b' },
    ]);
  });

  it('numbers each row by the line it starts on, past blank lines and multi-line fields', () => {
    const text = 'a,b\n1,"x\n\ny"\n\n   \n2,3\n"£ in UTF-8 is two bytes","q\nr"\n4,5';
    expect(lines(readCsv(text, []))).toEqual([2, 7, 8, 10]);
  });

  it('numbers lines alike in CRLF files, where csv-parse alone counts a CRLF inside quotes twice', () => {
    const text = 'a,b\r\n1,"x\r\ny"\r\n\r\n2,3\r\n4,5\r\n';
    expect(lines(readCsv(text, []))).toEqual([2, 5, 6]);
    expect(readCsv(text, []).records[0]?.values['b']).toBe('x\r\ny');
  });

  it('takes CRLF, LF and a lone CR as line ends in one file', () => {
    const table = readCsv('a,b\r\n1,2\n3,4\r5,6', []);
    expect(table.records.map((r) => [r.line, r.values['a']])).toEqual([
      [2, '1'],
      [3, '3'],
      [4, '5'],
    ]);
  });

  it('reports every row with the wrong number of fields and keeps the others', () => {
    const table = readCsv('a,b,c\n1,2,3\n1,2\n1,2,3,4\n7,8,9\n', []);
    expect(lines(table)).toEqual([2, 5]);
    expect(table.problems).toEqual([
      { line: 3, text: 'expected 3 fields, found 2' },
      { line: 4, text: 'expected 3 fields, found 4' },
    ]);
  });

  it('returns no rows when a required column is missing or named twice', () => {
    expect(readCsv('date,price\n2025-03-01,1\n', ['date', 'tao_price', 'currency'])).toEqual({
      header: ['date', 'price'],
      records: [],
      problems: [
        { line: 1, text: 'missing column "tao_price"' },
        { line: 1, text: 'missing column "currency"' },
      ],
    });
    expect(readCsv('a,A\n1,2\n', ['a']).problems).toEqual([{ line: 1, text: 'column "a" appears twice' }]);
  });

  it('says a file without a header is empty', () => {
    for (const text of ['', '\uFEFF']) {
      expect(readCsv(text, ['a']).problems).toEqual([
        { line: 1, text: 'the file is empty: a header line is required' },
      ]);
    }
  });

  it('names the line where a quoted field that is never closed begins', () => {
    const table = readCsv('a,b\n1,2\n\n3,"open\n4,5\n6,7\n', ['a']);
    expect(table.records).toEqual([]);
    expect(table.problems).toEqual([{ line: 4, text: 'a quoted field is never closed' }]);
  });

  it('reads back what csvField writes', () => {
    const values = ['plain', 'a,b', 'say "hi"', 'two\r\nlines', ''];
    const text = `${values.map((_, i) => `c${i}`).join(',')}\n${values.map(csvField).join(',')}\n`;
    expect(Object.values(readCsv(text, []).records[0]?.values ?? {})).toEqual(values);
  });
});

describe('a rejected file', () => {
  it('lists every problem in line order, and its first line counts them', () => {
    const error = new CsvRejectedError('price file', [
      { line: 4, text: 'late' },
      { line: 2, text: 'early' },
      { line: 4, text: 'also late' },
    ]);
    expect(error.problems).toEqual(['line 2: early', 'line 4: late', 'line 4: also late']);
    expect(error.message.split('\n')[0]).toBe('price file rejected, nothing imported: 3 problems');
  });

  it('has its problems written out one a line for a command line, then fails all the same', async () => {
    const written: string[] = [];
    const rejected = Promise.reject(
      new CsvRejectedError('claims file', [{ line: 3, text: 'text is empty' }]),
    );
    await expect(listingProblems(rejected, (t) => written.push(t))).rejects.toThrow(CsvRejectedError);
    expect(written).toEqual(['line 3: text is empty\n']);
    await expect(listingProblems(Promise.resolve(5), (t) => written.push(t))).resolves.toBe(5);
  });
});
