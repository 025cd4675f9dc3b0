/** A pack CSV as records keyed by its header (csv-parse, RFC 4180), for the tests to read as a customer would. */
import { parse } from 'csv-parse/sync';

export function readCsv(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
}

/** A pack CSV's decimal amount (up to 9 places, as the pack writes them) back in RAO, exactly. */
export function raoOf(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const rao = BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
  return negative ? -rao : rao;
}
