/**
 * `sbm publish` in bounded memory: the coldkey shards are written to the run while their events stream
 * from the warehouse (not all built first), and a failure among them leaves the previous run served. On the
 * shared sandbox world's warehouse (read-only) and a real folder store, wrapped only to record and hold
 * its calls.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishSnapshots } from '../../pipeline/snapshots/publish-snapshots.js';
import { FolderObjectStore, type ObjectStore, readManifest } from '../../pipeline/store/index.js';
import { BASE_URL, NOW_MS, type PublishedSandbox, publishedSandbox } from '../support/published-sandbox.js';

const HOUR_MS = 3_600_000;
const SHARD = /^runs\/[^/]+\/tax\/coldkeys\/[0-9a-f]{2}\.json$/;

let world: PublishedSandbox;
let shardCount: number;

beforeAll(async () => {
  world = await publishedSandbox();
  const manifest = await readManifest(new FolderObjectStore(world.storeDir), '');
  shardCount = manifest!.objects.filter((o) => SHARD.test(o.key)).length;
}, 600_000);

/** A real folder store whose calls go through `around` (to record, hold or fail them). */
function wrapped(
  folder: FolderObjectStore,
  around: (call: string, key: string, go: () => Promise<void>) => Promise<void>,
): ObjectStore {
  return {
    description: folder.description,
    put: (key, body, type) => around('put', key, () => folder.put(key, body, type)),
    get: async (key) => {
      let body: Uint8Array | null = null;
      await around('get', key, async () => {
        body = await folder.get(key);
      });
      return body;
    },
    list: (prefix) => folder.list(prefix),
    delete: (keys) => folder.delete(keys),
    close: () => folder.close(),
  };
}

async function freshFolder(): Promise<FolderObjectStore> {
  return new FolderObjectStore(await mkdtemp(join(tmpdir(), 'sbm-publish-streaming-')));
}

function publish(store: ObjectStore, hoursAfter: number, keepRuns = 3) {
  return publishSnapshots({
    warehousePath: world.warehousePath,
    store,
    baseUrl: BASE_URL,
    keepRuns,
    now: () => new Date(NOW_MS + hoursAfter * HOUR_MS),
    warn: () => {},
  });
}

// A full collection on demand, without starting node with --expose-gc.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('publishing the coldkey shards', () => {
  it('writes each shard as it is built: the shards already written are let go, not held to the end', async () => {
    expect(shardCount).toBeGreaterThan(12);
    const written: WeakRef<Uint8Array>[] = [];
    let peakAlive = 0;
    const puts: string[] = [];
    const folder = await freshFolder();
    const store: ObjectStore = {
      ...wrapped(folder, async (_call, _key, go) => go()),
      put: async (key, body, type) => {
        puts.push(key);
        if (SHARD.test(key)) {
          // When a shard arrives, how many shards already written does the publish still hold?
          collectGarbage();
          peakAlive = Math.max(peakAlive, written.filter((ref) => ref.deref() !== undefined).length);
        }
        await folder.put(key, body, type);
        if (SHARD.test(key)) written.push(new WeakRef(body));
      },
    };
    const summary = await publish(store, 1);
    expect(summary.tax.shards).toBe(shardCount);
    expect(written).toHaveLength(shardCount);
    // The last shard (or two, still being let go) at most; holding every shard until the end would keep them all.
    expect(peakAlive).toBeLessThanOrEqual(2);
    expect(puts.at(-1)).toBe('manifest.json');
  }, 300_000);

  it('a failed shard write leaves the previous run served; a later run prunes what the failed one wrote', async () => {
    const folder = await freshFolder();
    let failAt: number | null = null;
    let shardPuts = 0;
    const store = wrapped(folder, async (call, key, go) => {
      if (call === 'put' && SHARD.test(key) && failAt !== null && ++shardPuts === failAt) {
        throw new Error('disk full');
      }
      await go();
    });
    const previous = await publish(store, 1);
    const servedBytes = await folder.get('manifest.json');

    failAt = Math.floor(shardCount / 2);
    await expect(publish(store, 2)).rejects.toThrow('disk full');
    expect(await folder.get('manifest.json')).toEqual(servedBytes);
    const served = await readManifest(store, '');
    expect(served!.version).toBe(previous.version);
    // The failed run wrote shards before the failure, listed by no manifest.
    const runs = async () => [...new Set((await store.list('runs/')).map((key) => key.split('/')[1]!))];
    const failed = (await runs()).filter((version) => version !== previous.version);
    expect(failed).toHaveLength(1);
    const failedKeys = await store.list(`runs/${failed[0]}/`);
    expect(failedKeys.filter((key) => SHARD.test(key)).length).toBeGreaterThanOrEqual(failAt - 1);
    expect(served!.objects.some((o) => o.key.startsWith(`runs/${failed[0]}/`))).toBe(false);

    failAt = null;
    const next = await publish(store, 3, 1);
    expect(next.pruned.sort()).toEqual([previous.version, failed[0]].sort());
    expect(await runs()).toEqual([next.version]);
  }, 300_000);
});
