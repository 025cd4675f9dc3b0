/**
 * A real S3 server for tests. By default Ceph's RADOS Gateway from Debian's packages (installed by
 * `ceph-s3.sh` when absent: needs root and apt-get; 7 to 20 s once, then 13 s per start, 15 to 25 s on
 * busy cores), on loopback with its data in memory and its files in a temp folder. Where it cannot be
 * installed it falls back to `s3rver` from npm and says so loudly on stderr. `SBM_TEST_S3=radosgw` or `=s3rver` forces
 * one (forcing radosgw turns an impossible install into a failure instead of a fallback). A radosgw that
 * can be installed but does not start is always a failure, with its logs, never a fallback.
 *
 * Test files do not call this: `s3-global-setup.ts` starts one server per test run, before the heavy
 * suites load the cores, and test files reach it with `sharedS3Server()` (`shared-s3-server.ts`).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

export type S3ServerKind = 'radosgw' | 's3rver';

/** What a test needs to reach the server; plain data, so the global setup can hand it to test files. */
export interface S3ServerInfo {
  kind: S3ServerKind;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Created empty at start; shared by every test file of a run, so each keeps to its own key prefix. */
  bucket: string;
  /** Milliseconds from the call to a ready, empty bucket. */
  startMs: number;
}

export interface S3TestServer extends S3ServerInfo {
  stop(): Promise<void>;
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'ceph-s3.sh');
/** `ceph-s3.sh` exits with this when it cannot install the packages (not root, no apt-get). */
const EXIT_CANNOT_INSTALL = 3;
const BUCKET = 'sbm-test';
const REGION = 'us-east-1';
/** Above the script's own deadlines (install, then mon 60 s, osd 90 s, rgw 90 s), so its reason wins. */
const START_TIMEOUT_MS = 420_000;

/** `wanted` defaults to `SBM_TEST_S3` (unset: `auto`, radosgw with the s3rver fallback). */
export async function startS3Server(
  wanted: string = process.env['SBM_TEST_S3'] ?? 'auto',
): Promise<S3TestServer> {
  if (wanted !== 'auto' && wanted !== 'radosgw' && wanted !== 's3rver') {
    throw new Error(`SBM_TEST_S3 must be radosgw, s3rver or unset, got "${wanted}"`);
  }
  const started = Date.now();
  let server: Omit<S3TestServer, 'startMs'>;
  if (wanted === 's3rver') {
    server = await startS3rver();
  } else if (process.platform !== 'linux') {
    if (wanted === 'radosgw') throw new Error('radosgw tests need Linux (Debian packages)');
    announceFallback('radosgw needs Linux with apt-get');
    server = await startS3rver();
  } else {
    try {
      server = await startRadosgw();
    } catch (error) {
      if (!(error instanceof CannotInstallError) || wanted === 'radosgw') throw error;
      announceFallback(error.message);
      server = await startS3rver();
    }
  }
  const result = { ...server, startMs: Date.now() - started };
  announce(`S3 tests run against ${result.kind} at ${result.endpoint} (ready in ${result.startMs} ms)`);
  return result;
}

class CannotInstallError extends Error {}

