import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportParquet } from '../../pipeline/warehouse/export-parquet.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { formatResult, queryReadOnly } from '../../pipeline/warehouse/read-only-query.js';

let dir: string;
let path: string;
// 2^64 - 1: beyond a JS number and beyond BIGINT.
const BIG = 18_446_744_073_709_551_615n;
// 2^128 - 1: the largest U64F64 share count, beyond HUGEINT and DECIMAL(38,0).
const SHARE_BITS = 2n ** 128n - 1n;
const MANTISSA = 10n ** 21n;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-q-'));
  path = join(dir, 'burns.duckdb');
  const wh = await openWarehouse(path);
  await wh.run(
    `INSERT INTO burns VALUES (10, 1, 1, '2025-03-01 00:00:12+00', '2025-03-01', 3, 0, 'burn', 'c, "quoted"', 'h',
       $big::HUGEINT, NULL)`,
    { big: BIG.toString() },
  );
  await wh.run(
    `INSERT INTO share_pools VALUES ('2025-03-01', 7199, 3, 0, 'h', $big::HUGEINT, $bits::UHUGEINT,
       $mantissa::UHUGEINT, -3)`,
    { big: BIG.toString(), bits: SHARE_BITS.toString(), mantissa: MANTISSA.toString() },
  );
  wh.close();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sbm sql', () => {
  it('answers in table, CSV and JSON with exact amounts', async () => {
    const result = await queryReadOnly(path, 'SELECT block, coldkey, alpha_rao, tao_rao FROM burns');
    expect(result.columns).toEqual(['block', 'coldkey', 'alpha_rao', 'tao_rao']);
    expect(JSON.parse(formatResult(result, 'json'))).toEqual([
      { block: '10', coldkey: 'c, "quoted"', alpha_rao: BIG.toString(), tao_rao: null },
    ]);
    expect(formatResult(result, 'csv')).toBe(`block,coldkey,alpha_rao,tao_rao\n10,"c, ""quoted""",${BIG},\n`);
    const table = formatResult(result, 'table');
    expect(table).toContain(BIG.toString());
    expect(table.trim().endsWith('(1 row)')).toBe(true);
  });

  it('refuses to write', async () => {
    await expect(queryReadOnly(path, 'DELETE FROM burns')).rejects.toThrow(/read-only/i);
    const again = await queryReadOnly(path, 'SELECT count(*) AS n FROM burns');
    expect(again.rows[0]?.['n']).toBe('1');
  });
});

describe('sbm export parquet', () => {
  it('writes every table, HUGEINT amounts exact as DECIMAL(38,0) and the U64F64 share bits as exact text', async () => {
    const out = join(dir, 'parquet');
    const written = await exportParquet({ warehousePath: path, outDir: out });
    // Every table the schema creates (read from schema.sql, not from the database), the share pools included.
    const schema = await readFile(new URL('../../pipeline/warehouse/schema.sql', import.meta.url), 'utf8');
    const created = [...schema.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map((m) => m[1]!);
    expect(created).toEqual(expect.arrayContaining(['burns', 'share_pools', 'share_pool_days']));
    expect(written.map((w) => w.table).sort()).toEqual(created.sort());
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(
      `SELECT CAST(alpha_rao AS HUGEINT) AS a, typeof(alpha_rao) AS t FROM '${join(out, 'burns.parquet')}'`,
    );
    expect(reader.getRowObjectsJS()).toEqual([{ a: BIG, t: 'DECIMAL(38,0)' }]);
    const pools = await connection.runAndReadAll(
      `SELECT CAST(total_shares_bits AS UHUGEINT) AS bits, CAST(total_alpha_rao AS HUGEINT) AS alpha,
              CAST(total_shares_mantissa AS UHUGEINT) AS mantissa, total_shares_exponent AS exponent
         FROM '${join(out, 'share_pools.parquet')}'`,
    );
    expect(pools.getRowObjectsJS()).toEqual([
      { bits: SHARE_BITS, alpha: BIG, mantissa: MANTISSA, exponent: -3n },
    ]);
    connection.closeSync();
    instance.closeSync();
  });
});
