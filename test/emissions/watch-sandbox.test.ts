/**
 * The watch against the sandbox over a real WebSocket, on a fake clock that the sandbox's head and the
 * watch share: each `sleep` of the watch moves the clock on, so days of chain pass in seconds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  EmissionEvents,
  EmissionHistory,
  EmissionsSnapshot,
} from '../../pipeline/contract/emissions.js';
import { EMISSIONS_NAMESPACE, emissionPaths } from '../../pipeline/contract/snapshot-paths.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
  truthOf,
} from '../../pipeline/devnet/index.js';
import { withEmissionsDb } from '../../pipeline/emissions/emissions-db.js';
import { type SampleResult, sampleOnce } from '../../pipeline/emissions/sample-once.js';
import { watch } from '../../pipeline/emissions/watch.js';
import {
  FolderObjectStore,
  type Manifest,
  publishRun,
  readManifest,
  readPublishedObject,
} from '../../pipeline/store/index.js';

const HOUR = 3_600_000;
/** Fails fast while the node is down, so a stopped sandbox costs a sample, not half a minute. */
const RPC = {
  maxAttempts: 2,
  baseDelayMs: 20,
  reconnectTimeoutMs: 1_000,
  connectTimeoutMs: 3_000,
  requestTimeoutMs: 5_000,
};

async function readJson<T>(store: FolderObjectStore, manifest: Manifest, path: string): Promise<T> {
  const object = await readPublishedObject(store, manifest, path);
  if (!object) throw new Error(`${path} not published`);
  return JSON.parse(new TextDecoder().decode(object.body)) as T;
}

