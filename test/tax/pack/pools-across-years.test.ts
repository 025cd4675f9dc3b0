/**
 * Section 104 pools carry across tax years (CRYPTO22200): a sandbox world from 1 February to 12 May 2026,
 * the packs of 2025/26 and of 2026/27 for the demo coldkey. The 2026/27 pack must start its pools where the
 * record starts (1 February), not at market value on 5 April, and so give the 2025/26 pack's closing pools
 * as its own opening ones. A day missing from the published calendar is found on the chain.
 */
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaxCalendar, taxPaths } from '../../../pipeline/contract/tax-published.js';
import { readManifest } from '../../../pipeline/store/manifest.js';
import { readPublishedObject } from '../../../pipeline/store/publication.js';
import { CgtDecimal } from '../../../pipeline/tax/cgt/cgt-decimal.js';
import type { CgtTransaction } from '../../../pipeline/tax/cgt/cgt-types.js';
import { computeGains } from '../../../pipeline/tax/cgt/compute-gains.js';
import { buildPack, type PackOrder } from '../../../pipeline/tax/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/pack/pack-chain.js';
import { recordDays } from '../../../pipeline/tax/pack/record-days.js';
import { parseUkTaxYear } from '../../../pipeline/time/uk-tax-year.js';
import { type PackWorld, publishPackWorld } from './pack-world.js';
import { pdfToText } from './pdf-text.js';
import { readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2026-02-01T00:00:00Z');
const YEAR_START = '2026-04-06';

let world: PackWorld;
let chain: PackChain;
const packs = new Map<string, Map<string, string>>();
const pdfs = new Map<string, Uint8Array>();

async function packOf(taxYear: string): Promise<Map<string, string>> {
  const order: PackOrder = {
    id: `ord_${taxYear.replace('/', '_')}`,
    sku: 'tax-pack',
    packName: 'UK staking tax pack',
    taxYear,
    coldkeys: [world.devnet.demoColdkey],
    paidAt: new Date('2026-05-12T09:00:00Z'),
  };
  const zip = await JSZip.loadAsync(await buildPack(order, { store: world.store, chain: chain.reader }));
  const files = new Map<string, string>();
  for (const name of Object.keys(zip.files)) files.set(name, await zip.file(name)!.async('string'));
  pdfs.set(taxYear, await zip.file('summary.pdf')!.async('uint8array'));
  return files;
}

function transactionsOf(files: Map<string, string>): CgtTransaction[] {
  return readCsv(files.get('cgt-input.csv')!).map((row) => ({
    at: new Date(row['datetime']!),
    asset: row['asset']!,
    action: row['action'] as 'acquire' | 'dispose',
    quantity: new CgtDecimal(row['quantity']!),
    gbp: new CgtDecimal(row['gbp']!),
  }));
}

const rowKey = (tx: CgtTransaction) =>
  `${tx.at.toISOString()}|${tx.asset}|${tx.action}|${tx.quantity.toFixed()}|${tx.gbp.toFixed()}`;

beforeAll(async () => {
  world = await publishPackWorld({ genesis: GENESIS, historyDays: 100 });
  chain = openPackChain(world.devnet.url);
  packs.set('2025/26', await packOf('2025/26'));
  packs.set('2026/27', await packOf('2026/27'));
}, 600_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

describe('pools across tax years', () => {
  it("starts the 2026/27 record at the first collected day, with the 2025/26 pack's history unchanged", () => {
    const earlier = transactionsOf(packs.get('2025/26')!);
    const later = transactionsOf(packs.get('2026/27')!);
    expect(later[0]!.at.toISOString().slice(0, 10)).toBe('2026-02-01');
    // Everything before 6 April is the same history in both packs: no market-value restart on 5 April.
    const beforeYear = (tx: CgtTransaction) => tx.at.getTime() < parseUkTaxYear('2026/27').startMs;
    expect(later.filter(beforeYear).map(rowKey)).toEqual(earlier.filter(beforeYear).map(rowKey));
    expect(later.some((tx) => !beforeYear(tx))).toBe(true);
  });

  it("opens 2026/27 with the 2025/26 pack's closing pools", () => {
    const closing2025 = readCsv(packs.get('2025/26')!.get('pools.csv')!).map(
      (row) => `${row['asset']}|${row['quantity']}|${row['cost_gbp']}`,
    );
    expect(closing2025.length).toBeGreaterThan(0);
    const report = computeGains(transactionsOf(packs.get('2026/27')!));
    const year = report.taxYears.find((y) => y.taxYear === '2025/26');
    const pools =
      year?.closingPools ??
      computeGains(
        transactionsOf(packs.get('2026/27')!).filter(
          (tx) => tx.at.getTime() < parseUkTaxYear('2026/27').startMs,
        ),
      ).pools;
    expect(
      pools.map(
        (pool) =>
          `${pool.asset}|${pool.quantity.toFixed()}|${pool.cost.toFixed(8, CgtDecimal.ROUND_HALF_EVEN)}`,
      ),
    ).toEqual(closing2025);
  });

  it('costs a 2026/27 disposal from acquisitions made before 6 April, as the engine does on the whole record', () => {
    const disposals = readCsv(packs.get('2026/27')!.get('disposals.csv')!);
    for (const row of disposals) expect(row['date']! >= YEAR_START, row['date']).toBe(true);
    const report = computeGains(transactionsOf(packs.get('2026/27')!));
    const year = report.disposals.filter((d) => d.taxYear === '2026/27');
    expect(year.length).toBeGreaterThan(0);
    // The section 104 pool of a disposal in May holds alpha acquired in February and March.
    const pooled = year.filter((d) => d.matched.some((m) => m.rule === 's104'));
    expect(pooled.length).toBeGreaterThan(0);
    const sumGains = year.reduce((sum, d) => sum.add(d.gain), new CgtDecimal(0));
    const packGains = [
      ...new Set(disposals.map((row) => `${row['date']}|${row['asset']}|${row['gain_gbp']}`)),
    ]
      .map((key) => new CgtDecimal(key.split('|')[2]!))
      .reduce((sum, gain) => sum.add(gain), new CgtDecimal(0));
    expect(packGains.toFixed(2)).toBe(sumGains.toFixed(2));
  });

  it('says in the PDF where the record opens, which holdings entered at market value, and the carried pools', () => {
    const text = pdfToText(pdfs.get('2026/27')!, world.dir).replace(/\s+/g, ' ');
    expect(text).toContain('opens at the end of 2026-02-01');
    expect(text).toContain("pools carried from there, across tax years, to the year's start (2026-04-05)");
    expect(text).toMatch(/the holdings then \(.*alpha/);
  });
});

describe('a day missing from the published calendar', () => {
  it('is found on the chain at the block the calendar would have given', async () => {
    const manifest = (await readManifest(world.store, ''))!;
    const object = (await readPublishedObject(world.store, manifest, taxPaths.calendar()))!;
    const calendar = TaxCalendar.parse(JSON.parse(new TextDecoder().decode(object.body))).days;
    const reader = await chain.reader();
    const taxYear = parseUkTaxYear('2026/27');
    const full = await recordDays(calendar, taxYear, (block) => reader.timestampOf(block));
    expect(full.foundOnChain).toEqual([]);
    // A winter day, the day the clocks change and a summer day (ending at 23:00Z) taken out.
    const missing = ['2026-03-10', '2026-03-29', '2026-04-20', '2026-04-21'];
    const gappy = calendar.filter((day) => !missing.includes(day.date));
    const found = await recordDays(gappy, taxYear, (block) => reader.timestampOf(block));
    expect(found.foundOnChain).toEqual(missing);
    const all = (r: typeof full) => [r.recordOpening, ...r.before, ...r.days, ...r.following];
    expect(all(found)).toEqual(all(full));
  });
});
