/**
 * `sbm status` over a real DuckDB warehouse and a real folder store, each situation built with the
 * pipeline's own writers (replaceDay is not needed: `collected_days` rows say what was collected).
 * Freshness is compared with the contract's rule at the thresholds' edges, not with copied numbers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BURNS_STALE_AFTER_MS, EMISSIONS_STALE_AFTER_MS } from '../../pipeline/contract/freshness.js';
import { upsertFx } from '../../pipeline/prices/fiat-prices.js';
import { formatStatus } from '../../pipeline/status/format-status.js';
import { readStatus } from '../../pipeline/status/read-status.js';
import { FolderObjectStore, publishRun } from '../../pipeline/store/index.js';
import { finishRun, startRun } from '../../pipeline/warehouse/collection-runs.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const HOUR = 3_600_000;

let dir: string;
let warehousePath: string;
let store: FolderObjectStore;
let holder: ChildProcess | null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-status-'));
  warehousePath = join(dir, 'burns.duckdb');
  store = new FolderObjectStore(join(dir, 'store'));
  holder = null;
});
afterEach(async () => {
  holder?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/**
 * Days collected (the last one partial when asked) and one finished run, as a collection leaves them, with
 * the TAO/USD and TAO/GBP rates `sbm daily` stores for each day except those in `unpriced`.
 */
async function collected(
  days: string[],
  run: { error: string | null; finishedAt: Date },
  lastPartial = true,
  unpriced: { usd?: string[]; gbp?: string[] } = {},
) {
  const wh = await openWarehouse(warehousePath);
  try {
    for (const [i, day] of days.entries()) {
      const partial = lastPartial && i === days.length - 1;
      await wh.run(
        `INSERT INTO collected_days (day, first_block, last_block, last_block_time, complete, partial, run_id) VALUES ($day::DATE, 1, 2, TIMESTAMPTZ '2026-03-01 00:00:00+00', $complete, $partial, 'r')`,
        { day, complete: !partial, partial },
      );
    }
    await upsertFx(
      wh,
      days.flatMap((day) =>
        (['usd', 'gbp'] as const)
          .filter((currency) => !unpriced[currency]?.includes(day))
          .map((currency) => ({ day, currency, taoPrice: '300.00000000', source: 'test' })),
      ),
    );
    const { runId } = await startRun(wh, new Date(run.finishedAt.getTime() - 60_000), { kind: 'daily' });
    await finishRun(wh, runId, { fromBlock: 1, toBlock: 2, error: run.error, now: run.finishedAt });
    return runId;
  } finally {
    wh.close();
  }
}

async function publishBurns(burnsCheckedAt: Date | null, createdAt: Date) {
  await publishRun(store, {
    prefix: '',
    objects: [],
    now: createdAt,
    meta: { burns_checked_at: burnsCheckedAt?.toISOString() ?? null },
  });
}

async function publishEmissions(checkedAt: Date) {
  await publishRun(store, {
    prefix: 'emissions/',
    objects: [],
    now: checkedAt,
    meta: { checked_at: checkedAt.toISOString() },
  });
}

function status() {
  return readStatus({ warehousePath, store, now: NOW });
}

