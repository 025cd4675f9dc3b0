/**
 * Section 104 pools carry across tax years (CRYPTO22200): a sandbox world from 1 February to 12 May 2026,
 * the packs of 2025/26 and of 2026/27 for the demo coldkey. The 2026/27 pack must start its pools where the
 * record starts (1 February), not at market value on 5 April, and so give the 2025/26 pack's closing pools
 * as its own opening ones. A day missing from the published calendar is found on the chain.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaxCalendar, taxPaths } from '../../../../pipeline/contract/tax-published.js';
import { readManifest } from '../../../../pipeline/store/manifest.js';
import { readPublishedObject } from '../../../../pipeline/store/publication.js';
import type { CustomerInputs } from '../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { buildPack, type PackOrder } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { calendarBlocksOfRecord, recordDays } from '../../../../pipeline/tax/products/pack/record-days.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { CgtJson } from '../../../../pipeline/tax/uk-rules/cgt/cgt-json.js';
import type { CgtTransaction } from '../../../../pipeline/tax/uk-rules/cgt/cgt-types.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { readCgtCsv } from '../../../../pipeline/tax/uk-rules/cgt/read-cgt-csv.js';
import { ukDay } from '../../../../pipeline/time/uk-day.js';
import { parseUkTaxYear } from '../../../../pipeline/time/uk-tax-year.js';
import { locateBittyTax, runBittyTax } from '../../../support/bittytax.js';
import { runArgs } from '../../uk-rules/cgt/run-cgt.js';
import { type PackWorld, publishPackWorld } from './pack-world.js';
import { pdfToText } from './pdf-text.js';
import { readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2026-02-01T00:00:00Z');
const YEAR_START = '2026-04-06';

let world: PackWorld;
let chain: PackChain;
const packs = new Map<string, Map<string, string>>();
const pdfs = new Map<string, Uint8Array>();

async function packOf(taxYear: string, customer?: CustomerInputs): Promise<Map<string, string>> {
  const order: PackOrder = {
    id: `ord_${taxYear.replace('/', '_')}`,
    sku: 'tax-pack',
    packName: 'UK staking tax pack',
    taxYear,
    coldkeys: [world.devnet.demoColdkey],
    paidAt: new Date('2026-05-12T09:00:00Z'),
  };
  const zip = await JSZip.loadAsync(
    await buildPack(order, { store: world.store, chain: chain.reader }, customer),
  );
  const files = new Map<string, string>();
  for (const name of Object.keys(zip.files)) files.set(name, await zip.file(name)!.async('string'));
  pdfs.set(customer ? `${taxYear} revised` : taxYear, await zip.file('summary.pdf')!.async('uint8array'));
  return files;
}

function transactionsOf(files: Map<string, string>): CgtTransaction[] {
  // As `sbm tax cgt` reads the file (a disposal's fee_gbp included).
  return readCgtCsv(files.get('cgt-input.csv')!);
}

const rowKey = (tx: CgtTransaction) =>
  `${tx.at.toISOString()}|${tx.asset}|${tx.action}|${tx.quantity.toFixed()}|${tx.gbp.toFixed()}`;

beforeAll(async () => {
  world = await publishPackWorld({ genesis: GENESIS, historyDays: 100 });
  chain = openPackChain(world.devnet.url);
  packs.set('2025/26', await packOf('2025/26'));
  packs.set('2026/27', await packOf('2026/27'));
}, 1_500_000); // a 100-day world and two packs: over ten minutes when the two cores are shared

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
    const closing2025 = readCsv(packs.get('2025/26')!.get('pools.csv')!)
      .filter((row) => row['kind'] === 'pool')
      .map((row) => `${row['asset']}|${row['quantity']}|${row['cost_gbp']}`);
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

  it("sbm tax cgt on the 2025/26 pack's cgt-input.csv gives that pack's pools.csv, matched-ahead rows included", async () => {
    const files = packs.get('2025/26')!;
    const dir = await mkdtemp(join(tmpdir(), 'sbm-rerun-pools-'));
    let report: CgtJson;
    try {
      await writeFile(join(dir, 'cgt-input.csv'), files.get('cgt-input.csv')!);
      const run = await runArgs(['tax', 'cgt', join(dir, 'cgt-input.csv'), '--json']);
      expect(run.stderr).toBe('');
      report = JSON.parse(run.stdout) as CgtJson;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // pools.csv as an accountant writes it from the command's year end: pounds to 8 places (half to even),
    // as the pack writes them; its last row (record-end) says how far the record read, no figure of the engine.
    const end = report.year_ends.find((y) => y.tax_year === '2025/26')!;
    const eight = (text: string) => new CgtDecimal(text).toFixed(8, CgtDecimal.ROUND_HALF_EVEN);
    const rerun = [
      ...end.pools.map((p) => `${p.asset}|${p.quantity}|${eight(p.cost)}|${end.as_at}|pool`),
      ...end.matched_ahead.map((m) => `${m.asset}|${m.quantity}|${eight(m.cost)}|${m.day}|matched-ahead`),
    ];
    const packed = readCsv(files.get('pools.csv')!)
      .filter((row) => row['kind'] !== 'record-end')
      .map((row) => `${row['asset']}|${row['quantity']}|${row['cost_gbp']}|${row['as_at']}|${row['kind']}`);
    expect(packed.some((row) => row.endsWith('|matched-ahead'))).toBe(true);
    expect(rerun).toEqual(packed);
    // The pools after the whole input (30 days past the year) are not the year's.
    expect(report.pools).not.toEqual(end.pools);
  });

  it('says in the PDF where the record opens, which holdings entered at market value, and the carried pools', () => {
    const text = pdfToText(pdfs.get('2026/27')!, world.dir).replace(/\s+/g, ' ');
    expect(text).toContain('opens at the end of 2026-02-01');
    expect(text).toContain("pools carried from there, across tax years, to the year's start (2026-04-05)");
    expect(text).toMatch(/the holdings then \(.*alpha/);
  });
});

/** A pack's SA108 lines and disposals as a customer compares them: to the penny. */
function figures(files: Map<string, string>): string[] {
  // A loss under half a penny is -0.00 in one rounding and 0.00 in another: the same figure.
  const penny = (text: string) =>
    new CgtDecimal(text).toFixed(2, CgtDecimal.ROUND_HALF_EVEN).replace(/^-0\.00$/, '0.00');
  return readCsv(files.get('disposals.csv')!).map(
    (row) =>
      `${row['date']}|${row['asset']}|${row['quantity']}|${penny(row['proceeds_gbp']!)}|${penny(row['cost_gbp']!)}|${penny(row['gain_gbp']!)}`,
  );
}

