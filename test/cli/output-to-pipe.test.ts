/**
 * Issue 26 item 7: a command's output arrives whole when it goes to a pipe. The entry files used to call
 * `process.exit` as soon as the command returned; on a pipe Node writes asynchronously, and what the
 * pipe's 64 KB buffer had not taken yet was dropped (a 273 KB `sbm tax cgt --json | jq` got 128 KB).
 * Each command here prints over a megabyte, once into a file and once into a pipe whose reader waits
 * before it reads (as a busy `jq` or `gzip` does); the byte counts must match.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';

const run = promisify(execFile);
const SBM = `'${process.execPath}' --import tsx pipeline/cli.ts`;
const MEGABYTE = 1 << 20;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-pipe-'));
  // A real (empty) warehouse for `sbm sql`.
  (await openWarehouse(join(dir, 'burns.duckdb'))).close();
  // Three assets bought and partly sold every day for three years: a long `tax cgt --json` report.
  const lines = ['datetime,asset,action,quantity,gbp'];
  const start = Date.parse('2021-01-01T12:00:00Z');
  for (let day = 0; day < 1100; day++) {
    const at = new Date(start + day * 86_400_000).toISOString().replace('.000', '');
    for (const [i, asset] of ['TAO', 'SN1', 'SN2'].entries()) {
      lines.push(`${at},${asset},acquire,${10 + ((day * 7 + i) % 90)},${100 + ((day * 31 + i) % 9000)}`);
      lines.push(`${at},${asset},dispose,${1 + ((day + i) % 9)},${100 + ((day * 17 + i) % 9000)}`);
    }
  }
  await writeFile(join(dir, 'cgt.csv'), `${lines.join('\n')}\n`);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The bytes a command writes into a file, and the bytes a reader that starts a second late counts. */
async function fileAndPipe(command: string): Promise<{ file: number; piped: number }> {
  const out = join(dir, 'out');
  await run('sh', ['-c', `${command} > '${out}'`], { cwd: process.cwd() });
  const file = (await stat(out)).size;
  const { stdout } = await run('sh', ['-c', `${command} | (sleep 1; wc -c)`], { cwd: process.cwd() });
  return { file, piped: Number(stdout.trim()) };
}

describe('output to a pipe', () => {
  it('sbm sql sends its whole answer through a pipe', async () => {
    const query = "SELECT range AS n, repeat('x', 120) AS filler FROM range(20000)";
    const { file, piped } = await fileAndPipe(
      `${SBM} sql "${query}" --format csv --warehouse '${join(dir, 'burns.duckdb')}'`,
    );
    expect(file).toBeGreaterThan(MEGABYTE);
    expect(piped).toBe(file);
  }, 120_000);

  it('sbm tax cgt --json stops quietly when its reader leaves early (| head)', async () => {
    const err = join(dir, 'err');
    const { stdout } = await run(
      'bash',
      [
        '-c',
        `set -o pipefail; ${SBM} tax cgt '${join(dir, 'cgt.csv')}' --json 2>'${err}' | head -c 100 | wc -c`,
      ],
      { cwd: process.cwd() },
    );
    expect(Number(stdout.trim())).toBe(100);
    const { stdout: stderr } = await run('cat', [err]);
    expect(stderr).toBe('');
  }, 120_000);

  it('sbm tax cgt --json sends its whole report through a pipe', async () => {
    const { file, piped } = await fileAndPipe(`${SBM} tax cgt '${join(dir, 'cgt.csv')}' --json`);
    expect(file).toBeGreaterThan(MEGABYTE);
    expect(piped).toBe(file);
  }, 120_000);
});
