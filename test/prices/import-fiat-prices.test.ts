import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dailyPrices } from '../../pipeline/prices/fiat-prices.js';
import { importFiatPrices, PriceImportError } from '../../pipeline/prices/import-fiat-prices.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-fx-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fiat prices', () => {
  it('imports a CSV exactly and upserts on (day, currency)', async () => {
    const path = join(dir, 'w.duckdb');
    const file = join(dir, 'fx.csv');
    await writeFile(file, 'date,currency,tao_price\n2025-03-01,usd,412.12345678\n2025-03-01,GBP,325.5\n');
    expect(await importFiatPrices({ file, warehousePath: path })).toBe(2);
    await writeFile(file, 'date,currency,tao_price,source\n2025-03-01,usd,400,manual\n');
    await importFiatPrices({ file, warehousePath: path });
    const wh = await openWarehouse(path);
    const rows = await wh.rows(
      `SELECT currency, tao_price::VARCHAR AS p, source FROM fx_daily ORDER BY currency`,
    );
    wh.close();
    expect(rows).toEqual([
      { currency: 'gbp', p: '325.50000000', source: 'file:fx.csv' },
      { currency: 'usd', p: '400.00000000', source: 'manual' },
    ]);
  });

  it('names the bad lines', async () => {
    const file = join(dir, 'fx.csv');
    await writeFile(file, 'date,currency,tao_price\n2025-02-30,usd,1\n2025-03-01,eur,1\n2025-03-01,usd,-2\n');
    const error = await importFiatPrices({ file, warehousePath: join(dir, 'w.duckdb') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PriceImportError);
    expect((error as PriceImportError).problems).toEqual([
      'line 2: date "2025-02-30" is not a YYYY-MM-DD day',
      'line 3: currency "eur" is not one of usd, gbp',
      'line 4: tao_price "-2" is not a positive decimal with at most 8 decimals',
    ]);
  });

  it('reports a row with the wrong number of fields beside the others, in line order, and stores nothing', async () => {
    const path = join(dir, 'w.duckdb');
    const file = join(dir, 'fx.csv');
    await writeFile(
      file,
      'date,currency,tao_price\r\n2025-03-01,usd\r\n2025-03-32,usd,1\r\n2025-03-02,gbp,2\r\n',
    );
    const error = await importFiatPrices({ file, warehousePath: path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PriceImportError);
    expect((error as PriceImportError).problems).toEqual([
      'line 2: expected 3 fields, found 2',
      'line 3: date "2025-03-32" is not a YYYY-MM-DD day',
    ]);
    expect((error as Error).message.split('\n')[0]).toBe('price file rejected, nothing imported: 2 problems');
    const wh = await openWarehouse(path);
    expect(await wh.rows('SELECT * FROM fx_daily')).toEqual([]);
    wh.close();
  });

  it('takes the first quote of each UTC day', () => {
    const day = Date.parse('2025-03-01T00:00:00Z');
    const points: Array<[number, number]> = [
      [day + 3_600_000, 2],
      [day, 1],
      [day + 86_400_000 + 60_000, 3],
      [day - 1, 9],
    ];
    expect(dailyPrices(points, '2025-03-01', '2025-03-02')).toEqual([
      { day: '2025-03-01', price: 1 },
      { day: '2025-03-02', price: 3 },
    ]);
  });
});
