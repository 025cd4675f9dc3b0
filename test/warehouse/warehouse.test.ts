import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { burnsCheckedAt, finishRun, startRun } from '../../pipeline/warehouse/collection-runs.js';
import type { DayRows } from '../../pipeline/warehouse/day-rows.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { replaceDay } from '../../pipeline/warehouse/replace-day.js';
import { WarehouseLockedError } from '../../pipeline/warehouse/warehouse-errors.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-wh-'));
  path = join(dir, 'burns.duckdb');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// 2^62 + 1 and 2^53 + 1: u64 values a JS number cannot hold. (A day's alpha times a TAO reserve must stay
// below 2^127 for HUGEINT; with 21M TAO = 2.1e16 RAO in existence that bound is far away.)
const BIG = 4_611_686_018_427_387_905n;
const ABOVE_2_53 = 9_007_199_254_740_993n;
const T0 = Date.parse('2025-03-01T00:00:00Z');

function sampleDay(overrides: Partial<DayRows> = {}): DayRows {
  return {
    day: '2025-03-01',
    firstBlock: 100,
    lastBlock: 7299,
    lastBlockTime: T0 + 86_388_000,
    lastBlockHash: `0x${'ab'.repeat(32)}`,
    complete: true,
    partial: false,
    burns: [
      {
        block: 150,
        eventIndex: 3,
        extrinsicIndex: 1,
        blockTime: T0 + 600_000,
        netuid: 7,
        registeredAt: 50,
        kind: 'burn',
        coldkey: '5Cold',
        hotkey: '5Hot',
        alphaRao: BIG,
        taoRao: null,
      },
      {
        block: 160,
        eventIndex: 5,
        extrinsicIndex: 2,
        blockTime: T0 + 720_000,
        netuid: 7,
        registeredAt: 50,
        kind: 'buyback',
        coldkey: '5Cold',
        hotkey: '5Hot',
        alphaRao: ABOVE_2_53,
        taoRao: 3n,
      },
      {
        block: 170,
        eventIndex: 2,
        extrinsicIndex: 1,
        blockTime: T0 + 840_000,
        netuid: 7,
        registeredAt: 50,
        kind: 'recycle',
        coldkey: '5Cold',
        hotkey: '5Hot',
        alphaRao: 1_000n,
        taoRao: null,
      },
      {
        block: 180,
        eventIndex: 2,
        extrinsicIndex: 1,
        blockTime: T0 + 960_000,
        netuid: 9,
        registeredAt: 60,
        kind: 'burn',
        coldkey: null,
        hotkey: '5Hot',
        alphaRao: 10n,
        taoRao: null,
      },
    ],
    stakingEvents: [
      {
        block: 160,
        eventIndex: 3,
        extrinsicIndex: 2,
        blockTime: T0 + 720_000,
        kind: 'StakeAdded',
        coldkey: '5Cold',
        hotkey: '5Hot',
        netuid: 7,
        taoRao: 3n,
        alphaRao: ABOVE_2_53,
        detail: { fee: '0' },
      },
    ],
    panel: [
      { netuid: 0, registeredAt: 0, panelBlock: 7299, subnetTaoRao: 5n, subnetAlphaInRao: 5n },
      { netuid: 7, registeredAt: 50, panelBlock: 7299, subnetTaoRao: 2n * BIG, subnetAlphaInRao: 3n * BIG },
      { netuid: 9, registeredAt: 60, panelBlock: 7299, subnetTaoRao: null, subnetAlphaInRao: null },
    ],
    subnets: [
      { netuid: 7, registeredAt: 50, name: 'seven', symbol: 'S' },
      { netuid: 9, registeredAt: 60, name: 'nine', symbol: 'N' },
    ],
    ...overrides,
  };
}

async function dump(whPath: string) {
  const wh = await openWarehouse(whPath, { readOnly: true });
  try {
    const out: Record<string, unknown[]> = {};
    for (const t of ['burns', 'staking_events', 'panel_prices', 'subnet_days', 'collected_days']) {
      out[t] = await wh.rows(`SELECT * FROM ${t} ORDER BY ALL`);
    }
    return out;
  } finally {
    wh.close();
  }
}

