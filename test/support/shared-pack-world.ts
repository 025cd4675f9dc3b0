/**
 * A pack world (`publishPackWorld`: a sandbox collected and published by the real pipeline) that several
 * test files build with the same options, collected and published once per test run. Each file gets its
 * own copy of the published folder (what it writes there, packs and emails, stays its own) and its own
 * sandbox chain started from the saved options: the same seed and clock give the same chain, which is
 * checked at the head block and its hash.
 *
 * Only for fixed-clock worlds: a world on the real clock differs from one minute to the next.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DevnetOptions, startDevnet } from '../../pipeline/devnet/index.js';
import { FolderObjectStore } from '../../pipeline/store/index.js';
import { type PackWorld, type PackWorldOptions, publishPackWorld } from '../tax/products/pack/pack-world.js';
import { buildOnce } from './build-once.js';

/** What a file needs to start the published world's chain: its options (no functions) and its clock. */
interface SavedChain {
  options: Omit<DevnetOptions, 'now' | 'genesis'> & { genesis: string };
  nowMs: number;
  /** The head of the chain the world was published from, and its hash. */
  head: number;
  headHash: string;
}

export async function sharedPackWorld(options: PackWorldOptions): Promise<PackWorld> {
  if (options.realClock) throw new Error('sharedPackWorld: a real-clock world cannot be shared');
  const key = createHash('sha256').update(JSON.stringify(options)).digest('hex').slice(0, 12);
  const shared = join(tmpdir(), `sbm-shared-pack-world-${process.ppid}-${key}`);
  await buildOnce(shared, async (into) => {
    const world = await publishPackWorld(options);
    try {
      await cp(world.dir, join(into, 'world'), { recursive: true });
      const saved: SavedChain = {
        options: { ...world.options, genesis: world.options.genesis!.toISOString() },
        nowMs: world.nowMs,
        head: world.devnet.head(),
        headHash: world.devnet.blockHash(world.devnet.head()),
      };
      await writeFile(join(into, 'chain.json'), JSON.stringify(saved));
    } finally {
      await world.close();
    }
  });
  const saved = JSON.parse(await readFile(join(shared, 'chain.json'), 'utf8')) as SavedChain;
  const dir = await mkdtemp(join(tmpdir(), 'sbm-pack-world-copy-'));
  await cp(join(shared, 'world'), dir, { recursive: true });
  const devnetOptions: DevnetOptions = {
    ...saved.options,
    genesis: new Date(saved.options.genesis),
    now: () => saved.nowMs,
  };
  const devnet = await startDevnet(devnetOptions).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  const close = async () => {
    await devnet.stop();
    await rm(dir, { recursive: true, force: true });
  };
  if (devnet.head() !== saved.head || devnet.blockHash(devnet.head()) !== saved.headHash) {
    await close();
    throw new Error(
      `the shared pack world's chain restarted at block ${devnet.head()}, published at ${saved.head}`,
    );
  }
  return {
    dir,
    store: new FolderObjectStore(join(dir, 'store')),
    devnet,
    options: devnetOptions,
    nowMs: saved.nowMs,
    close,
  };
}
