/**
 * BittyTax's converter (`bittytax_conv`, its `conv/parsers/`), run unchanged from the same source as
 * `runBittyTax` (test/support/bittytax.ts), offline in the same way: it turns an exchange's export into
 * BittyTax transaction records, and those records are a second reading of the export, independent of the
 * pack's own readers. Values it would have to look up (income, a trade against another currency) come out
 * empty, since its config names no price source.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readCsv } from '../../pipeline/csv/read-csv.js';
import {
  BittyTaxError,
  type BittyTaxLocation,
  locateBittyTax,
  networkNamespaceWorks,
  OFFLINE_CONFIG,
  PYTHON,
} from './bittytax.js';

const run = promisify(execFile);

/** One record the converter wrote (its output CSV's columns; empty cells are ''). */
export interface ConvRecord {
  type: string;
  buyQuantity: string;
  buyAsset: string;
  buyValue: string;
  sellQuantity: string;
  sellAsset: string;
  sellValue: string;
  feeQuantity: string;
  feeAsset: string;
  feeValue: string;
  wallet: string;
  timestamp: string;
  note: string;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * The converter's records of one export file (`fileName` keeps the name a person downloads it under).
 * Throws BittyTaxError when it does not recognise the file or reports a row it could not convert.
 */
export async function runBittyTaxConv(
  fileText: string,
  fileName: string,
  location?: BittyTaxLocation,
  /** More lines of BittyTax's config (`binance_statements_only: True`: a statement is the whole record). */
  config = '',
): Promise<{ parser: string; records: ConvRecord[] }> {
  const where = location ?? (await locateBittyTax());
  if ('skip' in where) throw new BittyTaxError(`BittyTax is not available: ${where.skip}`);
  const dir = await mkdtemp(join(tmpdir(), 'bittytax-conv-'));
  try {
    await mkdir(join(dir, '.bittytax'));
    await writeFile(join(dir, '.bittytax', 'bittytax.conf'), OFFLINE_CONFIG + config);
    const input = join(dir, fileName);
    const output = join(dir, 'records.csv');
    await writeFile(input, fileText);
    const args = ['-m', 'bittytax.conv.bittytax_conv', input, '--format', 'CSV', '-o', output];
    const [file, argv] = networkNamespaceWorks()
      ? ['unshare', ['--net', '--', PYTHON, ...args]]
      : [PYTHON, args];
    const env = {
      ...process.env,
      PYTHONPATH: where.pythonPath,
      BITTYTAX_DATA_DIR: dir,
      PYTHONIOENCODING: 'utf-8',
    };
    let printed: string;
    try {
      const done = await run(file, argv, { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 });
      printed = (done.stdout + done.stderr).replace(ANSI, '');
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new BittyTaxError(`bittytax_conv failed: ${String(error)}\n${stdout}${stderr}`);
    }
    const problems = printed.split('\n').filter((line) => /\b(ERROR|WARNING)\b|not supported/i.test(line));
    if (problems.length > 0) throw new BittyTaxError(`bittytax_conv reported:\n${printed}`);
    const text = await readFile(output, 'utf8').catch(() => {
      throw new BittyTaxError(`bittytax_conv wrote no records:\n${printed}`);
    });
    const table = readCsv(text, []);
    if (table.problems.length > 0) throw new BittyTaxError(`bittytax_conv's output is not CSV:\n${text}`);
    const cell = (values: Record<string, string>, name: string) => (values[name] ?? '').trim();
    const records = table.records.map(({ values }) => ({
      type: cell(values, 'type'),
      buyQuantity: cell(values, 'buy quantity'),
      buyAsset: cell(values, 'buy asset'),
      buyValue: cell(values, 'buy value in gbp'),
      sellQuantity: cell(values, 'sell quantity'),
      sellAsset: cell(values, 'sell asset'),
      sellValue: cell(values, 'sell value in gbp'),
      feeQuantity: cell(values, 'fee quantity'),
      feeAsset: cell(values, 'fee asset'),
      feeValue: cell(values, 'fee value in gbp'),
      wallet: cell(values, 'wallet'),
      timestamp: cell(values, 'timestamp'),
      note: cell(values, 'note'),
    }));
    const parser = /matched as "([^"]+)"/.exec(printed + text)?.[1] ?? '';
    return { parser, records };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
