/**
 * `sbm tax cgt` as a buyer runs it with their own files: the chain side (a pack's `cgt-input.csv`, or only
 * its header) and `--records`, `--addresses`, `--opening` files written to a temp folder under the names
 * given, so that messages name them as the buyer sees them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CgtJson } from '../../../../pipeline/tax/uk-rules/cgt/cgt-json.js';
import { runArgs } from '../../uk-rules/cgt/run-cgt.js';

export const CGT_INPUT_HEADER = 'datetime,asset,action,quantity,gbp,fee_gbp,kind,counterparty';

export interface BuyerFiles {
  /** The chain side: cgt-input.csv's text (its header alone when the buyer has only records). */
  chain?: string;
  records?: Record<string, string>;
  addresses?: string;
  opening?: string;
  /** The published TAO/GBP daily prices (`tax/fiat-prices.json`'s text), for `--prices`. */
  prices?: string;
  json?: boolean;
}

export async function runWithFiles(files: BuyerFiles) {
  const dir = await mkdtemp(join(tmpdir(), 'sbm-cgt-files-'));
  try {
    const path = async (name: string, text: string) => {
      const file = join(dir, name);
      await writeFile(file, text.endsWith('\n') ? text : `${text}\n`);
      return file;
    };
    const args = ['tax', 'cgt', await path('cgt-input.csv', files.chain ?? CGT_INPUT_HEADER)];
    const records = Object.entries(files.records ?? {});
    if (records.length > 0) {
      args.push('--records');
      for (const [name, text] of records) args.push(await path(name, text));
    }
    if (files.addresses) args.push('--addresses', await path('mine.csv', files.addresses));
    if (files.opening) args.push('--opening', await path('pools.csv', files.opening));
    if (files.prices) args.push('--prices', await path('fiat-prices.json', files.prices));
    if (files.json) args.push('--json');
    return await runArgs(args);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export type CgtJsonWithPoints = CgtJson & { points_to_check?: string[] };

/** The `--json` report; fails the test with the error line when the command refuses the files. */
export async function reportWithFiles(files: BuyerFiles): Promise<CgtJsonWithPoints> {
  const run = await runWithFiles({ ...files, json: true });
  if (run.code !== 0) throw new Error(`sbm tax cgt exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as CgtJsonWithPoints;
}

/** Pounds to pence, as a person checks them. */
export const pence = (value: string | undefined) =>
  value === undefined ? undefined : Number(value).toFixed(2);
