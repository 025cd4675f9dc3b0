/**
 * An uploaded CSV as rows, with what is wrong with its shape: a line too long, a row with the wrong number
 * of fields, too many rows. Rows identical after trimming are found and given with the table: whether
 * they are one transaction exported twice or two partial fills of one order is for the file's reader. It is read with the project's CSV reader (csv-parse,
 * RFC 4180), which reports each problem at the line its row starts on. What the cells mean is for the
 * format's own reader; which cells are safe to keep, for `checkCells`, once the format says which columns
 * hold numbers.
 */
import { type CsvRecord, readCsv } from '../../../csv/read-csv.js';
import { unsafeCell } from './cell-safety.js';
import type { ReportNote, ReportProblem } from './input-problems.js';

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
  /** The lines above the header, as in the file (an export's title lines; most files have none). */
  titles: string[];
}

/** The table, or null when its shape is wrong (each problem reported). */
export function readUploadTable(text: string, report: ReportProblem): UploadTable | null {
  let ok = true;
  const lines = text.split(/\r\n|\n|\r/);
  const above = titleLines(lines);
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
  const dataLines = lines.slice(above + 1).filter((line) => line.trim() !== '').length;
  if (dataLines > MAX_RECORD_ROWS) {
    report(
      0,
      null,
      `the file has ${dataLines} rows; a file may have at most ${MAX_RECORD_ROWS} (split it in two)`,
    );
    return null;
  }

  // Lines are counted in the file as given: a table under title lines starts below them.
  const read = readCsv(above === 0 ? text : lines.slice(above).join('\n'), []);
  const table = {
    ...read,
    records: read.records.map((row) => ({
      ...row,
      line: row.line + above,
      values: withoutDashes(row.values),
    })),
    problems: read.problems.map((problem) => ({ ...problem, line: problem.line + above })),
  };
  for (const problem of table.problems) report(problem.line, null, rowProblem(problem.text));
  if (table.problems.length > 0 || table.header.length === 0) return null;
  if (table.records.length === 0) {
    report(above + 1, null, 'the file has a header but no rows under it');
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
  return { header: table.header, rows: table.records, duplicates, titles: lines.slice(0, above) };
}

/**
 * Title lines above the header, as some exchanges write them; every other file starts with its header (0
 * lines above it).
 * - Coinbase's transaction export: `Transactions`, `User,<name>,<id>` and blank lines: its header is the
 *   first of the file's first lines that names its columns.
 * - Bybit's and OKX's exports: one line of `Label:value` cells first (`UID: 123,Company Name: ,Country:`;
 *   OKX's names the account's time zone, `Time Zone:UTC+8`, which its reader takes from `titles`).
 */
const TITLED_HEADER = ['timestamp', 'transaction type', 'asset', 'quantity transacted'];
const TITLE_LINES_AT_MOST = 10;
const LABELLED_TITLE = /^\s*"?UID\s*:/i;

function titleLines(lines: readonly string[]): number {
  for (const [index, line] of lines.slice(0, TITLE_LINES_AT_MOST + 1).entries()) {
    const names = line.split(',').map((cell) => cell.trim().replace(/^"|"$/g, '').trim().toLowerCase());
    if (TITLED_HEADER.every((name) => names.includes(name))) return index;
  }
  let above = 0;
  while (above < TITLE_LINES_AT_MOST && LABELLED_TITLE.test(lines[above] ?? '')) above++;
  return above;
}

/**
 * Bybit writes `--` in a cell that has no value (the position of a spot trade, a transfer's contract): a
 * cell of dashes alone is empty. It is no formula and no number, and is never written back.
 */
function withoutDashes(values: Record<string, string>): Record<string, string> {
  if (!Object.values(values).some((v) => /^\s*--?\s*$/.test(v))) return values;
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, /^\s*--?\s*$/.test(v) ? '' : v]));
}

/**
 * Identical rows: refused when they carry a transaction id (in one of `ids`), since the same transaction
 * given twice would count twice; else kept and noted, since an order filled in parts at one price gives
 * identical rows in a file with no id. False when any was refused.
 */
export function duplicatesKept(
  table: UploadTable,
  ids: readonly string[],
  note: ReportNote,
  report: ReportProblem,
): boolean {
  let ok = true;
  const byLine = new Map(table.rows.map((row) => [row.line, row]));
  for (const { line, first } of table.duplicates) {
    const id = ids.find((column) => (byLine.get(line)?.values[column] ?? '').trim() !== '');
    if (id !== undefined) {
      report(line, null, `the same transaction as line ${first} (the same ${id}): remove one`);
      ok = false;
    } else {
      note(
        line,
        `the same row as line ${first}, kept: the file has no transaction id to tell them apart, and an order filled in parts gives identical rows. If it is the same transaction exported twice, remove one and upload the file again.`,
      );
    }
  }
  return ok;
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
  money: ReadonlySet<string> = new Set(),
): boolean {
  let ok = true;
  for (const row of table.rows) {
    for (const column of table.header) {
      const reason = unsafeCell(row.values[column] ?? '', numeric.has(column), money.has(column));
      if (reason !== null) {
        report(row.line, display(column), reason);
        ok = false;
      }
    }
  }
  return ok;
}