describe('emissions watch against the sandbox', () => {
  let dir: string;
  let clock = Date.parse('2025-06-14T04:00:00Z');
  let devnet: RunningDevnet;
  let store: FolderObjectStore;
  const options = (): DevnetOptions => ({
    ...defaultDevnetOptions,
    seed: 'demo',
    historyDays: 10,
    genesis: new Date('2025-06-10T00:00:00Z'),
    port: 0,
    pricePort: 0,
    now: () => clock,
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-emissions-'));
    store = new FolderObjectStore(join(dir, 'store'));
    devnet = await startDevnet(options());
  });

  afterAll(async () => {
    await devnet?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds exactly the transitions of the truth across suspensions, restorations and a re-registration, and no event for a flap', async () => {
    // A burn run that `sbm publish` owns: the watch must leave it alone.
    const burns = await publishRun(store, {
      prefix: '',
      objects: [
        { path: 'subnets.json', body: new TextEncoder().encode('{}'), contentType: 'application/json' },
      ],
    });
    const dbPath = join(dir, 'emissions.duckdb');
    const interval = 2 * HOUR;
    const results: SampleResult[] = [];
    const flapNetuid = 10;
    let flapBlock = 0;
    const started = clock;
    const summary = await watch({
      chainUrl: devnet.url,
      rpc: RPC,
      dbPath,
      store,
      baseUrl: 'http://sbm.test',
      keepRuns: 2,
      intervalMs: interval,
      concurrency: 8,
      now: () => new Date(clock),
      maxAttempts: 46, // 2025-06-14T04:00 to 2025-06-17T22:00
      onSample: (result) => results.push(result),
      onError: (error) => {
        throw error;
      },
      sleep: async (ms) => {
        clock += ms;
        // A one-block suspension exactly at the block the next sample reads.
        if (results.length === 20) {
          flapBlock = devnet.world.headAt(clock) - defaultDevnetOptions.finalityLag;
          devnet.injectEmissionFlap(flapNetuid, flapBlock);
        }
      },
    });
    expect(summary).toEqual({ attempts: 46, sampled: 46, unchanged: 0, failed: 0 });
    expect(results.some((r) => r.block === flapBlock)).toBe(true);

    const first = results[0]!.block;
    const verifiable = results[results.length - 2]!.block;
    const truth = truthOf(devnet.world, clock, '2025-06-14', '2025-06-18');
    const flap = truth.emission_changes.filter((c) => c.netuid === flapNetuid);
    expect(flap.map((c) => c.block)).toEqual([flapBlock, flapBlock + 1]);
    const expected = truth.emission_changes.filter(
      (c) => c.block > first && c.block <= verifiable && c.netuid !== flapNetuid,
    );
    // The schedule holds a suspension with its restoration, a new subnet's first emission on a reused
    // netuid, and two more suspensions within these days.
    expect(expected.map((c) => [c.netuid, c.status])).toEqual([
      [53, 'suspended'],
      [53, 'flowing'],
      [33, 'flowing'],
      [23, 'suspended'],
      [22, 'suspended'],
    ]);
    const reused = truth.subnets.filter((s) => s.netuid === 33);
    expect(reused).toHaveLength(2); // deregistered and registered again within the sampled days

    const manifest = (await readManifest(store, EMISSIONS_NAMESPACE))!;
    const events = await readJson<EmissionEvents>(store, manifest, emissionPaths.events(7, null));
    expect(events.events).toHaveLength(expected.length);
    for (const change of expected) {
      const matching = events.events.filter(
        (e) =>
          e.netuid === change.netuid &&
          e.registered_at === change.registered_at &&
          e.kind === (change.status === 'suspended' ? 'suspended' : 'restored') &&
          e.from_block < change.block &&
          change.block <= e.to_block,
      );
      expect(matching, `${change.netuid} ${change.status} at ${change.block}`).toHaveLength(1);
      const event = matching[0]!;
      // Detected by one sample, verified by the next one at a later block.
      const detecting = results.findIndex((r) => r.block === event.detected_block);
      expect(results[detecting - 1]!.block).toBe(event.from_block);
      expect(results[detecting + 1]!.block).toBe(event.verified_block);
    }
    expect(events.events.map((e) => e.to_block)).toEqual(
      [...events.events.map((e) => e.to_block)].sort((a, b) => b - a),
    );
    // Collection began inside the window; the samples themselves were never more than 1.5 intervals apart.
    expect(events).toMatchObject({
      coverage: 'partial',
      collection_began: new Date(Date.parse(results[0]!.block_time)).toISOString(),
      gaps: [],
      freshness: 'current',
      checked_at: new Date(clock).toISOString(),
    });
    expect(manifest['checked_at']).toBe(new Date(clock).toISOString());
    expect(manifest['latest_event_date']).toBe('2025-06-17');

    const status = await readJson<EmissionsSnapshot>(store, manifest, emissionPaths.status());
    expect(status.observed_block).toBe(results.at(-1)!.block);
    const row = (netuid: number) => status.rows.find((r) => r.netuid === netuid)!;
    expect(row(22)).toMatchObject({ status: 'suspended', emission_enabled: false, tao_in_emission: 0 });
    const suspended22 = events.events.find((e) => e.netuid === 22)!;
    expect(row(22).since_block).toBe(suspended22.verified_block);
    expect(row(53)).toMatchObject({ status: 'flowing', emission_enabled: true });
    expect(row(53).tao_in_emission).toBeGreaterThan(0);
    expect(row(33).registered_at).toBe(reused[1]!.registered_at);

    // Per-netuid lists hold that netuid's events only; the reused netuid's predecessor has none.
    const of33 = await readJson<EmissionEvents>(store, manifest, emissionPaths.events(7, 33));
    expect(of33.events.map((e) => [e.kind, e.registered_at])).toEqual([
      ['restored', reused[1]!.registered_at],
    ]);

    // Hourly history: one row per sample (samples are two hours apart), oldest first, for the subnet now
    // behind the netuid only.
    const history = await readJson<EmissionHistory>(store, manifest, emissionPaths.history(33, 7));
    expect(history.resolution).toBe('hourly');
    const since = reused[1]!.registered_at;
    expect(history.rows.map((r) => r.block)).toEqual(results.map((r) => r.block).filter((b) => b >= since));
    const daily = await readJson<EmissionHistory>(store, manifest, emissionPaths.history(53, 90));
    expect(daily.resolution).toBe('daily');
    expect(daily.rows.map((r) => r.time.slice(0, 10))).toEqual([
      '2025-06-14',
      '2025-06-15',
      '2025-06-16',
      '2025-06-17',
    ]);

    // The burn manifest is untouched, and the watch kept only its own last runs.
    expect(await readManifest(store, '')).toEqual(burns.manifest);

    // The same finalized block is never sampled twice.
    const again = await sampleOnce({
      chainUrl: devnet.url,
      rpc: RPC,
      dbPath,
      store,
      baseUrl: 'http://sbm.test',
      keepRuns: 2,
      intervalMs: interval,
      concurrency: 8,
      now: () => new Date(clock),
    });
    expect(again).toMatchObject({ status: 'unchanged', version: null, block: results.at(-1)!.block });
    const sweeps = await withEmissionsDb(dbPath, (db) =>
      db.rows('SELECT count(*)::INTEGER AS n FROM emission_sweeps'),
    );
    expect(sweeps[0]!['n']).toBe(46);
    expect(clock - started).toBe(45 * interval);
  }, 240_000); // a whole sandbox life over WebSocket: minutes on a busy 2-core machine
});
