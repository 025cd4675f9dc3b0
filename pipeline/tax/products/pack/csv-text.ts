/**
 * The text of the pack's CSV files: RFC 4180 (CRLF line ends, a field quoted only when it must be), a header
 * row. Kept apart from the files' contents so that a thread rendering the exports loads only this.
 */
import { csvField } from '../../../csv/csv-field.js';

export type Field = string | number | null;

/** Lines of CSV text made beforehand, each ending in CRLF: written as they are, between the rows. */
export class CsvLines {
  constructor(readonly text: string) {}
}

/**
 * The CSV text of a header and its rows. Each row becomes its line at once and the lines are joined a
 * thousand at a time: a big pack's CSVs are tens of megabytes, and rows or lines kept until the end would
 * outlive the young generation and cost the collector far more than making them (hence `rowsOf`, which
 * makes each row only as it is written). A row is its fields, or `CsvLines` made before.
 */
export function csv(header: readonly string[], rows: Iterable<readonly Field[] | CsvLines>): string {
  const chunks: string[] = [];
  let lines: string[] = [csvLine(header)];
  for (const row of rows) {
    if (row instanceof CsvLines) {
      if (lines.length > 0) chunks.push(`${lines.join('\r\n')}\r\n`);
      chunks.push(row.text);
      lines = [];
      continue;
    }
    lines.push(csvLine(row));
    if (lines.length === 1024) {
      chunks.push(`${lines.join('\r\n')}\r\n`);
      lines = [];
    }
  }
  if (lines.length > 0) chunks.push(`${lines.join('\r\n')}\r\n`);
  return chunks.join('');
}

/** The rows of `items`, each made as it is read (`items.map(row)` without the array). */
export function* rowsOf<T>(
  items: Iterable<T>,
  row: (item: T) => readonly Field[],
): Iterable<readonly Field[]> {
  for (const item of items) yield row(item);
}

/** One row's line, without its CRLF. */
export function csvLine(fields: readonly Field[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    // A number's text never holds a comma, a quote or a line end: it is never quoted.
    const text = field === null ? '' : typeof field === 'number' ? String(field) : csvField(field);
    line = i === 0 ? text : `${line},${text}`;
  }
  return line;
}
