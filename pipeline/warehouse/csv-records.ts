/**
 * A small RFC 4180 reader for the curated input files (claims, fiat prices): quoted fields may hold commas,
 * quotes ("") and line breaks. Each record keeps the line it started on, so validation errors can name it.
 */
export interface CsvRecord {
  line: number;
  values: Record<string, string>;
}

export class CsvFormatError extends Error {
  override name = 'CsvFormatError';
}

export function parseCsv(text: string): { header: string[]; records: CsvRecord[] } {
  const rows = splitRows(text.replace(/^\uFEFF/, ''));
  const first = rows.shift();
  if (!first) throw new CsvFormatError('the file is empty: a header line is required');
  const header = first.fields.map((h) => h.trim().toLowerCase());
  const records: CsvRecord[] = [];
  for (const row of rows) {
    if (row.fields.length === 1 && row.fields[0]?.trim() === '') continue; // blank line
    if (row.fields.length !== header.length) {
      throw new CsvFormatError(
        `line ${row.line}: expected ${header.length} fields, found ${row.fields.length}`,
      );
    }
    const values: Record<string, string> = {};
    header.forEach((name, i) => {
      values[name] = row.fields[i] ?? '';
    });
    records.push({ line: row.line, values });
  }
  return { header, records };
}

function splitRows(text: string): Array<{ line: number; fields: string[] }> {
  const rows: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      rows.push({ line: rowLine, fields });
      fields = [];
      field = '';
      line++;
      rowLine = line;
    } else field += c;
  }
  if (quoted) throw new CsvFormatError(`line ${rowLine}: unterminated quoted field`);
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    rows.push({ line: rowLine, fields });
  }
  return rows;
}

/** One CSV field, quoted when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
