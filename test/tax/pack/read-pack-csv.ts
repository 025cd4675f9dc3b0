/** A pack CSV as records keyed by its header (csv-parse, RFC 4180), for the tests to read as a customer would. */
import { parse } from 'csv-parse/sync';

export function readCsv(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
}