describe('sbm status', () => {
  it('needs attention when nothing was collected or published; a watch that never published is fine', async () => {
    const report = await status();
    expect(report.ok).toBe(false);
    expect(report.warehouse).toMatchObject({ state: 'missing', collected: null, runs: [] });
    expect(report.published).toMatchObject({ state: 'none', version: null, freshness: null });
    expect(report.emissions).toMatchObject({ state: 'none', freshness: null });
    expect(report.attention).toEqual([
      `warehouse: no warehouse at ${warehousePath} (nothing collected yet?)`,
      `published: nothing published in ${store.description}`,
    ]);
  });

  it('is ok with contiguous days, a complete last run, and current burns and emissions', async () => {
    const checkedAt = new Date(NOW.getTime() - 2 * HOUR);
    const runId = await collected(['2026-03-08', '2026-03-09', '2026-03-10'], {
      error: null,
      finishedAt: checkedAt,
    });
    await publishBurns(checkedAt, new Date(checkedAt.getTime() + 60_000));
    await publishEmissions(new Date(NOW.getTime() - 60_000));
    const report = await status();
    expect(report.attention).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.warehouse.collected).toEqual({
      first_day: '2026-03-08',
      last_day: '2026-03-10',
      days: 3,
      last_complete_day: '2026-03-09',
      partial_day: '2026-03-10',
      gaps: [],
      incomplete_days: [],
    });
    expect(report.warehouse.burns_checked_at).toBe(checkedAt.toISOString());
    expect(report.warehouse.runs).toEqual([
      expect.objectContaining({
        run_id: runId,
        kind: 'daily',
        status: 'complete',
        outcome: 'complete',
        pid: process.pid,
        process_alive: null,
        completed_at: checkedAt.toISOString(),
        error: null,
      }),
    ]);
    expect(report.published).toMatchObject({
      state: 'ok',
      burns_checked_at: checkedAt.toISOString(),
      age_seconds: 2 * 3600 - 60,
      freshness: 'current',
    });
    expect(report.emissions).toMatchObject({ state: 'ok', age_seconds: 60, freshness: 'current' });
    expect(formatStatus(report)).toContain('\nok\n');
  });

  it('needs attention for collected days without a TAO/GBP or TAO/USD rate, named as spans', async () => {
    const checkedAt = new Date(NOW.getTime() - 2 * HOUR);
    const days = [
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ];
    await collected(days, { error: null, finishedAt: checkedAt }, true, {
      gbp: ['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-09'],
      usd: ['2026-03-09'],
    });
    await publishBurns(checkedAt, new Date(checkedAt.getTime() + 60_000));
    await publishEmissions(new Date(NOW.getTime() - 60_000));
    const report = await status();
    expect(report.ok).toBe(false);
    expect(report.warehouse.days_without_rate).toEqual({
      gbp: [
        { from: '2026-03-04', to: '2026-03-06', days: 3 },
        { from: '2026-03-09', to: '2026-03-09', days: 1 },
      ],
      usd: [{ from: '2026-03-09', to: '2026-03-09', days: 1 }],
    });
    expect(report.attention).toEqual([
      'warehouse: 4 collected day(s) have no TAO/GBP rate: 2026-03-04..2026-03-06, 2026-03-09 (sbm daily or sbm prices fetch fetches them)',
      'warehouse: 1 collected day(s) have no TAO/USD rate: 2026-03-09 (sbm daily or sbm prices fetch fetches them)',
    ]);
    const text = formatStatus(report);
    expect(text).toContain(
      'rates      TAO/GBP missing 2026-03-04..2026-03-06, 2026-03-09; TAO/USD missing 2026-03-09',
    );
    expect(text).toContain('needs attention');
  });

  it('names each problem: gaps, a failed last run, stale burns, a watch that stopped sampling', async () => {
    const checkedAt = new Date(NOW.getTime() - BURNS_STALE_AFTER_MS);
    const runId = await collected(['2026-03-01', '2026-03-02', '2026-03-05', '2026-03-07'], {
      error: 'the node went away',
      finishedAt: NOW,
    });
    await publishBurns(checkedAt, checkedAt);
    await publishEmissions(new Date(NOW.getTime() - EMISSIONS_STALE_AFTER_MS));
    const report = await status();
    expect(report.published.freshness).toBe('stale');
    expect(report.emissions.freshness).toBe('stale');
    expect(report.warehouse.collected?.gaps).toEqual([
      { from: '2026-03-03', to: '2026-03-04', days: 2 },
      { from: '2026-03-06', to: '2026-03-06', days: 1 },
    ]);
    expect(report.attention).toEqual([
      'warehouse: 3 day(s) missing inside the collected range: 2026-03-03..2026-03-04, 2026-03-06',
      `last collection ${runId} failed: the node went away`,
      `published: burn data is stale (burns_checked_at ${checkedAt.toISOString()}, stale after 26 h)`,
      `emissions: the watch's last sample (${new Date(NOW.getTime() - EMISSIONS_STALE_AFTER_MS).toISOString()}) is older than 15 min`,
    ]);
    const text = formatStatus(report);
    expect(text).toContain('gaps       2026-03-03..2026-03-04, 2026-03-06\n');
    expect(text).toContain('needs attention\n');
  });

  it('calls a published run without burns_checked_at unknown, which needs attention', async () => {
    await collected(['2026-03-10'], { error: null, finishedAt: NOW });
    await publishBurns(null, NOW);
    const report = await status();
    expect(report.published.freshness).toBe('unknown');
    expect(report.attention).toEqual([
      'published: freshness is unknown (the live run has no burns_checked_at: no collection had completed)',
    ]);
  });

  it('reports a warehouse held by a writer as locked, and still reports the store', async () => {
    await collected(['2026-03-10'], { error: null, finishedAt: NOW });
    await publishBurns(NOW, NOW);
    holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DuckDBInstance } = require('@duckdb/node-api');
         DuckDBInstance.create(${JSON.stringify(warehousePath)}).then(async (i) => { await i.connect();
           process.stdout.write('held\\n'); setInterval(() => {}, 1000); });`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder!.stdout!.once('data', () => resolve()));
    const report = await readStatus({ warehousePath, store, now: NOW, lockWaitMs: 200 });
    expect(report.warehouse).toMatchObject({ state: 'locked', collected: null, runs: [] });
    expect(report.warehouse.message).toContain(warehousePath);
    expect(report.published).toMatchObject({ state: 'ok', freshness: 'current' });
    // A writer at work is not a problem in itself; what it leaves behind is judged once it has finished.
    expect(report.attention).toEqual([]);
    expect(formatStatus(report)).toContain(`warehouse  ${warehousePath} (locked)\n`);
  });
});
