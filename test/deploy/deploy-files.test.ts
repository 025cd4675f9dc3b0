/**
 * The deploy/ files name real things: every command the systemd units and the cron file run exists
 * (its `--help` answers, with the flags used), every variable of the environment file is one the code
 * reads, and systemd itself accepts the units (`systemd-analyze verify`: Debian's `systemd` package,
 * installed with apt-get when absent and this is root, see debian-tool.ts; skipped with the reason in
 * the title elsewhere).
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { debianTool } from './debian-tool.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEPLOY = join(ROOT, 'deploy');
const UNITS = ['sbm-gateway.service', 'sbm-emissions-watch.service'];
const systemdAnalyze = debianTool('systemd-analyze', 'systemd');
const SYSTEMD_ANALYZE = 'path' in systemdAnalyze ? systemdAnalyze.path : null;
const SYSTEMD = 'skip' in systemdAnalyze ? `systemd (skipped: ${systemdAnalyze.skip})` : 'systemd';

/** `tsx <entry> <words…> [--flags]` of every unit's ExecStart and every cron line. */
async function commands(): Promise<{ from: string; entry: string; args: string[] }[]> {
  const found: { from: string; entry: string; args: string[] }[] = [];
  const take = (from: string, line: string) => {
    const match =
      /node_modules\/\.bin\/tsx ((?:pipeline|gateway)\/cli\.ts)((?: [a-z-]+)*)((?: --[a-z-]+(?: [^\s>-][^\s>]*)?)*)/.exec(
        line,
      );
    if (!match) return;
    found.push({ from, entry: match[1]!, args: `${match[2]}${match[3]}`.trim().split(/\s+/) });
  };
  for (const unit of UNITS) {
    for (const line of (await readFile(join(DEPLOY, 'systemd', unit), 'utf8')).split('\n')) {
      if (line.startsWith('ExecStart=')) take(unit, line);
    }
  }
  for (const line of (await readFile(join(DEPLOY, 'cron', 'sbm'), 'utf8')).split('\n')) {
    if (/^[\d*]/.test(line)) take('cron/sbm', line);
  }
  return found;
}

it('runs only commands and flags that exist', async () => {
  const found = await commands();
  expect(
    found.map(
      (c) => `${c.entry} ${c.args.filter((a) => !a.startsWith('-') && !a.startsWith('/')).join(' ')}`,
    ),
  ).toEqual([
    'gateway/cli.ts serve',
    'pipeline/cli.ts emissions watch',
    'pipeline/cli.ts daily',
    'gateway/cli.ts orders fulfil',
    'gateway/cli.ts orders reconcile',
    'gateway/cli.ts orders purge',
  ]);
  expect(found.find((c) => c.args[0] === 'daily')?.args).toContain('--metrics-file');
  const helps = await Promise.all(
    found.map(async (command) => {
      const words = command.args.filter((a) => !a.startsWith('-') && !a.startsWith('/'));
      const { stdout } = await run('npx', ['tsx', command.entry, ...words, '--help'], { cwd: ROOT });
      return { command, words, stdout };
    }),
  );
  for (const { command, words, stdout } of helps) {
    for (const flag of command.args.filter((a) => a.startsWith('--'))) {
      expect(stdout, `${command.from}: ${command.entry} ${words.join(' ')} ${flag}`).toContain(flag);
    }
  }
}, 180_000);

it('sets only variables the code reads', async () => {
  const env = await readFile(join(DEPLOY, 'sbm.env.example'), 'utf8');
  const names = [...env.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
  expect(names).toContain('SBM_TRUST_PROXY');
  expect(env).toMatch(/^SBM_TRUST_PROXY=1$/m);
  const sources: string[] = [];
  for (const dir of ['gateway', 'pipeline']) {
    for (const file of await readdir(join(ROOT, dir), { recursive: true })) {
      if (String(file).endsWith('.ts')) sources.push(await readFile(join(ROOT, dir, String(file)), 'utf8'));
    }
  }
  const code = sources.join('\n');
  const unread = names.filter((name) => !code.includes(`'${name}'`));
  expect(unread).toEqual([]);
});

describe.skipIf(!SYSTEMD_ANALYZE)(SYSTEMD, () => {
  it('accepts the units (systemd-analyze verify, with /opt/sbm pointed at this checkout)', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'sbm-units-'));
    try {
      const paths = [];
      for (const unit of UNITS) {
        const text = (await readFile(join(DEPLOY, 'systemd', unit), 'utf8')).replaceAll(
          '/opt/sbm',
          ROOT.replace(/\/$/, ''),
        );
        await writeFile(join(dir, unit), text);
        paths.push(join(dir, unit));
      }
      const result = await run(SYSTEMD_ANALYZE!, ['verify', ...paths]).then(
        ({ stdout, stderr }) => `${stdout}${stderr}`,
        (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
      );
      // The environment file and the sbm user belong to the target host, not to this machine.
      const complaints = result
        .split('\n')
        .filter((line) => line.trim() !== '' && !/sbm\.env|User=|Group=|sbm user/i.test(line));
      expect(complaints).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
