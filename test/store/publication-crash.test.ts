/**
 * All-or-nothing publication under real crashes: a separate process publishes a large run into a folder
 * store and is killed with SIGKILL at varied points (after N object writes, after a delay, during
 * pruning). After every kill the live manifest must be the previous one or the complete new one, and
 * every object it lists must read back with its recorded SHA-256.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderObjectStore } from '../../pipeline/store/folder-store.js';
import { type Manifest, readManifest } from '../../pipeline/store/manifest.js';
import { publishRun, readPublishedObject } from '../../pipeline/store/publication.js';
import { diskTempDir } from '../support/ram-temp-dir.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const CHILD = join(here, 'publish-child.ts');
const OBJECTS = 120;
const OBJECT_BYTES = 48 * 1024;
const KEEP_RUNS = 2;

// On disk: the kills by delay (5, 60, 200 ms) must land while the publisher still writes; in RAM it is done.
const root = await mkdtemp(join(diskTempDir(), 'sbm-crash-'));
afterAll(() => rm(root, { recursive: true, force: true }));

interface ChildRun {
  version: string | undefined;
  puts: number;
  sawDone: boolean;
  exit: { code: number | null; signal: NodeJS.Signals | null };
  stderr: string;
}

/**
 * Runs the publisher; `killAfterPuts` kills it once that many writes are reported, `killAfterMs` once
 * that much time has passed since it started writing. Node runs the file directly (`--import tsx`)
 * rather than through the `tsx` launcher, so the SIGKILL hits the process doing the writes.
 */
function runChild(kill: { afterPuts?: number; afterMs?: number } = {}): Promise<ChildRun> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, root, String(OBJECTS), String(OBJECT_BYTES), String(KEEP_RUNS)],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const run: ChildRun = {
    version: undefined,
    puts: 0,
    sawDone: false,
    exit: { code: null, signal: null },
    stderr: '',
  };
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      if (line.startsWith('version ')) {
        run.version = line.slice('version '.length);
        if (kill.afterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), kill.afterMs);
      } else if (line.startsWith('put ')) {
        run.puts += 1;
        if (run.puts === kill.afterPuts) child.kill('SIGKILL');
      } else if (line === 'done') {
        run.sawDone = true;
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    run.stderr += chunk.toString();
  });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      run.exit = { code, signal };
      done(run);
    });
  });
}

/** Every object the manifest lists reads back intact (readPublishedObject checks size and SHA-256). */
async function expectFullyReadable(store: FolderObjectStore, manifest: Manifest): Promise<void> {
  expect(manifest.objects.length).toBeGreaterThan(0);
  for (const entry of manifest.objects) {
    const object = await readPublishedObject(store, manifest, entry.path);
    expect(object?.sha256).toBe(entry.sha256);
  }
}

/** Runs with at least one object. (A kill between mkdir and rename can leave an empty folder; it holds no object.) */
async function versionsStored(store: FolderObjectStore): Promise<string[]> {
  return [...new Set((await store.list('runs/')).map((key) => key.split('/')[1]!))];
}

describe('publication survives SIGKILL at any point', () => {
  it('keeps the previous run served after every kill, then a complete publish succeeds and prunes', async () => {
    const store = new FolderObjectStore(root);
    const first = await publishRun(store, {
      prefix: '',
      objects: [
        {
          path: 'subnets.json',
          body: new TextEncoder().encode('{"first":true}'),
          contentType: 'application/json',
        },
      ],
      keepRuns: KEEP_RUNS,
    });
    let live = first.manifest;

    // Kill points: early, middle, late in the object writes, right after the last object (before or
    // while the manifest is written), after the manifest (during pruning), and by wall-clock delay.
    const kills: { afterPuts?: number; afterMs?: number }[] = [
      { afterPuts: 1 },
      { afterPuts: 37 },
      { afterPuts: OBJECTS - 3 },
      { afterPuts: OBJECTS },
      { afterPuts: OBJECTS + 1 },
      { afterMs: 5 },
      { afterMs: 60 },
      { afterMs: 200 },
    ];
    let interruptedBeforeSwitch = 0;
    for (const kill of kills) {
      const run = await runChild(kill);
      // A kill aimed at pruning may arrive after the child finished; any other must land mid-run.
      const mayFinish = (kill.afterPuts ?? 0) > OBJECTS && run.exit.code === 0;
      if (!mayFinish) expect(run.exit.signal, `${JSON.stringify(kill)}: ${run.stderr}`).toBe('SIGKILL');
      expect(run.version).toBeDefined();

      const manifest = await readManifest(store, '');
      expect(manifest).not.toBeNull();
      // Either the old run is still live, or the new one became live in full; nothing in between.
      expect([live.version, run.version]).toContain(manifest!.version);
      if (manifest!.version === run.version) expect(manifest!.objects).toHaveLength(OBJECTS);
      else interruptedBeforeSwitch += 1;
      await expectFullyReadable(store, manifest!);
      live = manifest!;
    }
    // The test proves something only if some kills really landed mid-run.
    expect(interruptedBeforeSwitch).toBeGreaterThanOrEqual(3);
    expect((await versionsStored(store)).length).toBeGreaterThan(KEEP_RUNS);

    const final = await runChild();
    expect(final.exit.code, final.stderr).toBe(0);
    expect(final.sawDone).toBe(true);
    const manifest = await readManifest(store, '');
    expect(manifest?.version).toBe(final.version);
    await expectFullyReadable(store, manifest!);
    // Pruned down to the newest KEEP_RUNS runs, crashed leftovers included.
    const remaining = await versionsStored(store);
    expect(remaining).toHaveLength(KEEP_RUNS);
    expect(remaining.at(-1)).toBe(final.version);
    // Half-written temp files never show up as objects.
    expect((await store.list('')).some((key) => key.includes('.partial'))).toBe(false);
  });
});