async function startRadosgw(): Promise<Omit<S3TestServer, 'startMs'>> {
  const dir = await mkdtemp(join(tmpdir(), 'sbm-ceph-'));
  const [monPort, s3Port] = await freePorts(2);
  const accessKeyId = 'sbmtestaccesskey';
  const secretAccessKey = 'sbmtestsecretkey';
  const stopDaemons = async (): Promise<void> => {
    await killPidFiles(dir);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // With this process's pid the script leaves a watchdog that stops the daemons if this process ends
    // without calling stop() (a killed or crashed test run).
    const { code, stdout, stderr } = await run(
      'bash',
      [
        SCRIPT,
        'start',
        dir,
        String(monPort),
        String(s3Port),
        accessKeyId,
        secretAccessKey,
        String(process.pid),
      ],
      START_TIMEOUT_MS,
    );
    if (code === EXIT_CANNOT_INSTALL)
      throw new CannotInstallError('cannot install radosgw (needs root and apt-get)');
    const ready = /^ready (\S+)$/m.exec(stdout);
    if (code !== 0 || !ready?.[1]) {
      throw new Error(
        `ceph-s3.sh start failed (${code === null ? `killed after ${START_TIMEOUT_MS} ms` : `exit ${code}`}):\n${stderr.slice(-4000)}\n${await cephLogs(dir)}`,
      );
    }
    const endpoint = ready[1];
    await createBucket(endpoint, accessKeyId, secretAccessKey);
    return {
      kind: 'radosgw',
      endpoint,
      region: REGION,
      accessKeyId,
      secretAccessKey,
      bucket: BUCKET,
      stop: stopDaemons,
    };
  } catch (error) {
    await stopDaemons();
    throw error;
  }
}

async function startS3rver(): Promise<Omit<S3TestServer, 'startMs'>> {
  const { default: S3rver } = await import('s3rver');
  const dir = await mkdtemp(join(tmpdir(), 'sbm-s3rver-'));
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3rver.run();
  return {
    kind: 's3rver',
    endpoint: `http://127.0.0.1:${port}`,
    region: REGION,
    // s3rver's one built-in account.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    bucket: BUCKET,
    stop: async () => {
      await s3rver.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function createBucket(endpoint: string, accessKeyId: string, secretAccessKey: string): Promise<void> {
  const client = new S3Client({
    endpoint,
    region: REGION,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  } finally {
    client.destroy();
  }
}

/** The daemons wrote pid files under `<dir>/run`; memstore keeps nothing worth a clean shutdown. */
async function killPidFiles(dir: string): Promise<void> {
  const pids = await readPids(dir);
  for (const pid of pids) signal(pid, 'SIGKILL');
  const deadline = Date.now() + 10_000;
  while (pids.some(isAlive) && Date.now() < deadline) await sleep(50);
}

async function readPids(dir: string): Promise<number[]> {
  const runDir = join(dir, 'run');
  const names = await readdir(runDir).catch(() => [] as string[]);
  const pids: number[] = [];
  for (const name of names.filter((n) => n.endsWith('.pid'))) {
    const pid = Number((await readFile(join(runDir, name), 'utf8').catch(() => '')).trim());
    if (Number.isInteger(pid) && pid > 1) pids.push(pid);
  }
  return pids;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The end of what explains a failed start: the daemons' error lines (level -1, ERROR, FAILED) from their
 * logs, and all of what they printed to stderr (`*.stderr`, written by ceph-s3.sh).
 */
async function cephLogs(dir: string): Promise<string> {
  const logDir = join(dir, 'log');
  const names = await readdir(logDir).catch(() => [] as string[]);
  const parts: string[] = [];
  for (const name of names.sort()) {
    const lines = (await readFile(join(logDir, name), 'utf8').catch(() => '')).split('\n');
    const shown = name.endsWith('.stderr')
      ? lines.filter((line) => line.trim() !== '')
      : lines.filter((line) => / -1 |ERROR|FAILED/.test(line));
    if (shown.length > 0) parts.push(`--- ${name} ---\n${shown.slice(-15).join('\n')}`);
  }
  return parts.join('\n');
}

function run(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<import('node:net').Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP port');
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function announce(line: string): void {
  process.stderr.write(`[s3-server] ${line}\n`);
}

/** Loud on purpose: a run on s3rver tests less (no conditional writes, no paging) and must not pass unseen. */
function announceFallback(reason: string): void {
  const rule = '*'.repeat(100);
  announce(rule);
  announce(`${reason}: FALLING BACK to s3rver, which ignores conditional writes and cannot page listings.`);
  announce('The S3 tests on this machine are weaker than on one where radosgw installs (root and apt-get).');
  announce(rule);
}
