/**
 * What an accountant and another tax tool do with the pack's files: sum disposals.csv's columns and compare
 * them with the PDF's SA108 figures, add up each disposal's matched parts in matches.csv, and import
 * bittytax.csv or koinly.csv, finding there every transaction the gains were computed from (cgt-input.csv).
 * The demo coldkey's pack of a sandbox record, published by the real pipeline, built over the real WebSocket.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPack } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import type { CgtJson } from '../../../../pipeline/tax/uk-rules/cgt/cgt-json.js';
import { sharedPackWorld } from '../../../support/shared-pack-world.js';
import { runArgs } from '../../uk-rules/cgt/run-cgt.js';
import type { PackWorld } from './pack-world.js';
import { pdfToText } from './pdf-text.js';
import { readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2026-01-01T00:00:00Z');
const PAID_AT = new Date('2026-02-01T09:30:00Z');

let world: PackWorld;
let chain: PackChain;
let files: Map<string, string>;
let pdf: string;

beforeAll(async () => {
  world = await sharedPackWorld({ genesis: GENESIS, historyDays: 30 });
  chain = openPackChain(world.devnet.url);
  const zip = await JSZip.loadAsync(
    await buildPack(
      {
        id: 'ord_add_up',
        sku: 'tax-pack',
        packName: 'UK staking tax pack',
        taxYear: '2025/26',
        coldkeys: [world.devnet.demoColdkey],
        paidAt: PAID_AT,
      },
      { store: world.store, chain: chain.reader },
    ),
  );
  files = new Map();
  for (const name of Object.keys(zip.files)) files.set(name, await zip.file(name)!.async('string'));
  pdf = pdfToText(await zip.file('summary.pdf')!.async('uint8array'), world.dir);
}, 300_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

const sum = (rows: Array<Record<string, string>>, column: string, keep = (_: Decimal) => true) =>
  rows
    .map((row) => new Decimal(row[column]!))
    .filter(keep)
    .reduce((a, b) => a.add(b), new Decimal(0));
/** Pounds as the PDF prints them: £1,234.56. */
const printed = (value: Decimal) =>
  `£${value
    .toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
    .toFixed(2)
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
const sa108 = (box: string) => new RegExp(`${box}\\s+(-?£[\\d,]+\\.\\d\\d)`).exec(pdf)?.[1];

describe('disposals.csv and matches.csv', () => {
  it("sum, column by column, to the PDF's SA108 figures to the penny", () => {
    const disposals = readCsv(files.get('disposals.csv')!);
    expect(disposals.length).toBeGreaterThan(1);
    expect(sa108('Number of disposals') ?? /Number of disposals\s+(\d+)/.exec(pdf)?.[1]).toBe(
      String(disposals.length),
    );
    expect(sa108('Disposal proceeds')).toBe(printed(sum(disposals, 'proceeds_gbp')));
    expect(sa108('Allowable costs \\(including purchase price\\)')).toBe(printed(sum(disposals, 'cost_gbp')));
    expect(sa108('Gains in the year, before losses')).toBe(
      printed(sum(disposals, 'gain_gbp', (g) => g.gt(0))),
    );
    expect(sa108('Losses in the year')).toBe(printed(sum(disposals, 'gain_gbp', (g) => g.lt(0)).neg()));
  });

  it("has matched parts that add up to each disposal's quantity and cost", () => {
    const matches = readCsv(files.get('matches.csv')!);
    for (const disposal of readCsv(files.get('disposals.csv')!)) {
      const parts = matches.filter(
        (m) => m['disposal_date'] === disposal['date'] && m['asset'] === disposal['asset'],
      );
      expect(parts.length, `${disposal['date']} ${disposal['asset']}`).toBeGreaterThan(0);
      expect(sum(parts, 'quantity').eq(disposal['quantity']!)).toBe(true);
      // Each part's cost is rounded to 8 places on its own: within a unit of the last place per part.
      // The cost is the parts and the fees paid to make the disposal.
      expect(
        sum(parts, 'cost_gbp')
          .add(disposal['fee_gbp']!)
          .sub(disposal['cost_gbp']!)
          .abs()
          .lte(new Decimal('1e-8').mul(parts.length + 1)),
      ).toBe(true);
    }
  });
});

describe('sbm tax cgt on cgt-input.csv', () => {
  it("gives the SA108 figures and pools.csv's closing pools of this provisional pack", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sbm-add-up-cgt-'));
    let report: CgtJson;
    try {
      await writeFile(join(dir, 'cgt-input.csv'), files.get('cgt-input.csv')!);
      const run = await runArgs(['tax', 'cgt', join(dir, 'cgt-input.csv'), '--json']);
      expect(run.stderr).toBe('');
      report = JSON.parse(run.stdout) as CgtJson;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const year = report.tax_years.find((y) => y.tax_year === '2025/26')!;
    const disposals = readCsv(files.get('disposals.csv')!);
    expect(year.disposals).toBe(disposals.length);
    expect(sa108('Disposal proceeds')).toBe(printed(new Decimal(year.proceeds)));
    expect(sa108('Allowable costs \\(including purchase price\\)')).toBe(printed(new Decimal(year.costs)));
    // The record ends before 5 April (pools.csv's as_at is its last day): the pools are the same.
    const end = report.year_ends.find((y) => y.tax_year === '2025/26')!;
    const eight = (text: string) => new Decimal(text).toFixed(8, Decimal.ROUND_HALF_EVEN);
    const pools = readCsv(files.get('pools.csv')!).filter((row) => row['kind'] === 'pool');
    expect(pools.length).toBeGreaterThan(0);
    expect(end.pools.map((p) => `${p.asset}|${p.quantity}|${eight(p.cost)}`)).toEqual(
      pools.map((row) => `${row['asset']}|${row['quantity']}|${row['cost_gbp']}`),
    );
  });
});

describe('the exports for BittyTax and Koinly', () => {
  /** cgt-input.csv's transactions, each as the key another tool's row must give. */
  const transactions = () =>
    readCsv(files.get('cgt-input.csv')!).map((row) => ({
      second: row['datetime']!.slice(0, 19),
      asset: exportName(row['asset']!),
      action: row['action']!,
      quantity: new Decimal(row['quantity']!).toFixed(),
      gbp: new Decimal(row['gbp']!).toFixed(8),
    }));

  it('holds every transaction of cgt-input.csv in bittytax.csv, once, with its value unless it is a transfer', () => {
    const rows = readCsv(files.get('bittytax.csv')!);
    expect(Object.keys(rows[0]!)).toEqual([
      'Type',
      'Buy Quantity',
      'Buy Asset',
      'Buy Value in GBP',
      'Sell Quantity',
      'Sell Asset',
      'Sell Value in GBP',
      'Fee Quantity',
      'Fee Asset',
      'Fee Value in GBP',
      'Wallet',
      'Timestamp',
      'Note',
    ]);
    const legs = rows.flatMap((row) => {
      const second = row['Timestamp']!.replace(/\.000 UTC$/, '');
      // A fee paid in the token given (an alpha fee inside an unstake) is in the Fee columns: the pack's
      // disposal is the sell and the fee together, and its acquisition's cost carries half the fee's value
      // (the share BittyTax adds to the buy of a token-for-token trade).
      const feeOfSell = row['Fee Asset'] !== '' && row['Fee Asset'] === row['Sell Asset'];
      const feeValue = new Decimal(row['Fee Value in GBP'] || 0);
      const out = [];
      if (row['Buy Asset'])
        out.push({
          row,
          second,
          asset: row['Buy Asset'],
          action: 'acquire',
          quantity: row['Buy Quantity']!,
          gbp: feeOfSell
            ? new Decimal(row['Buy Value in GBP']!).add(feeValue.div(2)).toFixed(8)
            : row['Buy Value in GBP']!,
        });
      if (row['Sell Asset'])
        out.push({
          row,
          second,
          asset: row['Sell Asset'],
          action: 'dispose',
          quantity: feeOfSell
            ? new Decimal(row['Sell Quantity']!).add(row['Fee Quantity']!).toFixed()
            : row['Sell Quantity']!,
          gbp: feeOfSell
            ? new Decimal(row['Sell Value in GBP']!).add(feeValue).toFixed(8)
            : row['Sell Value in GBP']!,
        });
      return out;
    });
    expect(legs.length).toBe(transactions().length);
    const types = new Set(rows.map((row) => row['Type']));
    expect(types.has('Trade')).toBe(true);
    expect(types.has('Staking-Reward')).toBe(true);
    for (const tx of transactions()) {
      const found = legs.findIndex(
        (leg) =>
          leg.second === tx.second &&
          leg.asset === tx.asset &&
          leg.action === tx.action &&
          new Decimal(leg.quantity).toFixed() === tx.quantity &&
          (leg.gbp === ''
            ? ['Deposit', 'Withdrawal'].includes(leg.row['Type']!)
            : new Decimal(leg.gbp).sub(tx.gbp).abs().lte('0.00000001')),
      );
      expect(found, JSON.stringify(tx)).toBeGreaterThanOrEqual(0);
      legs.splice(found, 1);
    }
  });

  it('holds every transaction of cgt-input.csv in koinly.csv, once', () => {
    const rows = readCsv(files.get('koinly.csv')!);
    expect(Object.keys(rows[0]!).slice(0, 5)).toEqual([
      'Date',
      'Sent Amount',
      'Sent Currency',
      'Received Amount',
      'Received Currency',
    ]);
    const legs = rows.flatMap((row) => {
      const second = row['Date']!.replace(' UTC', '').replace(' ', 'T');
      const out = [];
      if (row['Received Currency'])
        out.push({
          second,
          asset: row['Received Currency'],
          action: 'acquire',
          quantity: row['Received Amount']!,
        });
      // A fee paid in the token sent is part of the pack's disposal.
      const fee =
        row['Fee Currency'] !== '' && row['Fee Currency'] === row['Sent Currency'] ? row['Fee Amount']! : '0';
      if (row['Sent Currency'])
        out.push({
          second,
          asset: row['Sent Currency'],
          action: 'dispose',
          quantity: new Decimal(row['Sent Amount']!).add(fee).toFixed(),
        });
      return out;
    });
    expect(legs.length).toBe(transactions().length);
    for (const tx of transactions()) {
      const found = legs.findIndex(
        (leg) =>
          leg.second === tx.second &&
          leg.asset === tx.asset &&
          leg.action === tx.action &&
          new Decimal(leg.quantity).toFixed() === tx.quantity,
      );
      expect(found, JSON.stringify(tx)).toBeGreaterThanOrEqual(0);
      legs.splice(found, 1);
    }
  });

  it('explains in README.txt when to use which file', () => {
    const readme = files.get('README.txt')!;
    expect(readme).toContain('bittytax.csv');
    expect(readme).toContain('koinly.csv');
    expect(readme).toContain('WHICH FILE TO USE');
    expect(readme).toMatch(/cannot see what you paid for TAO on an exchange/);
  });
});

/** The name another tool knows a pack asset by, written here from the README's words. */
function exportName(asset: string): string {
  const [, netuid, registration] = /^alpha:(\d+):(\d+)$/.exec(asset) ?? [];
  if (netuid === undefined) return asset;
  return registration === '0' ? `SN${netuid}-ALPHA` : `SN${netuid}-ALPHA-R${registration}`;
}
