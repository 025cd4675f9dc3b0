/**
 * Runs `sbm tax cgt` in this process the way the CLI does (the real `tax` command under `runProgram`), on a
 * CSV file written to a temp folder, and returns what a user sees: exit code, stdout, stderr.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { vi } from 'vitest';
import { runProgram } from '../../../../pipeline/command-line.js';
import { taxCommand } from '../../../../pipeline/tax/products/tax-command.js';
import type { CgtJson } from '../../../../pipeline/tax/uk-rules/cgt/cgt-json.js';

export interface CgtRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The file the run read, for messages that name it. */
  file: string;
}

/** `rows` are the data lines; the header `datetime,asset,action,quantity,gbp` is added unless `header` is given. */
export async function runCgt(rows: readonly string[], options: { json?: boolean; header?: string } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'sbm-cgt-'));
  const file = join(dir, 'transactions.csv');
  try {
    await writeFile(
      file,
      `${[options.header ?? 'datetime,asset,action,quantity,gbp', ...rows].join('\n')}\n`,
    );
    return { ...(await runArgs(['tax', 'cgt', file, ...(options.json ? ['--json'] : [])])), file };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The parsed `--json` report of `rows`; fails the test with the error line when the command refuses them. */
export async function cgtReport(rows: readonly string[]): Promise<CgtJson> {
  const run = await runCgt(rows, { json: true });
  if (run.code !== 0) throw new Error(`sbm tax cgt exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as CgtJson;
}

export async function runArgs(args: readonly string[]): Promise<Omit<CgtRun, 'file'>> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const program = new Command('sbm').addCommand(taxCommand());
    const code = await runProgram(program, ['node', 'sbm', ...args], { debug: false });
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
