/**
 * What `sbm tax cgt` says about input it cannot use: a non-zero exit and exactly one line on stderr naming the
 * file's line, never a stack trace, and nothing on stdout.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runArgs, runCgt } from './run-cgt.js';

const run = promisify(execFile);

function expectOneLineRefusal(result: { code: number; stdout: string; stderr: string }, says: string): void {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).toContain(says);
}

describe('sbm tax cgt refuses bad input with one line naming the line', () => {
  it.each([
    [
      'a missing column',
      'datetime,asset,action,quantity',
      ['2024-01-01,TAO,acquire,1'],
      'line 1: missing column "gbp"',
    ],
    [
      'an unknown action',
      undefined,
      ['2024-01-01,TAO,acquire,1,10', '2024-01-02,TAO,sell,1,10'],
      'line 3: action "sell" is not acquire or dispose',
    ],
    [
      'a date that does not exist',
      undefined,
      ['2024-02-30,TAO,acquire,1,10'],
      'line 2: datetime "2024-02-30" is not an ISO 8601 date or date and time',
    ],
    [
      'a number in exponent notation',
      undefined,
      ['2024-01-01,TAO,acquire,1e3,10'],
      'line 2: quantity "1e3" is not a plain decimal',
    ],
    [
      'a number with a thousands separator',
      undefined,
      ['2024-01-01,TAO,acquire,1,"1,000"'],
      'line 2: gbp "1,000" is not a plain decimal',
    ],
    [
      'a negative quantity',
      undefined,
      ['2024-01-01,TAO,acquire,1,10', '2024-01-02,TAO,dispose,-1,10'],
      'line 3: quantity -1 must be greater than zero',
    ],
    [
      'a zero quantity',
      undefined,
      ['2024-01-01,TAO,acquire,0,10'],
      'line 2: quantity 0 must be greater than zero',
    ],
    [
      'negative proceeds',
      undefined,
      ['2024-01-01,TAO,acquire,1,-10'],
      'line 2: gbp -10 must not be negative',
    ],
    ['an empty asset', undefined, ['2024-01-01, ,acquire,1,10'], 'line 2: asset is empty'],
    [
      'a row with too few fields',
      undefined,
      ['2024-01-01,TAO,acquire,1,10', '2024-01-02,TAO,dispose,1'],
      'line 3: expected 5 fields, found 4',
    ],
    [
      'a disposal of more than is held',
      undefined,
      ['2024-01-01,TAO,acquire,1,10', '2024-01-02,SN1,acquire,5,10', '2024-01-03,TAO,dispose,1.5,30'],
      'line 4: disposal of 1.5 TAO on 2024-01-03 is more than the 1 held that UK day',
    ],
    [
      'a disposal covered only by a later day',
      undefined,
      ['2024-01-02,TAO,dispose,1,30', '2024-01-03,TAO,acquire,1,10'],
      'line 2: disposal of 1 TAO on 2024-01-02 is more than the 0 held that UK day',
    ],
  ])('%s', async (_what, header, rows, says) => {
    const result = await runCgt(rows, header === undefined ? {} : { header });
    expectOneLineRefusal(result, says);
    // The line is that of the file the user named.
    expect(result.stderr.startsWith(`error: ${result.file} ${says}`)).toBe(true);
  });

  it('names the first problem and counts the others', async () => {
    const result = await runCgt([
      '2024-01-01,TAO,buy,1,10',
      '2024-01-02,TAO,acquire,x,10',
      'nope,TAO,acquire,1,1',
    ]);
    expectOneLineRefusal(result, 'line 2: action "buy" is not acquire or dispose (and 2 more problems)');
  });

  it('allows a disposal before the acquisition that covers it on the same UK day', async () => {
    // s105: the day's acquisitions are one acquisition, matched first with the day's disposals.
    const result = await runCgt(['2024-01-02T09:00,TAO,dispose,1,30', '2024-01-02T15:00,TAO,acquire,1,10']);
    expect(result.code).toBe(0);
  });

  it('says so in one line when the file cannot be read', async () => {
    const result = await runArgs(['tax', 'cgt', join(tmpdir(), 'sbm-cgt-no-such-file.csv')]);
    expectOneLineRefusal(result, 'cannot read');
    expect(result.stderr).toContain('ENOENT');
  });

  it('exits 1 with the one line from the real command line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sbm-cgt-cli-'));
    try {
      const file = join(dir, 'in.csv');
      await writeFile(
        file,
        'datetime,asset,action,quantity,gbp\n2024-01-01,TAO,acquire,1,10\n2024-01-02,TAO,dispose,2,30\n',
      );
      const failure = await run(process.execPath, [
        '--import',
        'tsx',
        'pipeline/cli.ts',
        'tax',
        'cgt',
        file,
      ]).then(
        () => null,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failure).not.toBeNull();
      expectOneLineRefusal(
        { code: failure?.code ?? 0, stdout: failure?.stdout ?? '', stderr: failure?.stderr ?? '' },
        `error: ${file} line 3: disposal of 2 TAO on 2024-01-02 is more than the 1 held that UK day`,
      );
      expect(failure?.code).toBe(1);

      // The same file with the disposal cut to what is held goes through, exit 0.
      await writeFile(
        file,
        'datetime,asset,action,quantity,gbp\n2024-01-01,TAO,acquire,1,10\n2024-01-02,TAO,dispose,1,30\n',
      );
      const ok = await run(process.execPath, [
        '--import',
        'tsx',
        'pipeline/cli.ts',
        'tax',
        'cgt',
        file,
        '--json',
      ]);
      expect(JSON.parse(ok.stdout).tax_years).toEqual([
        { tax_year: '2023/24', disposals: 1, proceeds: '30', costs: '10', gains: '20', losses: '0' },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
