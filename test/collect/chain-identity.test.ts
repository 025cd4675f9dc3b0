/**
 * A warehouse holds one chain. Collected from one sandbox, then pointed at a sandbox started on another day
 * (what `make demo` does when rerun later: another genesis time, so other blocks and other hashes), the
 * collection stops with one line saying the data belongs to another chain and writes nothing; the same for a
 * node whose block at the warehouse's last collected day is not the one collected (a node that lost or
 * replaced it). The demo sets such a warehouse aside and starts afresh.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectError, collect } from '../../pipeline/collect/collect.js';
import { setAsideOtherChain } from '../../pipeline/demo/fresh-data.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';

const DAY = 86_400_000;
const GENESIS = new Date('2025-06-01T00:00:00Z');
const options = (genesis: Date): DevnetOptions => ({
  ...defaultDevnetOptions,
  seed: 'chain-identity',
  historyDays: 2,
  genesis,
  blockTimeMs: 600_000,
  now: () => genesis.getTime() + 2.5 * DAY,
  port: 0,
  pricePort: 0,
  runtimes: 'legacy',
});

let dir: string;
let first: RunningDevnet;
let nextDay: RunningDevnet;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-chain-identity-'));
  first = await startDevnet(options(GENESIS));
  // The same seed and history started a day later: another chain.
  nextDay = await startDevnet(options(new Date(GENESIS.getTime() + DAY)));
});

afterAll(async () => {
  await first?.stop();
  await nextDay?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function counts(path: string) {
  const wh = await openWarehouse(path, { readOnly: true });
  try {
    const [row] = await wh.rows(
      `SELECT (SELECT count(*) FROM collected_days) AS days, (SELECT count(*) FROM burns) AS burns,
              (SELECT count(*) FROM staking_events) AS events, (SELECT min(genesis_hash) FROM chain_identity) AS genesis`,
    );
    return {
      days: Number(row!['days']),
      burns: Number(row!['burns']),
      events: Number(row!['events']),
      genesis: row!['genesis'],
    };
  } finally {
    wh.close();
  }
}

describe('a warehouse holds one chain', () => {
  it('records the genesis hash and refuses a sandbox of another day, in one line, writing nothing', async () => {
    const path = join(dir, 'one.duckdb');
    await collect({ chainUrl: first.url, warehousePath: path, concurrency: 16 });
    const before = await counts(path);
    expect(before.days).toBeGreaterThan(0);
    expect(before.genesis).toBe(first.blockHash(0));
    expect(nextDay.blockHash(0)).not.toBe(first.blockHash(0));

    const refused = collect({ chainUrl: nextDay.url, warehousePath: path, concurrency: 16 });
    await expect(refused).rejects.toBeInstanceOf(CollectError);
    const message = await refused.catch((error: Error) => error.message);
    expect(message).toMatch(/holds another chain's data \(genesis 0x[0-9a-f]{64}\)/);
    expect(message).not.toContain('\n');
    expect(await counts(path)).toEqual(before);

    // The chain it holds is still welcome: the collection resumes.
    await collect({ chainUrl: first.url, warehousePath: path, concurrency: 16 });
    expect((await counts(path)).days).toBe(before.days);
  });

  it('refuses a node whose block at the last collected day is another one', async () => {
    const path = join(dir, 'two.duckdb');
    await collect({ chainUrl: first.url, warehousePath: path, concurrency: 16 });
    const wh = await openWarehouse(path);
    const [last] = await wh.rows('SELECT max(day) AS day, max(last_block) AS block FROM collected_days');
    // As a node that lost that block and built another in its place would answer.
    await wh.run(
      `UPDATE collected_days SET last_block_hash = $hash WHERE day = (SELECT max(day) FROM collected_days)`,
      {
        hash: `0x${'11'.repeat(32)}`,
      },
    );
    wh.close();
    const before = await counts(path);
    const message = await collect({ chainUrl: first.url, warehousePath: path, concurrency: 16 }).catch(
      (error: Error) => error.message,
    );
    expect(message).toContain(`block ${Number(last!['block'])}`);
    expect(message).toContain(
      `0x${'11'.repeat(32)} there and ${first.blockHash(Number(last!['block']))} on the node`,
    );
    expect(await counts(path)).toEqual(before);
  });

  it('tells a warehouse collected before hashes were kept by its last block\u2019s time', async () => {
    const path = join(dir, 'old.duckdb');
    await collect({ chainUrl: first.url, warehousePath: path, concurrency: 16 });
    const wh = await openWarehouse(path);
    // As an older version left it: no genesis recorded, no block hashes.
    await wh.run('DELETE FROM chain_identity');
    await wh.run('UPDATE collected_days SET last_block_hash = NULL');
    wh.close();
    const before = await counts(path);
    const message = await collect({ chainUrl: nextDay.url, warehousePath: path, concurrency: 16 }).catch(
      (error: Error) => error.message,
    );
    expect(message).toMatch(/holds another chain's data: block \d+, the last of [-\d]+, is stamped /);
    expect(await counts(path)).toEqual(before);
    // Its own chain still collects, and records the genesis hash from then on.
    await collect({ chainUrl: first.url, warehousePath: path, concurrency: 16 });
    expect((await counts(path)).genesis).toBe(first.blockHash(0));
  });

  it('the demo sets another chain\u2019s warehouse aside and keeps one of its own chain', async () => {
    const warehousePath = join(dir, 'demo.duckdb');
    const emissionsPath = join(dir, 'emissions.duckdb');
    await collect({ chainUrl: first.url, warehousePath, concurrency: 16 });
    expect(
      await setAsideOtherChain(first.url, { warehousePath, emissionsPath, dataDir: dir }, new Date()),
    ).toEqual([]);
    expect(existsSync(warehousePath)).toBe(true);
    // Never a warehouse outside the demo's own folder.
    expect(
      await setAsideOtherChain(
        nextDay.url,
        { warehousePath, emissionsPath, dataDir: join(dir, 'elsewhere') },
        new Date(),
      ),
    ).toEqual([]);
    const statePath = join(dir, 'gateway.sqlite');
    await writeFile(statePath, 'the earlier chain\u2019s cached checks');
    const moved = await setAsideOtherChain(
      nextDay.url,
      { warehousePath, emissionsPath, dataDir: dir, statePath },
      new Date(),
    );
    expect(existsSync(statePath)).toBe(false);
    expect(moved.some((file) => file.includes('gateway.sqlite.another-chain-'))).toBe(true);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved[0]).toMatch(/demo\.duckdb\.another-chain-/);
    expect(existsSync(warehousePath)).toBe(false);
    // A fresh collection of the new chain follows.
    await collect({ chainUrl: nextDay.url, warehousePath, concurrency: 16 });
    expect((await counts(warehousePath)).genesis).toBe(nextDay.blockHash(0));
  });
});
