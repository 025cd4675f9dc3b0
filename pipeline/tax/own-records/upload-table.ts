/**
 * An uploaded CSV as rows, with what is wrong with its shape: a line too long, a row with the wrong number
 * of fields, too many rows. Rows identical after trimming are found and given with the table: whether
 * they are one transaction exported twice or two partial fills of one order is for the file's reader. It is read with the project's CSV reader (csv-parse,
 * RFC 4180), which reports each problem at the line its row starts on. What the cells mean is for the
 * format's own reader; which cells are safe to keep, for `checkCells`, once the format says which columns
 * hold numbers.
 */
import { type CsvRecord, readCsv } from '../../csv/read-csv.js';
import { unsafeCell } from './cell-safety.js';
import type { ReportProblem } from './input-problems.js';

/** Data rows per file (the header not counted): years of an active trader's exchange history. */
export const MAX_RECORD_ROWS = 20_000;

/** Characters per line: the widest real row (BittyTax, 13 columns with a note) is a few hundred. */
export const MAX_LINE_CHARS = 2_000;

export interface UploadTable {
  /** Column names, trimmed and lower-cased. */
  header: string[];
  rows: CsvRecord[];
  /** Rows identical (after trimming) to an earlier row: the row's line and the earlier one's. */
  duplicates: Array<{ line: number; first: number }>;
}

/** The table, or null when its shape is wrong (each problem reported). */
export function readUploadTable(text: string, report: ReportProblem): UploadTable | null {
  let ok = true;
  const lines = text.split(/\r\n|\n|\r/);
  for (const [index, line] of lines.entries()) {
    if (line.length > MAX_LINE_CHARS) {
      report(
        index + 1,
        null,
        `the line is ${line.length} characters long; a line may be at most ${MAX_LINE_CHARS}`,
      );
      ok = false;
    }
  }
  if (!ok) return null;
  // Counted before the parse, so a file of a million short lines is refused without building its rows.
  const dataLines = lines.slice(1).filter((line) => line.trim() !== '').length;
  if (dataLines > MAX_RECORD_ROWS) {
    report(
      0,
      null,
      `the file has ${dataLines} rows; a file may have at most ${MAX_RECORD_ROWS} (split it in two)`,
    );
    return null;
  }

  const table = readCsv(text, []);
  for (const problem of table.problems) report(problem.line, null, rowProblem(problem.text));
  if (table.problems.length > 0 || table.header.length === 0) return null;
  if (table.records.length === 0) {
    report(1, null, 'the file has a header but no rows under it');
    return null;
  }

  // Identical after trimming: the same trade exported twice, or an order filled in parts at one price.
  const seen = new Map<string, number>();
  const duplicates: UploadTable['duplicates'] = [];
  for (const row of table.records) {
    const key = table.header.map((name) => (row.values[name] ?? '').trim()).join('\u0000');
    const first = seen.get(key);
    if (first === undefined) seen.set(key, row.line);
    else duplicates.push({ line: row.line, first });
  }
  return { header: table.header, rows: table.records, duplicates };
}

/** Refuses every row identical to an earlier one (a file where a row given twice would count twice). */
export function refuseDuplicates(table: UploadTable, report: ReportProblem): boolean {
  for (const { line, first } of table.duplicates) {
    report(line, null, `the same row as line ${first}: remove one (a row given twice would count twice)`);
  }
  return table.duplicates.length === 0;
}

function rowProblem(text: string): string {
  const count = /^expected (\d+) fields, found (\d+)$/.exec(text);
  if (!count) return text;
  return `the row has ${count[2]} field${count[2] === '1' ? '' : 's'} where the header has ${count[1]} (a comma inside a value must be quoted; a number is written without thousands separators)`;
}

/**
 * Every cell checked for formula and markup starts (`unsafeCell`); `display` gives a column's name as the
 * buyer wrote it in the format's documentation. True when all are safe.
 */
export function checkCells(
  table: UploadTable,
  numeric: ReadonlySet<string>,
  display: (column: string) => string,
  report: ReportProblem,
): boolean {
  let ok = true;
  for (const row of table.rows) {
    for (const column of table.header) {
      const reason = unsafeCell(row.values[column] ?? '', numeric.has(column));
      if (reason !== null) {
        report(row.line, display(column), reason);
        ok = false;
      }
    }
  }
  return ok;
}
