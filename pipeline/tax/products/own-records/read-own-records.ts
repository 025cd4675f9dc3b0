/**
 * A records file: its format recognised from its header (names in any case and order, extra columns
 * ignored), its cells checked, then each row read by the format's reader. The formats are the plain one,
 * the two the pack itself exports (Koinly's universal template, BittyTax's records), so that a pack's own
 * `koinly.csv` or `bittytax.csv` reads back, and Koinly's own transaction export.
 *
 * What every format shares:
 * - A column may be named as the format's other versions name it (Koinly's `Tag` for `Label`, `Koinly
 *   Date` for `Date`); the buyer's own name is the one quoted back.
 * - Dates a spreadsheet saved (`01/06/2025 12:00`) are read day first, as a UK spreadsheet writes them,
 *   unless the file's own dates show month first; a date both readings allow is refused only when the file
 *   has dates of both kinds and so cannot settle it.
 * - Rows identical to an earlier row: with a transaction id in the row, the same transaction exported
 *   twice, refused; without one (an order filled in several parts at one price), kept, and listed as a
 *   point to check.
 */
import type { CsvRecord } from '../../../csv/read-csv.js';
import type { OwnRecord, RecordFormat } from './customer-inputs.js';
import { readExchangeExport } from './exchanges/exchange-export.js';
import type { ReportNote, ReportProblem } from './input-problems.js';
import {
  BITTYTAX_COLUMNS,
  BITTYTAX_NUMERIC,
  BITTYTAX_REQUIRED,
  readBittytaxRow,
} from './read-bittytax-records.js';
import { KOINLY_COLUMNS, KOINLY_NUMERIC, KOINLY_REQUIRED, readKoinlyRow } from './read-koinly-records.js';
import {
  KOINLY_TRANSACTIONS_COLUMNS,
  KOINLY_TRANSACTIONS_NUMERIC,
  KOINLY_TRANSACTIONS_REQUIRED,
  koinlyTransactionsCurrency,
  readKoinlyTransactionRow,
} from './read-koinly-transactions.js';
import { PLAIN_COLUMNS, PLAIN_NUMERIC, PLAIN_REQUIRED, readPlainRow } from './read-plain-records.js';
import { RecordRow } from './record-row.js';
import { slashedDateOrder } from './record-values.js';
import { checkCells, duplicatesKept, type UploadTable } from './upload-table.js';

interface Format {
  format: RecordFormat;
  title: string;
  /** Every column, as its documentation spells it. */
  columns: readonly string[];
  /** Lower-case names that must be present for the header to be this format's. */
  required: readonly string[];
  numeric: ReadonlySet<string>;
  /** Other names of a column (lower case) → the name the reader uses, taken when that one is absent. */
  aliases?: Readonly<Record<string, string>>;
  /** The column of the row's time, read for the file's date order (absent: day first). */
  time?: string;
  /** Columns that identify a transaction (an identical row with one of them filled is the same one). */
  ids?: readonly string[];
  /** A check of the header once recognised: false (reported) refuses the file. */
  check?: (header: readonly string[], report: ReportProblem) => boolean;
  read: (row: RecordRow, source: string) => OwnRecord[];
}

const KOINLY_ALIASES = { tag: 'label', 'koinly date': 'date' } as const;

const FORMATS: Format[] = [
  {
    format: 'plain',
    title: 'plain',
    columns: PLAIN_COLUMNS,
    required: PLAIN_REQUIRED,
    numeric: PLAIN_NUMERIC,
    time: 'time_utc',
    read: readPlainRow,
  },
  // Before the universal template: its header holds the template's columns and more.
  {
    format: 'koinly-transactions',
    title: 'Koinly transaction export',
    columns: KOINLY_TRANSACTIONS_COLUMNS,
    required: KOINLY_TRANSACTIONS_REQUIRED,
    numeric: KOINLY_TRANSACTIONS_NUMERIC,
    aliases: KOINLY_ALIASES,
    time: 'date',
    ids: ['txhash'],
    check: koinlyTransactionsCurrency,
    read: readKoinlyTransactionRow,
  },
  {
    format: 'koinly',
    title: 'Koinly universal',
    columns: KOINLY_COLUMNS,
    required: KOINLY_REQUIRED,
    numeric: KOINLY_NUMERIC,
    aliases: KOINLY_ALIASES,
    time: 'date',
    ids: ['txhash'],
    read: readKoinlyRow,
  },
  {
    format: 'bittytax',
    title: 'BittyTax',
    columns: BITTYTAX_COLUMNS,
    required: BITTYTAX_REQUIRED,
    numeric: BITTYTAX_NUMERIC,
    time: 'timestamp',
    read: readBittytaxRow,
  },
];

