/**
 * The emissions samples copied to the object store after each sample, and `sbm emissions restore` (the real
 * command, a child process) rebuilding a lost database from the copies: on a folder store and on a bucket of
 * the real S3 server. The watch samples the sandbox over a real WebSocket on a fake clock that the sandbox's
 * head shares. A sample whose copy cannot be written (the store unreachable, standing in for a disk lost
 * between the record and the copy) is copied by the next sample; the database is then lost after one more
 * such sample, and the restore gets back every sample but that last one, with the same tracks and verified
 * events.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToEnd } from '../../pipeline/demo/child-process.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { withEmissionsDb } from '../../pipeline/emissions/emissions-db.js';
import { type SampleResult, sampleOnce } from '../../pipeline/emissions/sample-once.js';
import { watch } from '../../pipeline/emissions/watch.js';
import { FolderObjectStore, type ObjectStore, S3ObjectStore } from '../../pipeline/store/index.js';
import { sharedS3Server } from '../services/shared-s3-server.js';

const HOUR = 3_600_000;
const INTERVAL = 6 * HOUR;
/** Samples the watch takes first: three days at six hours. */
const WATCHED = 12;
const RPC = { maxAttempts: 2, baseDelayMs: 20, reconnectTimeoutMs: 1_000, connectTimeoutMs: 3_000 };

const s3 = await sharedS3Server();

interface Implementation {
  name: string;
  /** A fresh, empty store, and the URL and environment the command line needs to open it. */
  open(dir: string): { store: ObjectStore; url: string; env: NodeJS.ProcessEnv };
}

const implementations: Implementation[] = [
  {
    name: 'folder',
    open: (dir) => ({
      store: new FolderObjectStore(join(dir, 'store')),
      url: `file:${join(dir, 'store')}`,
      env: {},
    }),
  },
  {
    name: `s3 on ${s3.kind}`,
    open: () => {
      const prefix = `emission-copies-${randomBytes(4).toString('hex')}/`;
      return {
        store: new S3ObjectStore({
          bucket: s3.bucket,
          prefix,
          settings: { endpoint: s3.endpoint, region: s3.region, forcePathStyle: true },
          credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
        }),
        url: `s3://${s3.bucket}/${prefix}`,
        env: {
          AWS_ENDPOINT_URL: s3.endpoint,
          AWS_REGION: s3.region,
          AWS_ACCESS_KEY_ID: s3.accessKeyId,
          AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        },
      };
    },
  },
];

/** Every table the watch writes, as rows, in a fixed order. */
async function tables(path: string) {
  return withEmissionsDb(
    path,
    async (db) => ({
      sweeps: await db.rows('SELECT * FROM emission_sweeps ORDER BY block'),
      samples: await db.rows('SELECT * FROM emission_samples ORDER BY block, netuid'),
      tracks: await db.rows('SELECT * FROM emission_tracks ORDER BY netuid, registered_at'),
      events: await db.rows('SELECT * FROM emission_events ORDER BY netuid, registered_at, to_block'),
    }),
    { readOnly: true },
  );
}

describe.each(implementations)('emission samples copied to the store ($name)', (implementation) => {
  let dir: string;
  let clock = Date.parse('2025-06-14T04:00:00Z');
  let devnet: RunningDevnet;
  let opened: ReturnType<Implementation['open']>;
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
    dir = await mkdtemp(join(tmpdir(), 'sbm-emission-copies-'));
    opened = implementation.open(dir);
    devnet = await startDevnet(options());
  });

  afterAll(async () => {
    await devnet?.stop();
    await opened?.store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('restores every sample but the last one after the database is lost', async () => {
    const { store } = opened;
    const dbPath = join(dir, 'emissions.duckdb');
    const sampleOptions = (target: ObjectStore) => ({
      chainUrl: devnet.url,
      rpc: RPC,
      dbPath,
      store: target,
      baseUrl: 'http://sbm.test',
      keepRuns: 2,
      intervalMs: INTERVAL,
      concurrency: 8,
      now: () => new Date(clock),
    });
    // A store no sample can be copied to: its folder lies under a file.
    await writeFile(join(dir, 'a-file'), '');
    const unreachable = new FolderObjectStore(join(dir, 'a-file', 'store'));
    const keys = async () =>
      (await store.list('emissions-samples/')).filter((key) => key.endsWith('.json.gz'));

    // 1. The watch: every sample copied as it is taken (three days, with suspensions and restorations in them).
    const results: SampleResult[] = [];
    const summary = await watch({
      ...sampleOptions(store),
      maxAttempts: WATCHED,
      onSample: (result) => results.push(result),
      onError: (error) => {
        throw error;
      },
      sleep: async (ms) => {
        clock += ms;
      },
    });
    expect(summary).toMatchObject({ sampled: WATCHED, failed: 0 });
    expect(results.map((r) => r.copied)).toEqual(results.map(() => 1));
    const blockKey = (block: number) => `emissions-samples/${String(block).padStart(12, '0')}.json.gz`;
    expect(await keys()).toEqual(results.map((r) => blockKey(r.block)));

    // 2. A sample whose copy fails is recorded, and the next sample copies it too.
    clock += INTERVAL;
    await expect(sampleOnce(sampleOptions(unreachable))).rejects.toThrow(/cannot write "emissions-samples\//);
    clock += INTERVAL;
    const next = await sampleOnce(sampleOptions(store));
    expect(next).toMatchObject({ status: 'sampled', copied: 2 });
    const held = await tables(dbPath);
    expect(held.sweeps).toHaveLength(WATCHED + 2);
    expect(await keys()).toEqual(held.sweeps.map((row) => blockKey(Number(row['block']))));
    // The copied history holds verified transitions, which the restore must derive again.
    expect(held.events.length).toBeGreaterThan(0);

    // 3. One more sample, recorded but never copied; then the disk is lost.
    clock += INTERVAL;
    await expect(sampleOnce(sampleOptions(unreachable))).rejects.toThrow(/cannot write/);
    expect((await tables(dbPath)).sweeps).toHaveLength(WATCHED + 3);
    await rm(dbPath, { force: true });
    await rm(`${dbPath}.wal`, { force: true });

    // 4. The operator's command restores every sample but that last one, as they were.
    const env = { ...process.env, ...opened.env };
    const restore = [
      '--import',
      'tsx',
      'pipeline/cli.ts',
      'emissions',
      'restore',
      '--db',
      dbPath,
      '--store',
      opened.url,
    ];
    const out = await runToEnd(process.execPath, restore, env);
    const first = Number(held.sweeps[0]!['block']);
    const last = Number(held.sweeps.at(-1)!['block']);
    expect(out).toContain(`restored ${WATCHED + 2} samples (blocks ${first} to ${last}) into ${dbPath}`);
    expect(await tables(dbPath)).toEqual(held);
    // Again: nothing more to restore.
    const again = JSON.parse(await runToEnd(process.execPath, [...restore, '--json'], env)) as Record<
      string,
      unknown
    >;
    expect(again).toMatchObject({
      copies: WATCHED + 2,
      restored: 0,
      already_held: WATCHED + 2,
      newest_before: last,
    });

    // 5. The watch carries on from the restored database: the next sample is the only one to copy.
    clock += INTERVAL;
    const after = await sampleOnce(sampleOptions(store));
    expect(after).toMatchObject({ status: 'sampled', copied: 1 });
    expect(await keys()).toHaveLength(WATCHED + 3);
  }, 600_000); // a sandbox over WebSocket and two CLI processes: minutes on a busy 2-core machine
});
