/**
 * `sbm prices import FILE.csv`: fiat prices from a file, for days the API cannot serve or an auditor's
 * own rates. Columns: `date,currency,tao_price[,source]` (currency `usd` or `gbp`). Every row is checked
 * first; one bad row rejects the file, and the error lists every bad row by its line.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type CsvProblem, CsvRejectedError } from '../csv/csv-rejected-error.js';
import { readCsv } from '../csv/read-csv.js';
import { isUtcDay } from '../time/utc-day.js';
import { openWarehouse } from '../warehouse/open-warehouse.js';
import { CURRENCIES, type Currency, type FxRow, upsertFx } from './fiat-prices.js';

export class PriceImportError extends CsvRejectedError {
  override name = 'PriceImportError';
  constructor(problems: readonly CsvProblem[]) {
    super('price file', problems);
  }
}

export function parseFiatCsv(text: string, defaultSource: string): FxRow[] {
  const { records, problems } = readCsv(text, ['date', 'currency', 'tao_price']);
  const rows: FxRow[] = [];
  const seen = new Set<string>();
  for (const { line, values } of records) {
    const day = (values['date'] ?? '').trim();
    const currency = (values['currency'] ?? '').trim().toLowerCase();
    const price = (values['tao_price'] ?? '').trim();
    const before = problems.length;
    if (!isUtcDay(day)) problems.push({ line, text: `date "${day}" is not a YYYY-MM-DD day` });
    if (!(CURRENCIES as readonly string[]).includes(currency)) {
      problems.push({ line, text: `currency "${currency}" is not one of ${CURRENCIES.join(', ')}` });
    }
    if (!/^\d{1,12}(\.\d{1,8})?$/.test(price) || Number(price) <= 0) {
      problems.push({ line, text: `tao_price "${price}" is not a positive decimal with at most 8 decimals` });
    }
    const key = `${day}/${currency}`;
    if (seen.has(key)) problems.push({ line, text: `a second price for ${currency} on ${day}` });
    seen.add(key);
    if (problems.length === before) {
      rows.push({
        day,
        currency: currency as Currency,
        taoPrice: price,
        source: values['source']?.trim() || defaultSource,
      });
    }
  }
  if (problems.length > 0) throw new PriceImportError(problems);
  return rows;
}

export async function importFiatPrices(options: { file: string; warehousePath: string }): Promise<number> {
  const rows = parseFiatCsv(await readFile(options.file, 'utf8'), `file:${basename(options.file)}`);
  const warehouse = await openWarehouse(options.warehousePath);
  try {
    return await upsertFx(warehouse, rows);
  } finally {
    warehouse.close();
  }
}