describe('warehouse', () => {
  it('applies the schema idempotently and keeps amounts above 2^53 exact', async () => {
    const wh = await openWarehouse(path);
    await replaceDay(wh, sampleDay(), 'run-1');
    wh.close();
    const again = await openWarehouse(path);
    const rows = await again.rows('SELECT alpha_rao, tao_rao FROM burns ORDER BY block');
    expect(rows.map((r) => r['alpha_rao'])).toEqual([BIG, ABOVE_2_53, 1_000n, 10n]);
    const panel = await again.rows('SELECT subnet_tao_rao FROM panel_prices WHERE netuid = 7');
    expect(panel[0]?.['subnet_tao_rao']).toBe(2n * BIG);
    const staked = await again.rows('SELECT alpha_rao, detail FROM staking_events');
    expect(staked[0]?.['alpha_rao']).toBe(ABOVE_2_53);
    again.close();
  });

  it('replacing a day twice changes nothing, and a failed write leaves the day as it was', async () => {
    const wh = await openWarehouse(path);
    await replaceDay(wh, sampleDay(), 'run-1');
    wh.close();
    const first = await dump(path);
    const wh2 = await openWarehouse(path);
    await replaceDay(wh2, sampleDay(), 'run-1');
    // A second write that fails midway (duplicate key) must roll back entirely.
    const broken = sampleDay();
    broken.burns.push({ ...broken.burns[0]! });
    await expect(replaceDay(wh2, broken, 'run-2')).rejects.toThrow();
    wh2.close();
    expect(await dump(path)).toEqual(first);
  });

  it('values burns per day at the panel price with one integer division, recycles excluded', async () => {
    const wh = await openWarehouse(path);
    await replaceDay(wh, sampleDay(), 'run-1');
    const rows = await wh.rows('SELECT * FROM burns_daily ORDER BY netuid');
    expect(rows).toHaveLength(2);
    const seven = rows[0]!;
    expect(seven['alpha_rao']).toBe(BIG + ABOVE_2_53);
    expect(seven['tao_rao']).toBe(((BIG + ABOVE_2_53) * 2n * BIG) / (3n * BIG));
    expect(seven['burns']).toBe(2);
    expect(seven['unpriced_burns']).toBe(0);
    const nine = rows[1]!;
    expect(nine['tao_rao']).toBeNull();
    expect(nine['unpriced_burns']).toBe(1);
    const subnets = await wh.rows('SELECT netuid, name, burns, alpha_rao FROM subnet_burns ORDER BY netuid');
    expect(subnets[0]).toEqual({ netuid: 7, name: 'seven', burns: 2, alpha_rao: BIG + ABOVE_2_53 });
    wh.close();
  });

  it('records runs and reports burns_checked_at from the last complete one', async () => {
    const wh = await openWarehouse(path);
    expect(await burnsCheckedAt(wh)).toBeNull();
    const { runId: a } = await startRun(wh, new Date('2025-03-02T00:00:00Z'));
    await finishRun(wh, a, { fromBlock: 1, toBlock: 2, error: null, now: new Date('2025-03-02T00:05:00Z') });
    const { runId: b } = await startRun(wh, new Date('2025-03-03T00:00:00Z'));
    await finishRun(wh, b, {
      fromBlock: 3,
      toBlock: 4,
      error: 'boom',
      now: new Date('2025-03-03T00:05:00Z'),
    });
    expect(await burnsCheckedAt(wh)).toEqual(new Date('2025-03-02T00:05:00Z'));
    wh.close();
  });

  it('waits for another process to release the file, and gives up with a typed error', async () => {
    (await openWarehouse(path)).close();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DuckDBInstance } = require('@duckdb/node-api');
         DuckDBInstance.create(${JSON.stringify(path)}).then(async (i) => { const c = await i.connect();
           process.stdout.write('locked\\n'); setTimeout(() => { c.closeSync(); i.closeSync(); }, 1500); });`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    await expect(openWarehouse(path, { lockWaitMs: 100 })).rejects.toBeInstanceOf(WarehouseLockedError);
    const started = Date.now();
    const wh = await openWarehouse(path, { lockWaitMs: 10_000 });
    expect(Date.now() - started).toBeGreaterThan(200);
    wh.close();
    await exited;
  });
});
