/** `sbm tax …`: the UK tax computations that run from files, without a chain or a warehouse. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Command } from 'commander';
import { TaxFiatPrices } from '../../contract/tax-published.js';
import { cgtJson } from '../uk-rules/cgt/cgt-json.js';
import { cgtTable } from '../uk-rules/cgt/cgt-table.js';
import { CgtInputError, type CgtTransaction } from '../uk-rules/cgt/cgt-types.js';
import { computeGains } from '../uk-rules/cgt/compute-gains.js';
import { readCgtCsvWithOpening } from '../uk-rules/cgt/read-cgt-csv.js';
import { GbpPrices, MAX_RATE_AGE_DAYS } from '../uk-rules/gbp-prices.js';
import { combineOwnRecords } from './own-records/combine-own-records.js';
import { CustomerInputsRejected, type UploadedFile } from './own-records/customer-inputs.js';
import { type DayRates, valueAtDayRates, withAssetRates } from './own-records/day-rate-values.js';
import { readCustomerFiles } from './own-records/read-customer-files.js';
import { groupedFlagLine, groupFlags } from './pack/grouped-flags.js';

interface CgtFlags {
  json?: boolean;
  records?: string[];
  addresses?: string;
  opening?: string;
  prices?: string;
}

export function taxCommand(): Command {
  const tax = new Command('tax').description('UK tax computations (capital gains by HMRC matching rules)');
  tax
    .command('cgt')
    .description(
      'capital gains from a CSV of acquisitions and disposals (datetime,asset,action,quantity,gbp): ' +
        'same-day, 30-day and section 104 matching, SA108 figures per UK tax year. Given a pack\u2019s ' +
        'cgt-input.csv with the buyer\u2019s own files, it combines them as the pack did',
    )
    .argument(
      '<file>',
      'CSV file with the header datetime,asset,action,quantity,gbp (a pack\u2019s cgt-input.csv)',
    )
    .option('--json', 'print the report as JSON, every figure an unrounded decimal string')
    .option(
      '--records <files...>',
      'your own records: Koinly universal CSV or transaction export, BittyTax records CSV, Kraken ledgers, Binance transaction history, Coinbase transaction export, or time_utc,type,asset,quantity,gbp_value,fee',
    )
    .option('--addresses <file>', 'addresses that are yours: a CSV with the header address,label')
    .option('--opening <file>', "opening pools: last year's pools.csv, or asset,quantity,cost_gbp")
    .option(
      '--prices <file>',
      'the published daily GBP prices of TAO and of the other tokens it carries (tax/fiat-prices.json, the file the pack values with): exchange rows that give no pounds are valued at their UK day\u2019s rate, as the pack values them',
    )
    .action(async (file: string, flags: CgtFlags) => {
      const read = async (path: string) =>
        readFile(path).catch((error: NodeJS.ErrnoException) => {
          throw new Error(`cannot read ${path}: ${error.code ?? error.message}`);
        });
      const text = (await read(file)).toString('utf8');
      const uploads: UploadedFile[] = [];
      const add = async (path: string, role: UploadedFile['role']) =>
        uploads.push({ name: basename(path), bytes: new Uint8Array(await read(path)), role });
      for (const path of flags.records ?? []) await add(path, 'records');
      if (flags.addresses) await add(flags.addresses, 'addresses');
      if (flags.opening) await add(flags.opening, 'opening');
      const prices = flags.prices
        ? readPrices(flags.prices, (await read(flags.prices)).toString('utf8'))
        : null;
      let report: ReturnType<typeof computeGains>;
      let points: string[] | null = null;
      try {
        const chain = readCgtCsvWithOpening(text);
        let transactions: CgtTransaction[] = chain.transactions;
        if ((flags.addresses || flags.opening) && !chain.columns.includes('kind')) {
          // Without kind and counterparty the transfers and the opening cannot be told from other rows.
          throw new Error(
            `${file} has no kind column (an older pack's cgt-input.csv, or a file of your own): --addresses and --opening act on its opening and transfer rows, which it does not mark; use the cgt-input.csv of a pack built now, or give --records only`,
          );
        }
        if (uploads.length > 0) {
          // The same combining as the pack's: one pool per token across the chain record and your files.
          // Rows an exchange gives no pounds for take the published rate of their UK day, as in the pack;
          // without the prices they are refused, never valued at nothing.
          const customer = valueAtDayRates(
            readCustomerFiles(uploads),
            prices ??
              'the export gives no value in pounds for this row: give --prices with the published daily prices (tax/fiat-prices.json) to value it at its UK day\u2019s rate as the pack does, or give the row in a plain-format file with its value',
          );
          const combined = combineOwnRecords(
            { transactions, flags: [] },
            customer,
            chain.openingAt ?? undefined,
          );
          transactions = combined.transactions;
          const stale = (prices?.staleDays() ?? []).map(({ ukDate, price }) => ({
            date: ukDate,
            kind: 'stale-rate' as const,
            text: `${ukDate}: no TAO/GBP rate was published at the end of this UK day: your rows of it are valued at the rate of ${price.date}, at most ${MAX_RATE_AGE_DAYS} days older.`,
          }));
          // The points to check, as the pack's PDF words them (a point raised on many days is one line).
          points = groupFlags(
            [...combined.flags, ...stale].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
          ).map(groupedFlagLine);
        }
        report = computeGains(transactions);
      } catch (error) {
        // One line naming the file and its line: runProgram prints the message's first line.
        if (error instanceof CgtInputError) throw new Error(`${file} ${error.message}`);
        if (error instanceof CustomerInputsRejected) throw new Error(error.message);
        throw error;
      }
      if (flags.json) {
        const json = { ...cgtJson(report), ...(points ? { points_to_check: points } : {}) };
        process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      } else {
        const listed =
          points && points.length > 0 ? `\nPoints to check\n${points.map((p) => `- ${p}\n`).join('')}` : '';
        process.stdout.write(cgtTable(report) + listed);
      }
    });
  return tax;
}

/**
 * `tax/fiat-prices.json` as published: TAO's daily rates, and each other asset's it carries (`assets`); a
 * file that is not one is named in one line.
 */
function readPrices(path: string, text: string): GbpPrices & DayRates {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON: give the published tax/fiat-prices.json`);
  }
  const parsed = TaxFiatPrices.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${path} is not a tax/fiat-prices.json ({ days: [{ date, usd, gbp, source }] })`);
  }
  return withAssetRates(new GbpPrices(parsed.data.days), parsed.data.assets ?? {});
}