const uploaded = (name: string, text: string, role: 'records' | 'addresses' | 'opening') => ({
  name,
  bytes: new TextEncoder().encode(text),
  role,
});

/** The 2026/27 pack revised with the first counterparty of the year named as the buyer's own (built once). */
let ownAddressBuilt: Promise<{
  own: string;
  addresses: string;
  revised: Map<string, string>;
  text: string;
}> | null = null;
function ownAddressPack() {
  ownAddressBuilt ??= (async () => {
    const crossing = readCsv(packs.get('2026/27')!.get('cgt-input.csv')!).filter(
      (row) =>
        (row['kind'] === 'transfer-in' || row['kind'] === 'transfer-out') &&
        row['counterparty'] &&
        row['datetime']! >= YEAR_START,
    );
    expect(crossing.length).toBeGreaterThan(0);
    const own = crossing[0]!['counterparty']!;
    const addresses = `address,label\n${own},my other wallet\n`;
    const revised = await packOf(
      '2026/27',
      readCustomerFiles([uploaded('addresses.csv', addresses, 'addresses')]),
    );
    const text = pdfToText(pdfs.get('2026/27 revised')!, world.dir).replace(/\s+/g, ' ');
    return { own, addresses, revised, text };
  })();
  return ownAddressBuilt;
}

