/**
 * A pack of a tax year that is over, built from a record that runs on into the next one: a sandbox world
 * from 1 March to 20 April 2026 (the clocks change on 29 March), the pack of 2025/26. The year's figures
 * stop at 5 April, but HMRC's 30-day rule (CRYPTO22254) matches a March disposal with the acquisitions of
 * the 30 days after it, April's staking income included: the pack must look past the year's end.
 */
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPack } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { addDays } from '../../../../pipeline/time/utc-day.js';
import { type PackWorld, publishPackWorld } from './pack-world.js';
import { readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2026-03-01T00:00:00Z');
const YEAR_END = '2026-04-05';

let world: PackWorld;
let chain: PackChain;
let files: Map<string, string>;

beforeAll(async () => {
  world = await publishPackWorld({ genesis: GENESIS, historyDays: 50 });
  chain = openPackChain(world.devnet.url);
  const zip = await JSZip.loadAsync(
    await buildPack(
      {
        id: 'ord_year_end',
        sku: 'tax-pack',
        packName: 'UK staking tax pack',
        taxYear: '2025/26',
        coldkeys: [world.devnet.demoColdkey],
        paidAt: new Date('2026-04-20T09:00:00Z'),
      },
      { store: world.store, chain: chain.reader },
    ),
  );
  files = new Map();
  for (const name of Object.keys(zip.files)) files.set(name, await zip.file(name)!.async('string'));
}, 300_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

describe('the 2025/26 pack built after the year', () => {
  it('shows income of the year only, every UK day once, the 23-hour 29 March included', () => {
    const income = readCsv(files.get('income.csv')!);
    // A position's income once per UK day: a day listed twice would repeat its rows.
    const rows = income.map((row) => `${row['date']}|${row['coldkey']}|${row['hotkey']}|${row['netuid']}`);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows).size).toBe(rows.length);
    // Every UK day of the record in the year with income, none missing: from the second (the record opens
    // at the end of its first, 1 March) to the year's last.
    const days = [...new Set(income.map((row) => row['date']!))].sort();
    expect(days[0]).toBe(addDays(GENESIS.toISOString().slice(0, 10), 1));
    expect(days[days.length - 1]).toBe(YEAR_END);
    expect(days).toContain('2026-03-29');
    for (const [i, day] of days.entries()) if (i > 0) expect(day).toBe(addDays(days[i - 1]!, 1));
  });

  it('lists only the disposals of 2025/26', () => {
    const rows = readCsv(files.get('disposals.csv')!);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row['date']! <= YEAR_END, row['date']).toBe(true);
      expect(row['tax_year']).toBe('2025/26');
    }
  });

  it('matches late-March disposals with April income under the 30-day rule', () => {
    const lateMatches = readCsv(files.get('matches.csv')!).filter(
      (row) => row['rule'] === '30-day' && row['acquisition_date']! > YEAR_END,
    );
    expect(lateMatches.length).toBeGreaterThan(0);
    for (const row of lateMatches) {
      expect(row['acquisition_date']! <= addDays(row['disposal_date']!, 30)).toBe(true);
    }
  });

  it('gives, rerun through the engine from cgt-input.csv, the disposals and closing pools of the year', () => {
    const report = computeGains(
      readCsv(files.get('cgt-input.csv')!).map((row) => ({
        at: new Date(row['datetime']!),
        asset: row['asset']!,
        action: row['action'] as 'acquire' | 'dispose',
        quantity: new CgtDecimal(row['quantity']!),
        gbp: new CgtDecimal(row['gbp']!),
      })),
    );
    const year = report.disposals.filter((d) => d.taxYear === '2025/26');
    expect(year.map((d) => `${d.date}|${d.asset}|${d.gain.toFixed(8, CgtDecimal.ROUND_HALF_EVEN)}`)).toEqual(
      readCsv(files.get('disposals.csv')!).map((row) => `${row['date']}|${row['asset']}|${row['gain_gbp']}`),
    );
    expect(
      year.flatMap((d) => d.matched.map((m) => `${d.date}|${d.asset}|${m.rule}|${m.date ?? ''}`)),
    ).toEqual(
      readCsv(files.get('matches.csv')!).map(
        (row) => `${row['disposal_date']}|${row['asset']}|${row['rule']}|${row['acquisition_date']}`,
      ),
    );
    const closing = report.taxYears.find((y) => y.taxYear === '2025/26')!.closingPools;
    expect(
      readCsv(files.get('pools.csv')!)
        .filter((row) => row['kind'] === 'pool')
        .map((row) => `${row['asset']}|${row['quantity']}|${row['cost_gbp']}|${row['as_at']}`),
    ).toEqual(
      closing.map(
        (pool) =>
          `${pool.asset}|${pool.quantity.toFixed()}|${pool.cost.toFixed(8, CgtDecimal.ROUND_HALF_EVEN)}|${YEAR_END}`,
      ),
    );
  });
});
