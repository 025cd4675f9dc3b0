/**
 * Collection at mainnet's density: the mainnet world with its traffic (weights, transfers, refused stake calls,
 * EVM transactions, batches, proxies, fees), burns among them inside `Utility.batch`/`batch_all`/`force_batch`
 * and `Proxy.proxy`. The warehouse must hold every burn of the truth, and the world's staking events; the
 * filler's own transfers are the only other rows.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../../pipeline/collect/collect.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
  type Truth,
} from '../../pipeline/devnet/index.js';
import { burnWrapper } from '../../pipeline/devnet/world/mainnet-traffic.js';
import { warehouseAsTruth } from './warehouse-as-truth.js';

const GENESIS = new Date('2025-05-01T00:00:00Z');
const DAY = 86_400_000;
const NOW = GENESIS.getTime() + 3.5 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'collect-traffic',
  historyDays: 4,
  genesis: GENESIS,
  // Minute blocks keep three days quick; each block still carries mainnet's events.
  blockTimeMs: 60_000,
  magnitudes: 'mainnet',
  runtimes: 'legacy',
  now: () => NOW,
  port: 0,
  pricePort: 0,
};
const DAYS = ['2025-05-01', '2025-05-02', '2025-05-03'];

let devnet: RunningDevnet;
let dir: string;
let path: string;
let truth: Truth;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-traffic-'));
  devnet = await startDevnet(OPTIONS);
  truth = buildTruth(OPTIONS, DAYS[0]!, DAYS[2]!);
  path = join(dir, 'traffic.duckdb');
  await collect({ chainUrl: devnet.url, warehousePath: path, from: DAYS[0]!, to: DAYS[2]!, concurrency: 32 });
}, 300_000);

afterAll(async () => {
  await devnet?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('collect at mainnet density', () => {
  it('blocks carry mainnet’s events, and burns sit inside batches and proxy calls', () => {
    let events = 0;
    for (let block = truth.days[0]!.first_block; block < truth.days[0]!.first_block + 200; block++) {
      events += devnet.world.blockEvents(block).events.length;
    }
    expect(events / 200).toBeGreaterThan(50);
    const wrapped = new Map<string, number>();
    for (let block = truth.days[0]!.first_block; block <= truth.days[2]!.last_block; block++) {
      const content = devnet.world.blockEvents(block);
      for (const [i, burn] of content.burns.entries()) {
        const body = content.bodies?.get(burn.extrinsic);
        if (!body) continue;
        const kind = burnWrapper(OPTIONS.seed, block, i)?.kind ?? 'none';
        expect(`${body.call.pallet}.${body.call.call}`).toBe(
          kind === 'proxy' ? 'Proxy.proxy' : `Utility.${kind}`,
        );
        wrapped.set(kind, (wrapped.get(kind) ?? 0) + 1);
      }
    }
    for (const kind of ['batch', 'batch_all', 'force_batch', 'proxy'])
      expect(wrapped.get(kind) ?? 0).toBeGreaterThan(5);
  });

  it('finds every burn of the truth, wrapped or not, and nothing else', async () => {
    const got = await warehouseAsTruth(path);
    expect(got.days).toEqual(truth.days);
    expect(truth.burns.length).toBeGreaterThan(500);
    expect(got.burns).toEqual(truth.burns);
  });

  it('keeps the world’s staking events; the other rows are the filler’s transfers between its own accounts and the fees its signers paid', async () => {
    const got = await warehouseAsTruth(path);
    const key = (row: { block?: unknown; event_index?: unknown }) => `${row.block}/${row.event_index}`;
    const world = new Set(truth.staking_events.map(key));
    const mine = got.staking_events.filter((row) => world.has(key(row)));
    expect(mine).toEqual(truth.staking_events);
    const tracked = new Set(truth.staking_events.flatMap((e) => [e.coldkey]));
    const other = got.staking_events.filter((row) => !world.has(key(row)));
    expect(other.length).toBeGreaterThan(1000);
    // A signed call's fee is kept whoever paid it (the pack books its own coldkeys' fees from these rows).
    const kinds = new Set(other.map((row) => row['kind']));
    expect(kinds).toEqual(new Set(['Transfer', 'TransactionFeePaid']));
    for (const row of other) expect(tracked.has(row['coldkey'] as string)).toBe(false);
  });
});
