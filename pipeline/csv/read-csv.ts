/**
 * Reads the hand-made input files (claims, fiat prices) with csv-parse, RFC 4180: quoted fields may hold
 * commas, quotes ("") and line breaks. The reader never throws for what is in the file: it returns every
 * problem it finds, each naming its line, so that an import can report all of them together with its own
 * checks of the values, and store nothing.
 */
import { CsvError, type Options, parse } from 'csv-parse/sync';
import type { CsvProblem } from './csv-rejected-error.js';

export interface CsvRecord {
  /** The line the row starts on (the header is line 1). */
  line: number;
  /** Field text by lower-case column name, untrimmed. */
  values: Record<string, string>;
}

export interface CsvTable {
  /** Column names, trimmed and lower-cased. */
  header: string[];
  /** The rows that have one field per column; blank lines are left out. */
  records: CsvRecord[];
  /** What could not be read; with a missing column, no record is returned. */
  problems: CsvProblem[];
}

const OPTIONS: Options = {
  bom: true,
  // A row with too many or too few fields comes back, so it can be reported with the others.
  relax_column_count: true,
  // A quote inside an unquoted field is an ordinary character (a"b), as spreadsheets write it.
  relax_quotes: true,
  // Named, not detected: detection settles on the first line's ending and misreads a file that mixes them.
  record_delimiter: ['\r\n', '\n', '\r'],
};

export function readCsv(text: string, required: readonly string[]): CsvTable {
  const input = Buffer.from(text, 'utf8');
  const lines = lineCounter(input);
  // Each row with the byte offset just past it: csv-parse counts a CRLF inside a quoted field as two
  // lines, so line numbers are counted here, from offsets.
  const rows: Array<{ fields: string[]; end: number }> = [];
  try {
    parse(input, {
      ...OPTIONS,
      on_record: (fields: string[], context) => {
        rows.push({ fields, end: context.bytes });
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // csv-parse names the line where it gave up (often the end of the file); the row that broke starts
    // just past the last row it read.
    const line = lines.at(rows.at(-1)?.end ?? 0);
    const what = error.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quoted field is never closed' : error.message;
    return { header: [], records: [], problems: [{ line, text: what }] };
  }

  const table: CsvTable = { header: [], records: [], problems: [] };
  let start = 0;
  for (const [index, { fields, end }] of rows.entries()) {
    const line = lines.at(start);
    start = end;
    if (index === 0) {
      table.header = fields.map((name) => name.trim().toLowerCase());
      continue;
    }
    if (fields.length === 1 && fields[0]?.trim() === '') continue;
    if (fields.length !== table.header.length) {
      table.problems.push({ line, text: `expected ${table.header.length} fields, found ${fields.length}` });
      continue;
    }
    table.records.push({
      line,
      values: Object.fromEntries(table.header.map((name, i) => [name, fields[i] ?? ''])),
    });
  }

  const headerProblems = checkHeader(table.header, required);
  if (headerProblems.length > 0) return { header: table.header, records: [], problems: headerProblems };
  return table;
}

function checkHeader(header: string[], required: readonly string[]): CsvProblem[] {
  if (header.length === 0) return [{ line: 1, text: 'the file is empty: a header line is required' }];
  const problems = required
    .filter((column) => !header.includes(column))
    .map((column) => ({ line: 1, text: `missing column "${column}"` }));
  for (const [i, name] of header.entries()) {
    if (header.indexOf(name) !== i) problems.push({ line: 1, text: `column "${name}" appears twice` });
  }
  return problems;
}

/** Line numbers of byte offsets, asked in increasing order; CRLF, LF and a lone CR each end a line. */
function lineCounter(input: Buffer): { at: (offset: number) => number } {
  let position = 0;
  let line = 1;
  return {
    at(offset) {
      for (; position < offset; position++) {
        const byte = input[position];
        if (byte === 0x0a || (byte === 0x0d && input[position + 1] !== 0x0a)) line++;
      }
      return line;
    },
  };
}