describe("the buyer's own files", () => {
  it("opening from the 2025/26 pack's pools.csv gives the 2026/27 figures of one computation across both years, to the penny", async () => {
    const pools = packs.get('2025/26')!.get('pools.csv')!;
    // The 2025/26 pack's March disposals took April acquisitions under the 30-day rule: carried as rows.
    expect(readCsv(pools).some((row) => row['kind'] === 'matched-ahead')).toBe(true);
    const carried = await packOf('2026/27', readCustomerFiles([uploaded('pools.csv', pools, 'opening')]));
    const whole = packs.get('2026/27')!;
    expect(figures(whole).length).toBeGreaterThan(0);
    expect(figures(carried)).toEqual(figures(whole));
    // Its own pools.csv closes the year as the one computation does (pools.csv keeps 8 places of pounds, so
    // the carried cost may differ in the 8th place: to the penny).
    const pools2 = (files: Map<string, string>) =>
      readCsv(files.get('pools.csv')!).map(
        (row) =>
          `${row['asset']}|${row['quantity']}|${new CgtDecimal(row['cost_gbp']!).toFixed(2, CgtDecimal.ROUND_HALF_EVEN)}|${row['as_at']}|${row['kind']}`,
      );
    expect(pools2(carried)).toEqual(pools2(whole));
    const text = pdfToText(pdfs.get('2026/27 revised')!, world.dir).replace(/\s+/g, ' ');
    expect(text).toContain('Pools opened from: your pools.csv, as the pools stood at the end of 2026-04-05');
    expect(text).toContain('pools.csv: opening');
  });

  it('a counterparty named as an own address is a move within the holdings, and sbm tax cgt with the same file gives the same figures', async () => {
    const whole = packs.get('2026/27')!;
    const { own, addresses, revised, text } = await ownAddressPack();
    // Before: its transfers are one point of their own, taken at market value; after naming it: none.
    const addressPoints = (files: Map<string, string>) =>
      readCsv(files.get('points.csv')!).filter(
        (row) => row['kind'] === 'address' && row['counterparty'] === own,
      );
    expect(addressPoints(whole).map((row) => row['point'])).toEqual([
      expect.stringMatching(/taken at market value/),
    ]);
    expect(addressPoints(revised)).toEqual([]);
    expect(text).toContain(`my other wallet: ${own}`);
    expect(text).toContain('not read from the chain');
    // The chain record is the same; the figures change, and an accountant gets them offline.
    expect(revised.get('cgt-input.csv')).toEqual(whole.get('cgt-input.csv'));
    const dir = await mkdtemp(join(tmpdir(), 'sbm-own-address-'));
    try {
      await writeFile(join(dir, 'cgt-input.csv'), revised.get('cgt-input.csv')!);
      await writeFile(join(dir, 'addresses.csv'), addresses);
      const run = await runArgs([
        'tax',
        'cgt',
        join(dir, 'cgt-input.csv'),
        '--addresses',
        join(dir, 'addresses.csv'),
        '--json',
      ]);
      expect(run.stderr).toBe('');
      const report = JSON.parse(run.stdout) as CgtJson;
      const penny = (text: string) =>
        new CgtDecimal(text).toFixed(2, CgtDecimal.ROUND_HALF_EVEN).replace(/^-0\.00$/, '0.00');
      expect(
        report.disposals
          .filter((d) => d.date >= YEAR_START)
          .map(
            (d) =>
              `${d.date}|${d.asset}|${d.quantity}|${penny(d.proceeds)}|${penny(d.cost)}|${penny(d.gain)}`,
          ),
      ).toEqual(figures(revised));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // The pack and the CLI share the combining code, so their agreement says nothing about the treatment:
    // the figures computed here from the chain record alone, the moves with the own address taken out.
    const independent = computeGains(withoutMovesWith(own, transactionsOf(revised)))
      .disposals.filter((d) => d.date >= YEAR_START)
      .map((d) => sameFigures(d.date, d.asset, d.quantity.toFixed(), d.proceeds, d.cost, d.gain));
    const fromPack = (files: Map<string, string>) =>
      readCsv(files.get('disposals.csv')!).map((row) =>
        sameFigures(
          row['date']!,
          row['asset']!,
          row['quantity']!,
          row['proceeds_gbp']!,
          row['cost_gbp']!,
          row['gain_gbp']!,
        ),
      );
    expect(independent.length).toBeGreaterThan(0);
    expect(fromPack(revised)).toEqual(independent);
    // And the own address made a difference: without it the moves are acquisitions and disposals.
    expect(fromPack(whole)).not.toEqual(independent);
  }, 300_000);

  it("pairs the own address's moves in the pack's bittytax.csv as a withdrawal and a deposit, never a trade", async () => {
    const { revised } = await ownAddressPack();
    const moves = readCsv(revised.get('bittytax.csv')!).filter((row) =>
      row['Note']!.includes('my other wallet'),
    );
    expect(moves.length).toBeGreaterThan(0);
    expect(moves.map((row) => row['Type']).sort()).toEqual(
      Array.from({ length: moves.length / 2 }, () => ['Deposit', 'Withdrawal'])
        .flat()
        .sort(),
    );
  }, 300_000);
});

/**
 * A disposal's figures as compared here: quantity exact, pounds to the penny (the pack's CSVs give 8 places,
 * half to even).
 */
function sameFigures(
  date: string,
  asset: string,
  quantity: string,
  proceeds: InstanceType<typeof CgtDecimal> | string,
  cost: InstanceType<typeof CgtDecimal> | string,
  gain: InstanceType<typeof CgtDecimal> | string,
): string {
  const penny = (value: InstanceType<typeof CgtDecimal> | string) =>
    new CgtDecimal(value).toFixed(2, CgtDecimal.ROUND_HALF_EVEN).replace(/^-0\.00$/, '0.00');
  return `${date}|${asset}|${new CgtDecimal(quantity).toFixed()}|${penny(proceeds)}|${penny(cost)}|${penny(gain)}`;
}

/**
 * The chain record as it stands when `own` is the buyer's own address, worked out here without the pack's
 * combining code: a transfer to or from it is a move within the holdings, so it books nothing (CRYPTO22150)
 * and both its rows go; a disposal that then exceeds what the record holds that UK day (acquisitions of the
 * day counted first, as the engine counts them) is covered by an acquisition that day at the disposal's
 * value, as every pack covers the chain's unexplained holdings.
 */
function withoutMovesWith(own: string, rows: readonly CgtTransaction[]): CgtTransaction[] {
  const kept = rows.filter(
    (tx) => !((tx.kind === 'transfer-in' || tx.kind === 'transfer-out') && tx.counterparty === own),
  );
  const byDay = new Map<string, CgtTransaction[]>();
  for (const tx of kept)
    byDay.set(ukDay(tx.at.getTime()), [...(byDay.get(ukDay(tx.at.getTime())) ?? []), tx]);
  const held = new Map<string, InstanceType<typeof CgtDecimal>>();
  const covers: CgtTransaction[] = [];
  for (const day of [...byDay.keys()].sort()) {
    const list = byDay.get(day)!;
    for (const tx of list.filter((t) => t.action === 'acquire'))
      held.set(tx.asset, (held.get(tx.asset) ?? new CgtDecimal(0)).add(tx.quantity));
    for (const tx of list.filter((t) => t.action === 'dispose')) {
      const have = held.get(tx.asset) ?? new CgtDecimal(0);
      if (have.lt(tx.quantity)) {
        const short = new CgtDecimal(tx.quantity).sub(have);
        covers.push({
          at: tx.at,
          asset: tx.asset,
          action: 'acquire',
          quantity: short,
          gbp: new CgtDecimal(tx.gbp)
            .mul(short)
            .div(tx.quantity)
            .toDecimalPlaces(8, CgtDecimal.ROUND_HALF_EVEN),
          ref: `covered ${day}`,
        });
        held.set(tx.asset, new CgtDecimal(0));
      } else held.set(tx.asset, have.sub(tx.quantity));
    }
  }
  return [...kept, ...covers].sort((a, b) => a.at.getTime() - b.at.getTime());
}

const bittytax = await locateBittyTax();
const bittytaxSkip = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

describe("the pack's bittytax.csv in BittyTax", () => {
  it.skipIf('skip' in bittytax)(
    `gives the revised pack's 2026/27 proceeds, costs, gains and losses when every counterparty is named as the buyer's own${bittytaxSkip}`,
    async () => {
      // Every transfer across the order's edge made a move within the holdings, the pack books nothing for
      // them, as BittyTax books a Deposit or Withdrawal: the figures are then BittyTax's.
      const counterparties = [
        ...new Set(
          readCsv(packs.get('2026/27')!.get('cgt-input.csv')!)
            .map((row) => row['counterparty'])
            .filter((address): address is string => Boolean(address)),
        ),
      ];
      expect(counterparties.length).toBeGreaterThan(0);
      const addresses = `address,label\n${counterparties.map((a, i) => `${a},own wallet ${i + 1}`).join('\n')}\n`;
      const revised = await packOf(
        '2026/27',
        readCustomerFiles([uploaded('addresses.csv', addresses, 'addresses')]),
      );
      const years = await runBittyTax(revised.get('bittytax.csv')!, {
        location: bittytax,
        taxYear: '2026/27',
        allowWarnings: [/Balance at .* is negative/],
      });
      const theirs = years.find((y) => y.taxYear === '2026/27')!;
      const ours = readCsv(revised.get('disposals.csv')!);
      // BittyTax rounds each matched part (same day, 30 days, pool) to the penny and sums, and reports each
      // part's gain or loss on its own (its "number of disposals" counts parts), where SA108 and the pack
      // count one disposal per token and UK day (TCGA 1992 s105). So: proceeds, costs and the net gain agree
      // within a penny a part; gains and losses are compared as their difference.
      const parts = readCsv(revised.get('matches.csv')!).length;
      const sum = (column: string) => ours.reduce((total, row) => total.add(row[column]!), new CgtDecimal(0));
      const within = (a: InstanceType<typeof CgtDecimal>, b: string) =>
        a.sub(b).abs().lte(new CgtDecimal('0.01').mul(parts));
      expect(theirs.disposals).toBe(parts);
      expect(
        within(sum('proceeds_gbp'), theirs.proceeds),
        `proceeds ${sum('proceeds_gbp')} vs ${theirs.proceeds}`,
      ).toBe(true);
      expect(within(sum('cost_gbp'), theirs.costs), `costs ${sum('cost_gbp')} vs ${theirs.costs}`).toBe(true);
      const net = new CgtDecimal(theirs.gains).sub(theirs.losses).toFixed(2);
      expect(within(sum('gain_gbp'), net), `net gain ${sum('gain_gbp')} vs ${net}`).toBe(true);
    },
    300_000, // a revised pack and BittyTax: over a minute when the two cores are shared
  );
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
    // The blocks a build warms from the calendar before its events are read: the record's days the calendar has.
    expect(calendarBlocksOfRecord(calendar, taxYear)).toEqual(all(full).map((day) => day.block));
    expect(calendarBlocksOfRecord(gappy, taxYear)).toEqual(
      all(found)
        .filter((day) => !missing.includes(day.date))
        .map((day) => day.block),
    );
  });
});
