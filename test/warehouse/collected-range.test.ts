/** The collected range and its gaps, read back from `collected_days` rows in a real DuckDB file. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCollectedRange } from '../../pipeline/warehouse/collected-range.js';
import { openWarehouse, type Warehouse } from '../../pipeline/warehouse/open-warehouse.js';

let dir: string;
let wh: Warehouse;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-range-'));
  wh = await openWarehouse(join(dir, 'burns.duckdb'));
});
afterEach(async () => {
  wh.close();
  await rm(dir, { recursive: true, force: true });
});

async function collected(day: string, partial = false): Promise<void> {
  await wh.run(
    `INSERT INTO collected_days (day, first_block, last_block, last_block_time, complete, partial, run_id) VALUES ($day::DATE, 1, 2, TIMESTAMPTZ '2025-01-01 00:00:00+00', $complete, $partial, 'r')`,
    { day, complete: !partial, partial },
  );
}

describe('readCollectedRange', () => {
  it('is null when nothing is collected', async () => {
    expect(await readCollectedRange(wh)).toBeNull();
  });

  it('gives the range, the missing days inside it, and days left partial before the last', async () => {
    for (const day of ['2025-01-01', '2025-01-02', '2025-01-06', '2025-01-08']) await collected(day);
    await collected('2025-01-07', true);
    await collected('2025-01-09', true);
    expect(await readCollectedRange(wh)).toEqual({
      firstDay: '2025-01-01',
      lastDay: '2025-01-09',
      days: 6,
      lastCompleteDay: '2025-01-08',
      partialDay: '2025-01-09',
      gaps: [{ from: '2025-01-03', to: '2025-01-05', days: 3 }],
      incomplete: ['2025-01-07'],
    });
  });

  it('has no gaps and no partial day when the days are contiguous and complete', async () => {
    for (const day of ['2025-01-31', '2025-02-01']) await collected(day);
    expect(await readCollectedRange(wh)).toMatchObject({
      firstDay: '2025-01-31',
      lastDay: '2025-02-01',
      lastCompleteDay: '2025-02-01',
      partialDay: null,
      gaps: [],
      incomplete: [],
    });
  });
});
