/**
 * A PostgreSQL server of its own for the order fault run, so it can be restarted in the middle of
 * transactions without touching the machine's server: Debian's binaries (`initdb`, `pg_ctl` under
 * /usr/lib/postgresql/<version>/bin), a fresh data directory in a temporary folder, a free port, trust
 * authentication on loopback. As root it runs the binaries as the `postgres` user (initdb refuses root).
 * Null when no binaries are installed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../pipeline/demo/child-process.js';

const run = promisify(execFile);

export interface PrivatePostgres {
  url: string;
  version: string;
  /** `pg_ctl restart -m immediate`: every connection dropped, open transactions lost, then up again. */
  restartImmediate(): Promise<void>;
  stop(): Promise<void>;
}

async function findBin(): Promise<{ bin: string; version: string } | null> {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = (await readdir(root)).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'pg_ctl')) && existsSync(join(bin, 'initdb'))) return { bin, version };
  }
  return null;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres | null> {
  const found = await findBin();
  if (!found) return null;
  const dir = await mkdtemp(join(tmpdir(), 'sbm-fault-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(found.bin, tool), ...args], { cwd: dir })
      : run(join(found.bin, tool), args, { cwd: dir });
  const port = await freePort();
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60'];
  await pg('pg_ctl', ['start', ...start]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    version: found.version,
    async restartImmediate() {
      await pg('pg_ctl', ['restart', '-m', 'immediate', ...start]);
    },
    async stop() {
      await pg('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
