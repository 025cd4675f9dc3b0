/**
 * A records file: its format recognised from its header (names in any case and order, extra columns
 * ignored), its cells checked, then each row read by the format's reader. The formats are the plain one
 * and the two the pack itself exports (Koinly's universal template, BittyTax's records), so that a pack's
 * own `koinly.csv` or `bittytax.csv` reads back.
 */
import type { OwnRecord, RecordFormat } from './customer-inputs.js';
import { readExchangeExport } from './exchanges/exchange-export.js';
import type { ReportProblem } from './input-problems.js';
import {
  BITTYTAX_COLUMNS,
  BITTYTAX_NUMERIC,
  BITTYTAX_REQUIRED,
  readBittytaxRow,
} from './read-bittytax-records.js';
import { KOINLY_COLUMNS, KOINLY_NUMERIC, KOINLY_REQUIRED, readKoinlyRow } from './read-koinly-records.js';
import { PLAIN_COLUMNS, PLAIN_NUMERIC, PLAIN_REQUIRED, readPlainRow } from './read-plain-records.js';
import { RecordRow } from './record-row.js';
import { checkCells, type UploadTable } from './upload-table.js';

interface Format {
  format: RecordFormat;
  title: string;
  /** Every column, as its documentation spells it. */
  columns: readonly string[];
  /** Lower-case names that must be present for the header to be this format's. */
  required: readonly string[];
  numeric: ReadonlySet<string>;
  read: (row: RecordRow, source: string) => OwnRecord[];
}

const FORMATS: Format[] = [
  {
    format: 'plain',
    title: 'plain',
    columns: PLAIN_COLUMNS,
    required: PLAIN_REQUIRED,
    numeric: PLAIN_NUMERIC,
    read: readPlainRow,
  },
  {
    format: 'koinly',
    title: 'Koinly universal',
    columns: KOINLY_COLUMNS,
    required: KOINLY_REQUIRED,
    numeric: KOINLY_NUMERIC,
    read: readKoinlyRow,
  },
  {
    format: 'bittytax',
    title: 'BittyTax',
    columns: BITTYTAX_COLUMNS,
    required: BITTYTAX_REQUIRED,
    numeric: BITTYTAX_NUMERIC,
    read: readBittytaxRow,
  },
];

export interface OwnRecordsRead {
  format: RecordFormat;
  records: OwnRecord[];
}

/** The file's records, or null when any problem was reported. */
export function readOwnRecords(
  source: string,
  table: UploadTable,
  report: ReportProblem,
): OwnRecordsRead | null {
  const exchange = readExchangeExport(source, table, report);
  if (exchange !== undefined) return exchange;
  const format = recognise(table.header, report);
  if (format === null) return null;
  const names = new Map(format.columns.map((name) => [name.toLowerCase(), name]));
  const display = (column: string) => names.get(column) ?? column;
  // Values are read only from safe cells: a refused cell is never quoted back in a reason.
  if (!checkCells(table, format.numeric, display, report)) return null;
  let ok = true;
  const records: OwnRecord[] = [];
  for (const csvRow of table.rows) {
    const row = new RecordRow(csvRow, display, report);
    const read = format.read(row, source);
    if (row.failed) ok = false;
    else records.push(...read);
  }
  return ok ? { format: format.format, records } : null;
}

function recognise(header: readonly string[], report: ReportProblem): Format | null {
  const present = (format: Format) => format.required.filter((name) => header.includes(name)).length;
  const match = FORMATS.find((format) => present(format) === format.required.length);
  if (match) return match;
  const closest = [...FORMATS].sort(
    (a, b) => present(b) / b.required.length - present(a) / a.required.length,
  )[0]!;
  if (present(closest) >= 2) {
    const names = new Map(closest.columns.map((name) => [name.toLowerCase(), name]));
    const missing = closest.required.filter((name) => !header.includes(name)).map((name) => names.get(name));
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
