/**
 * Vitest global setup: the run's temporary files (`os.tmpdir()`) go to a folder in RAM (`/dev/shm`) when
 * the machine has one, and the folder is removed after the last file.
 *
 * Why: the test worlds are DuckDB warehouses and SQLite/PGlite state written one transaction at a time
 * (a collection writes each day in its own transaction, and each writable open applies the schema), and on
 * a disk every commit waits for fsync. The 235-day world of the demo-flow test spent over half its
 * collection waiting for the disk (229 s on /tmp, 129 s on /dev/shm, the same CPU). What the tests check
 * does not depend on where the files are; durability across a power cut is not something they test.
 *
 * `SBM_TEST_TMPDIR=/some/dir` puts them there instead (`SBM_TEST_TMPDIR=disk` keeps the usual TMPDIR).
 * Processes the tests start inherit TMPDIR, so the servers they start write there too.
 */
import { mkdtemp, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RAM_DIR = '/dev/shm';
/**
 * The usual temporary folder, for a test whose kill timings assume a disk's pace (the publication crash
 * test kills a publisher 5, 60 and 200 ms in and needs it still writing then; in RAM it has finished).
 */
export const DISK_TMPDIR = 'SBM_TEST_DISK_TMPDIR';

/** The usual temporary folder on disk, also when the run's TMPDIR is in RAM. */
export function diskTempDir(): string {
  return process.env[DISK_TMPDIR] ?? tmpdir();
}

/** Room the run needs at most (the worlds, the S3 server's store, the browser's profile), with a margin. */
const NEEDED_BYTES = 2 * 1024 ** 3;

export default async function setup(): Promise<() => Promise<void>> {
  const chosen = process.env['SBM_TEST_TMPDIR'];
  if (chosen === 'disk') return async () => {};
  const parent = chosen ?? ((await hasRoom(RAM_DIR)) ? RAM_DIR : null);
  if (parent === null) return async () => {};
  const diskDir = tmpdir();
  const dir = await mkdtemp(join(parent, 'sbm-test-'));
  const before = process.env['TMPDIR'];
  // Set before the test processes start: they and the processes they start inherit it.
  process.env['TMPDIR'] = dir;
  // For the few tests whose timing assumes a disk's pace (see DISK_TMPDIR).
  process.env[DISK_TMPDIR] = diskDir;
  return async () => {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
    delete process.env[DISK_TMPDIR];
    await rm(dir, { recursive: true, force: true });
  };
}

async function hasRoom(dir: string): Promise<boolean> {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize >= NEEDED_BYTES;
  } catch {
    return false;
  }
}