export interface OwnRecordsRead {
  format: RecordFormat;
  records: OwnRecord[];
}

/** The file's records, or null when any problem was reported; `note` takes its points to check. */
export function readOwnRecords(
  source: string,
  given: UploadTable,
  report: ReportProblem,
  note: ReportNote = () => {},
): OwnRecordsRead | null {
  const exchange = readExchangeExport(source, given, report, note);
  if (exchange !== undefined) return exchange;
  const recognised = recognise(given, report);
  if (recognised === null) return null;
  const { format, table, names } = recognised;
  const display = (column: string) => names.get(column) ?? column;
  if (format.check && !format.check(table.header, report)) return null;
  // Values are read only from safe cells: a refused cell is never quoted back in a reason.
  if (!checkCells(table, format.numeric, display, report)) return null;
  if (!duplicatesKept(table, format.ids ?? [], note, report)) return null;
  const timeColumn = format.time;
  const dateOrder = timeColumn
    ? slashedDateOrder(table.rows.map((row) => row.values[timeColumn] ?? ''))
    : 'day-first';
  let ok = true;
  const records: OwnRecord[] = [];
  for (const csvRow of table.rows) {
    const row = new RecordRow(csvRow, display, report, { dateOrder, note });
    const read = format.read(row, source);
    if (row.failed) ok = false;
    else records.push(...read);
  }
  return ok ? { format: format.format, records } : null;
}

function recognise(
  given: UploadTable,
  report: ReportProblem,
): { format: Format; table: UploadTable; names: Map<string, string> } | null {
  const header = given.header;
  const canonical = (format: Format) =>
    header.map((name) => {
      const alias = format.aliases?.[name];
      return alias !== undefined && !header.includes(alias) ? alias : name;
    });
  const present = (format: Format) => {
    const names = canonical(format);
    return format.required.filter((name) => names.includes(name)).length;
  };
  const match = FORMATS.find((format) => present(format) === format.required.length);
  if (match) {
    const renamed = canonical(match);
    const names = new Map(match.columns.map((name) => [name.toLowerCase(), name]));
    // The buyer's own name for an aliased column (`Tag`) is the one quoted back.
    const spelt = new Map([...match.columns, 'Tag', 'Koinly Date'].map((name) => [name.toLowerCase(), name]));
    header.forEach((name, i) => {
      if (renamed[i] !== name) names.set(renamed[i]!, spelt.get(name) ?? titleCase(name));
    });
    return { format: match, table: renamedTable(given, renamed), names };
  }
  const closest = [...FORMATS].sort(
    (a, b) => present(b) / b.required.length - present(a) / a.required.length,
  )[0]!;
  if (present(closest) >= 2) {
    const names = new Map(closest.columns.map((name) => [name.toLowerCase(), name]));
    const have = canonical(closest);
    const missing = closest.required.filter((name) => !have.includes(name)).map((name) => names.get(name));
    report(
      1,
      null,
      `the header looks like the ${closest.title} format but lacks ${missing.map((name) => `"${name}"`).join(', ')}`,
    );
  } else {
    report(
      1,
      null,
      `the header is not one of the record formats read: ${FORMATS.map((f) => `${f.title} (${f.columns.join(',')})`).join('; ')}`,
    );
  }
  return null;
}

function renamedTable(table: UploadTable, header: readonly string[]): UploadTable {
  if (header.every((name, i) => name === table.header[i])) return table;
  const rename = (row: CsvRecord): CsvRecord => ({
    line: row.line,
    values: Object.fromEntries(table.header.map((name, i) => [header[i]!, row.values[name] ?? ''])),
  });
  return { ...table, header: [...header], rows: table.rows.map(rename) };
}

function titleCase(name: string): string {
  return name.replace(/\b\w/g, (c) => c.toUpperCase());
}
