/** `sbm tax …`: the UK tax computations that run from files, without a chain or a warehouse. */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { cgtJson } from './cgt/cgt-json.js';
import { cgtTable } from './cgt/cgt-table.js';
import { CgtInputError } from './cgt/cgt-types.js';
import { computeGains } from './cgt/compute-gains.js';
import { readCgtCsv } from './cgt/read-cgt-csv.js';

export function taxCommand(): Command {
  const tax = new Command('tax').description('UK tax computations (capital gains by HMRC matching rules)');
  tax
    .command('cgt')
    .description(
      'capital gains from a CSV of acquisitions and disposals (datetime,asset,action,quantity,gbp): ' +
        'same-day, 30-day and section 104 matching, SA108 figures per UK tax year',
    )
    .argument('<file>', 'CSV file with the header datetime,asset,action,quantity,gbp')
    .option('--json', 'print the report as JSON, every figure an unrounded decimal string')
    .action(async (file: string, flags: { json?: boolean }) => {
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new Error(`cannot read ${file}: ${error.code ?? error.message}`);
      });
      let report: ReturnType<typeof computeGains>;
      try {
        report = computeGains(readCgtCsv(text));
      } catch (error) {
        // One line naming the file and its line: runProgram prints the message's first line.
        if (error instanceof CgtInputError) throw new Error(`${file} ${error.message}`);
        throw error;
      }
      process.stdout.write(flags.json ? `${JSON.stringify(cgtJson(report), null, 2)}\n` : cgtTable(report));
    });
  return tax;
}
