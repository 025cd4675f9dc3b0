/**
 * Publishing a 400-day, 64-subnet world: `publishSnapshots` from the DuckDB warehouse into a folder
 * store, three runs (each into an empty store, so every run does the same work), against a target of
 * 5 s, and, alternating with them, three runs without precompression: the ratio of the two medians is
 * what storing the brotli and gzip forms costs on this machine, held to at most 1.5 (issue 37). In the same run, the same
 * objects are written again without building anything, so the reader sees how much of a publish is
 * snapshot building and how much is I/O.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PublishSummary, publishSnapshots } from '../../pipeline/snapshots/publish-snapshots.js';
import { FolderObjectStore, readManifest } from '../../pipeline/store/index.js';
import { benchWorld, describeWorld, YEAR_WORLD } from './bench-world.js';
import { type StoredObject, timePlainCopy, timeStorePuts } from './copy-baseline.js';
import { type PublishPhases, timePublishPhases } from './publish-phases.js';
import { median, minimum, verdict } from './sample-stats.js';

const TARGET_MS = 5_000;
/** Precompression may add at most half of an uncompressed publish, measured in the same run. */
const PRECOMPRESS_RATIO_TARGET = 1.5;
const RUNS = 3;

export async function run(): Promise<void> {
  const world = await benchWorld(YEAR_WORLD);
  print(describeWorld(world));
  // Published an hour after the world's "now", as the nightly job would be.
  const publishedAt = new Date(world.nowMs + 3_600_000);
  const scratch = await mkdtemp(join(tmpdir(), 'sbm-bench-publish-'));
  try {
    const times: number[] = [];
    const uncompressed: number[] = [];
    let summary: PublishSummary | null = null;
    let store: FolderObjectStore | null = null;
    for (let i = 0; i < RUNS; i++) {
      for (const precompress of [true, false]) {
        const into = new FolderObjectStore(join(scratch, `store-${i}-${precompress ? 'br' : 'plain'}`));
        const started = performance.now();
        const published = await publishSnapshots({
          warehousePath: world.warehousePath,
          store: into,
          baseUrl: 'https://sbm.example',
          keepRuns: 3,
          now: () => publishedAt,
          precompress,
        });
        (precompress ? times : uncompressed).push(performance.now() - started);
        if (precompress) [summary, store] = [published, into];
      }
    }
    if (!summary || !store) throw new Error('no publish ran');
    print(
      `subnets: ${summary.subnets}, objects: ${summary.objects}, bytes: ${summary.bytes} (${mib(summary.bytes)})`,
    );
    print(`publish runs: ${times.map(ms).join(', ')}`);
    const best = minimum(times);
    print(
      `publish: min ${ms(best)}, median ${ms(median(times))}  target < ${ms(TARGET_MS)}  ${verdict(median(times) < TARGET_MS)}`,
    );
    const ratio = median(times) / median(uncompressed);
    print(
      `publish without precompression: runs ${uncompressed.map(ms).join(', ')}, median ${ms(median(uncompressed))}; ` +
        `with it ${ratio.toFixed(2)}×  target ≤ ${PRECOMPRESS_RATIO_TARGET}×  ${verdict(ratio <= PRECOMPRESS_RATIO_TARGET)}`,
    );

    const objects = await readRun(store);
    const copies: number[] = [];
    const puts: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      copies.push(await timePlainCopy(objects, join(scratch, `copy-${i}`)));
      puts.push(await timeStorePuts(objects, join(scratch, `puts-${i}`)));
    }
    print(
      `baseline, same ${objects.length} objects with fs.writeFile: min ${ms(minimum(copies))}, median ${ms(median(copies))}`,
    );
    print(
      `baseline, same objects with the folder store's put (datasync + rename): min ${ms(minimum(puts))}, median ${ms(median(puts))}`,
    );
    const share = minimum(puts) / best;
    print(`I/O share of a publish (store puts / publish, min vs min): ${(share * 100).toFixed(0)}%`);

    // Steps timed separately, three times: medians, so one slow sample does not decide the split.
    const steps: PublishPhases[] = [];
    for (let i = 0; i < RUNS; i++) {
      const phaseStore = new FolderObjectStore(join(scratch, `phases-${i}`));
      steps.push(await timePublishPhases(world.warehousePath, phaseStore, publishedAt));
    }
    const step = (pick: (p: PublishPhases) => number) => ms(median(steps.map(pick)));
    print(
      `publish by step (medians): read warehouse ${step((p) => p.readMs)}, build ${step((p) => p.buildMs)}, ` +
        `validate + render ${step((p) => p.renderMs)}, hash + write run ${step((p) => p.writeMs)}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The live run's objects as stored, read back through the manifest. */
async function readRun(store: FolderObjectStore): Promise<StoredObject[]> {
  const manifest = await readManifest(store, '');
  if (!manifest) throw new Error('the publish left no manifest');
  const objects: StoredObject[] = [];
  for (const entry of manifest.objects) {
    const body = await store.get(entry.key);
    if (!body) throw new Error(`published object ${entry.key} is missing`);
    objects.push({ key: entry.key, body, contentType: entry.content_type });
  }
  return objects;
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;
}

function mib(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}
