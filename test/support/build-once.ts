/**
 * Something built once per test run and shared by the test files that need it (a published world): the
 * first file to ask builds it in `dir` while holding a lock (`dir.lock`); the others wait for it and reuse
 * it. The folder is keyed by the caller (usually by the vitest run, `process.ppid`).
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Long enough for the slowest shared world on two busy cores. */
const WAIT_MS = 600_000;

export async function buildOnce(dir: string, build: (dir: string) => Promise<void>): Promise<void> {
  const ready = join(dir, 'ready');
  if (await exists(ready)) return;
  const lock = `${dir}.lock`;
  try {
    await mkdir(lock);
  } catch {
    await waitForBuild(ready, lock);
    return;
  }
  try {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await build(dir);
    await writeFile(ready, 'ok');
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function waitForBuild(ready: string, lock: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (await exists(ready)) return;
    // The builder lets go of the lock when it is done: without `ready`, its build failed.
    if (!(await exists(lock))) {
      if (await exists(ready)) return;
      throw new Error(`${ready}: another test file's build failed (its output says why)`);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${ready}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
