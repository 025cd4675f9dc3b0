/**
 * A credit no event the pack reads names is a point to check with its amount, never nothing. The sandbox's
 * purpose-made world (`untoldLeaseDividend`): on 20 October 2025, spec 320, the first block after midnight
 * pays the demo coldkey a subnet lease's dividend the way runtimes before spec 361 paid it, an epoch
 * `StakeRemoved` of the lease coldkey and a `Balances.Deposit` of TAO to the demo's free balance, of which
 * the collector keeps nothing. A short world around that day (17 to 23 October 2025, one-hour blocks, runtimes
 * placed by mainnet's dates), published by the real pipeline, and the demo's 2025/26 pack built over the real
 * WebSocket: reconciliation.csv shows the credit as the one unexplained difference, on its UK day
 * (Europe/London), of exactly the TAO the truth says was credited, and Points to check in the PDF and the
 * head of README.txt state it with that amount.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTruth, type Truth } from '../../../../pipeline/devnet/index.js';
import { type BuiltPack, buildPackFiles } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { ukDay } from '../../../../pipeline/time/uk-day.js';
import { sharedPackWorld } from '../../../support/shared-pack-world.js';
import type { PackWorld } from './pack-world.js';
import { pdfToText } from './pdf-text.js';
import { raoOf, readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2025-10-17T00:00:00Z');

let world: PackWorld;
let chain: PackChain;
let pack: BuiltPack;
let truth: Truth;

beforeAll(async () => {
  world = await sharedPackWorld({
    genesis: GENESIS,
    historyDays: 6,
    blockTimeMs: 3_600_000,
    runtimes: 'mainnet',
    untoldLeaseDividend: true,
  });
  chain = openPackChain(world.devnet.url);
  pack = await buildPackFiles(
    {
      id: 'ord_untold_dividend',
      sku: 'tax-pack',
      packName: 'UK staking tax pack',
      taxYear: '2025/26',
      coldkeys: [world.devnet.demoColdkey],
      paidAt: new Date('2025-10-23T12:00:00Z'),
    },
    { store: world.store, chain: chain.reader },
  );
  const finalizedNow = world.nowMs - world.options.finalityLag * world.options.blockTimeMs;
  truth = buildTruth({ ...world.options, now: () => finalizedNow }, '2025-10-17', '2025-10-23');
}, 600_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

const text = (name: Parameters<BuiltPack['files']['get']>[0]) =>
  new TextDecoder().decode(pack.files.get(name)!);

/** The credit as the truth lists it: one row, to the demo coldkey, on 20 October 2025 (spec 320). */
function credit(): { rao: bigint; day: string } {
  const rows = truth.actions.filter((a) => a.action === 'lease-dividends-credited');
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  expect(row.coldkey).toBe(world.devnet.demoColdkey);
  const spec = truth.runtimes.filter((r) => r.first_block <= row.block).at(-1)!.spec;
  expect(spec).toBe(320);
  const rao = BigInt(row.tao_rao);
  expect(rao).toBeGreaterThan(0n);
  return { rao, day: ukDay(Date.parse(row.time)) };
}

/** A positive RAO amount as the pack writes it: 9 decimals, and with trailing zeros dropped. */
function tokens(rao: bigint): { fixed: string; trimmed: string } {
  const fixed = `${rao / 1_000_000_000n}.${(rao % 1_000_000_000n).toString().padStart(9, '0')}`;
  return { fixed, trimmed: fixed.replace(/0+$/, '').replace(/\.$/, '') };
}

describe('a lease dividend credited with no event the pack reads (spec 320)', () => {
  it("reconciliation.csv: the one unexplained difference, on the credit's UK day, of exactly the TAO credited", () => {
    const { rao, day } = credit();
    expect(day).toBe('2025-10-20');
    const rows = readCsv(text('reconciliation.csv')).filter((row) => row['level'] === 'asset');
    // The record covers the day before and after: the credit is not at an edge of it.
    expect(rows.some((row) => row['date']! < day)).toBe(true);
    expect(rows.some((row) => row['date']! > day)).toBe(true);
    const differing = rows.filter((row) => raoOf(row['difference']!) !== 0n);
    expect(differing.map((row) => [row['date'], row['asset'], raoOf(row['difference']!)])).toEqual([
      [day, 'TAO', rao],
    ]);
    expect(differing[0]!['explanation']).toMatch(/^unexplained: .*point to check$/);
  });

  it('Points to check in the PDF and the head of README.txt state the credit with its day and amount', async () => {
    const { rao, day } = credit();
    const amount = tokens(rao);
    const points = pack.ledger.mapping.flags.filter((flag) => flag.kind === 'reconciliation');
    expect(points).toHaveLength(1);
    expect(points[0]!.date).toBe(day);
    expect(points[0]!.text).toContain(`${day} +${amount.trimmed}`);
    expect(points[0]!.text).toMatch(/^TAO: on 1 UK day\(s\)/);

    const stated = `${day} TAO +${amount.fixed}`;
    expect(text('README.txt')).toContain(stated);
    expect(text('README.txt')).not.toContain('Every day reconciled');
    // points.csv: one reconciliation point, the exact amount received on that day, with its action.
    const csvPoints = readCsv(text('points.csv')).filter((row) => row['kind'] === 'reconciliation');
    expect(csvPoints.map((row) => [row['first_date'], row['received']])).toEqual([
      [day, `${amount.trimmed} TAO`],
    ]);
    expect(csvPoints[0]!['action']).toMatch(/block explorer/);
    const dir = await mkdtemp(join(tmpdir(), 'sbm-untold-dividend-pdf-'));
    try {
      const pdf = pdfToText(pack.files.get('summary.pdf')!, dir).replace(/\s+/g, ' ');
      expect(pdf).toContain('Reconciliation with the chain');
      expect(pdf).toContain(stated);
      // The list's point (a page break may fall inside it): the asset, the day, the amount to 4 places.
      const pointsAt = pdf.indexOf('Points to check (');
      expect(pointsAt).toBeGreaterThan(-1);
      const point = pdf.slice(pdf.indexOf(`TAO: on 1 UK day (${day})`, pointsAt));
      const fourPlaces = new Decimal(amount.fixed).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toString();
      expect(point.slice(0, 400)).toContain(`the chain holds ${fourPlaces} TAO more`);
      expect(point.slice(0, 600)).toContain('What settles it:');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
