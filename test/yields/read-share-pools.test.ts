/**
 * `sbm yields` against the sandbox chain: every collected day's pools land in `share_pools` equal to the
 * truth; a second run reads nothing; today is read again once collection has gone further; `refresh` reads
 * a day again; and the yields it reports span the complete days read.
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
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { readDailySharePools } from '../../pipeline/yields/read-share-pools.js';

const GENESIS = new Date('2025-05-01T00:00:00Z');
const DAY = 86_400_000;
let clock = GENESIS.getTime() + 2.25 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'read-share-pools',
  historyDays: 2,
  genesis: GENESIS,
  blockTimeMs: 600_000,
  now: () => clock,
  port: 0,
  pricePort: 0,
};

let devnet: RunningDevnet;
let dir: string;
let warehousePath: string;

beforeAll(async () => {
  devnet = await startDevnet(OPTIONS);
  dir = await mkdtemp(join(tmpdir(), 'sbm-yields-'));
  warehousePath = join(dir, 'burns.duckdb');
});

afterAll(async () => {
  await devnet?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The truth as the finalized head sees it now. */
function truthNow(): Truth {
  const finalized = clock - OPTIONS.finalityLag * OPTIONS.blockTimeMs;
  return buildTruth({ ...OPTIONS, now: () => finalized }, '2025-05-01', '2025-05-03');
}

async function collectNow(): Promise<void> {
  const summary = await collect({ chainUrl: devnet.url, warehousePath, concurrency: 8 });
  expect(summary.status).toBe('complete');
}

const readPools = (options: { from?: string; to?: string; refresh?: boolean } = {}) =>
  readDailySharePools({ chainUrl: devnet.url, warehousePath, concurrency: 8, ...options });

async function storedPools() {
  const warehouse = await openWarehouse(warehousePath, { readOnly: true });
  try {
    return await warehouse.rows(
      `SELECT strftime(day, '%Y-%m-%d') AS date, block::INTEGER AS block, netuid, registered_at::INTEGER AS registered_at,
              hotkey, CAST(total_alpha_rao AS VARCHAR) AS total_alpha_rao,
              coalesce(CAST(total_shares_bits AS VARCHAR), '0') AS total_shares_bits,
              CASE WHEN total_shares_bits IS NULL
                   THEN {'mantissa': CAST(total_shares_mantissa AS VARCHAR), 'exponent': CAST(total_shares_exponent AS VARCHAR)}
              END AS total_shares_v2
         FROM share_pools ORDER BY day, netuid, hotkey`,
    );
  } finally {
    warehouse.close();
  }
}

function sortedTruthPools(truth: Truth) {
  return [...truth.share_pools].sort(
    (a, b) => a.date.localeCompare(b.date) || a.netuid - b.netuid || (a.hotkey < b.hotkey ? -1 : 1),
  );
}

describe('readDailySharePools', () => {
  it('reads each collected day once, today again after collection moves on, and reports the yields', async () => {
    await collectNow();
    const first = await readPools();
    expect(first.days.map((d) => [d.day, d.partial])).toEqual([
      ['2025-05-01', false],
      ['2025-05-02', false],
      ['2025-05-03', true],
    ]);
    expect(await storedPools()).toEqual(sortedTruthPools(truthNow()));
    expect(first.pools).toBe(truthNow().share_pools.length);
    // The complete days read: a window of one day.
    expect(first.yields.window).toEqual({ from: '2025-05-01', to: '2025-05-02', days: 1 });
    expect(first.yields.root.yield).toBeGreaterThan(0);

    const again = await readPools();
    expect(again.days).toEqual([]);

    // Three hours later: the next collection extends today, and only today is read again, at its new end.
    const todayBefore = truthNow().days[2]!.last_block;
    clock += 3 * 3_600_000;
    await collectNow();
    const later = await readPools();
    expect(later.days.map((d) => d.day)).toEqual(['2025-05-03']);
    expect(later.days[0]!.block).toBeGreaterThan(todayBefore);
    expect(await storedPools()).toEqual(sortedTruthPools(truthNow()));

    const refreshed = await readPools({ from: '2025-05-01', to: '2025-05-01', refresh: true });
    expect(refreshed.days.map((d) => d.day)).toEqual(['2025-05-01']);
    expect(await storedPools()).toEqual(sortedTruthPools(truthNow()));
  });
});
