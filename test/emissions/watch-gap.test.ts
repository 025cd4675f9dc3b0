/**
 * A node that goes away between samples: the watch logs the failed sample, reconnects once the node is
 * back, and the missed interval is published as a gap in `coverage` and an absent hour in the history.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmissionEvents, EmissionHistory } from '../../pipeline/contract/emissions.js';
import { EMISSIONS_NAMESPACE, emissionPaths } from '../../pipeline/contract/snapshot-paths.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import type { SampleResult } from '../../pipeline/emissions/sample-once.js';
import { watch } from '../../pipeline/emissions/watch.js';
import { FolderObjectStore, readManifest, readPublishedObject } from '../../pipeline/store/index.js';

const HOUR = 3_600_000;

describe('emissions watch across a node outage', () => {
  let dir: string;
  let clock = Date.parse('2025-06-19T09:00:00Z');
  let devnet: RunningDevnet;
  const options = (port: number): DevnetOptions => ({
    ...defaultDevnetOptions,
    historyDays: 10,
    genesis: new Date('2025-06-10T00:00:00Z'),
    port,
    pricePort: 0,
    now: () => clock,
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-emissions-gap-'));
    devnet = await startDevnet(options(0));
  });

  afterAll(async () => {
    await devnet?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('records the missed sample as a gap in coverage and leaves it absent from the history', async () => {
    const store = new FolderObjectStore(join(dir, 'store'));
    const port = Number(new URL(devnet.url).port);
    const results: SampleResult[] = [];
    const errors: unknown[] = [];
    let attempt = 0;
    const summary = await watch({
      chainUrl: devnet.url,
      rpc: {
        maxAttempts: 2,
        baseDelayMs: 20,
        reconnectTimeoutMs: 1_000,
        connectTimeoutMs: 2_000,
        requestTimeoutMs: 3_000,
      },
      dbPath: join(dir, 'emissions.duckdb'),
      store,
      baseUrl: 'http://sbm.test',
      keepRuns: 2,
      intervalMs: HOUR,
      concurrency: 8,
      now: () => new Date(clock),
      maxAttempts: 5,
      onSample: (result) => results.push(result),
      onError: (error) => errors.push(error),
      sleep: async (ms) => {
        clock += ms;
        attempt += 1;
        if (attempt === 2) await devnet.stop(); // the third sample (11:00) finds no node
        if (attempt === 3) devnet = await startDevnet(options(port)); // back on the same port, same world
      },
    });
    expect(summary).toEqual({ attempts: 5, sampled: 4, unchanged: 0, failed: 1 });
    expect(errors).toHaveLength(1);
    expect(results.map((r) => r.checked_at.slice(11, 16))).toEqual(['09:00', '10:00', '12:00', '13:00']);

    const manifest = (await readManifest(store, EMISSIONS_NAMESPACE))!;
    const read = async <T>(path: string) =>
      JSON.parse(new TextDecoder().decode((await readPublishedObject(store, manifest, path))!.body)) as T;
    const events = await read<EmissionEvents>(emissionPaths.events(7, null));
    expect(events.coverage).toBe('partial');
    expect(events.gaps).toEqual([
      {
        from: results[1]!.block_time,
        to: results[2]!.block_time,
        from_block: results[1]!.block,
        to_block: results[2]!.block,
      },
    ]);
    const history = await read<EmissionHistory>(emissionPaths.history(5, 7));
    expect(history.gaps).toEqual(events.gaps);
    // One row per sampled hour; the missed hour is absent, not a zero and not interpolated.
    expect(history.rows.map((r) => r.time.slice(11, 13))).toEqual(['08', '09', '11', '12']);
    expect(history.rows.map((r) => r.block)).toEqual(results.map((r) => r.block));
  });
});
