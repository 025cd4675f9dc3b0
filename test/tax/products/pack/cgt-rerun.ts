/**
 * What an accountant does with a pack: runs the gains engine (`sbm tax cgt`'s) on its cgt-input.csv alone.
 * Both sides as `date|asset|gain` lines, the pack's from disposals.csv and the rerun's for the same tax year.
 */
import { Decimal } from 'decimal.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { readCgtCsv } from '../../../../pipeline/tax/uk-rules/cgt/read-cgt-csv.js';
import { readCsv } from './read-pack-csv.js';

export function rerunCgtInput(
  files: ReadonlyMap<string, string>,
  taxYear: string,
): { fromPack: string[]; rerun: string[] } {
  // The reader `sbm tax cgt` uses, so a column the pack adds (fee_gbp) is read as the command reads it.
  const report = computeGains(readCgtCsv(files.get('cgt-input.csv')!));
  const fromPack = readCsv(files.get('disposals.csv')!).map(
    (row) => `${row['date']}|${row['asset']}|${row['gain_gbp']}`,
  );
  const rerun = report.disposals
    .filter((d) => d.taxYear === taxYear)
    .map((d) => `${d.date}|${d.asset}|${d.gain.toFixed(8, Decimal.ROUND_HALF_EVEN)}`);
  return { fromPack, rerun };
}
