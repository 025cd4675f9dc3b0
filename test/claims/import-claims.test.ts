import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaimsImportError, importClaims, parseClaimsCsv } from '../../pipeline/claims/import-claims.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-claims-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HEADER = 'netuid,text,name_at_source,source,published,reviewed';

describe('claims import', () => {
  it('loads the shipped example file, keeping quotes, commas and empty optional fields', async () => {
    const path = join(dir, 'w.duckdb');
    expect(await importClaims({ file: 'data/claims.example.csv', warehousePath: path })).toBe(3);
    // Importing again changes nothing (upsert on netuid, published, source).
    await importClaims({ file: 'data/claims.example.csv', warehousePath: path });
    const wh = await openWarehouse(path, { readOnly: true });
    const rows = await wh.rows(
      `SELECT netuid, text, name_at_source, strftime(published, '%Y-%m-%d') AS published,
              strftime(reviewed, '%Y-%m-%d') AS reviewed FROM claims ORDER BY netuid`,
    );
    wh.close();
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual({
      netuid: 12,
      text: 'Example only (fictional): "buybacks funded by API revenue", announced in a blog post.',
      name_at_source: 'Fictional Twelve',
      published: '2025-03-02',
      reviewed: null,
    });
    expect(rows[2]?.['name_at_source']).toBeNull();
  });

  it('names the line of every invalid row and imports nothing', async () => {
    const file = join(dir, 'bad.csv');
    await writeFile(
      file,
      [
        HEADER,
        '1,fine,Name,https://example.com/a,2025-01-01,',
        'x1,"multi\nline text",Name,https://example.com/b,2025-01-02,',
        '2,,Name,ftp://example.com/c,2025-13-01,2025-01-01',
        '3,text,,https://example.com/d,2025-02-01,2025-01-01',
        '1,again,Name,https://example.com/a,2025-01-01,',
      ].join('\n'),
    );
    const path = join(dir, 'w.duckdb');
    const error = await importClaims({ file, warehousePath: path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClaimsImportError);
    const problems = (error as ClaimsImportError).problems;
    expect(problems).toEqual([
      'line 3: netuid "x1" is not an integer from 0 to 65535',
      'line 5: text is empty',
      'line 5: source "ftp://example.com/c" is not an http(s) URL',
      'line 5: published "2025-13-01" is not a YYYY-MM-DD day',
      'line 6: reviewed 2025-01-01 is before published 2025-02-01',
      'line 7: same netuid, published and source as line 2',
    ]);
    const wh = await openWarehouse(path);
    expect(await wh.rows('SELECT * FROM claims')).toEqual([]);
    wh.close();
  });

  it('rejects a file without the required columns', () => {
    expect(() => parseClaimsCsv('netuid,text\n1,x\n')).toThrow(/missing column "name_at_source"/);
  });

  it('--replace makes the table equal the file', async () => {
    const path = join(dir, 'w.duckdb');
    await importClaims({ file: 'data/claims.example.csv', warehousePath: path });
    const file = join(dir, 'one.csv');
    await writeFile(file, `${HEADER}\n5,only,,https://example.com/x,2025-05-05,\n`);
    await importClaims({ file, warehousePath: path, replace: true });
    const wh = await openWarehouse(path);
    expect((await wh.rows('SELECT netuid FROM claims')).map((r) => r['netuid'])).toEqual([5]);
    wh.close();
  });
});
