/**
 * A day whose TAO/GBP rate was not published: the pack values it at the nearest earlier quote when that is
 * at most 3 days older, and says so in the PDF and income.csv; with none that near it refuses to build
 * (the fulfilment job then alerts and retries, as for any failed build), never valuing anything at £0.
 * The demo coldkey's record on the sandbox, published by the real pipeline, with rates taken out.
 */
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTaxYearLedger } from '../../../../pipeline/tax/products/compute-tax-year.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { incomeCsv } from '../../../../pipeline/tax/products/pack/pack-csv.js';
import { type PackInputs, readPackInputs } from '../../../../pipeline/tax/products/pack/pack-inputs.js';
import { packPdf } from '../../../../pipeline/tax/products/pack/pack-pdf.js';
import { MissingFiatRateError } from '../../../../pipeline/tax/uk-rules/gbp-prices.js';
import { addDays } from '../../../../pipeline/time/utc-day.js';
import { type PackWorld, publishPackWorld } from './pack-world.js';
import { pdfToText } from './pdf-text.js';
import { readCsv } from './read-pack-csv.js';

let world: PackWorld;
let chain: PackChain;
let inputs: PackInputs;

const order = () => ({
  id: 'ord_rates',
  sku: 'tax-pack',
  packName: 'UK staking tax pack',
  taxYear: '2025/26',
  coldkeys: [world.devnet.demoColdkey],
  paidAt: new Date('2026-01-20T09:00:00Z'),
});

beforeAll(async () => {
  world = await publishPackWorld({ genesis: new Date('2026-01-01T00:00:00Z'), historyDays: 16 });
  chain = openPackChain(world.devnet.url);
  inputs = await readPackInputs(world.store, order());
}, 300_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

/** The inputs with the quotes of these UTC dates taken out. */
const without = (dates: string[]): PackInputs => ({
  ...inputs,
  fiat: inputs.fiat.filter((day) => !dates.includes(day.date)),
});

describe('a TAO/GBP rate missing at a day’s end', () => {
  it('takes the quote of up to 3 days before, flagged in the PDF and in income.csv', async () => {
    // UK day 2026-01-08 ends at the quote dated 2026-01-09; take out 09, 08 and 07: the 06 quote is used.
    const gappy = without(['2026-01-07', '2026-01-08', '2026-01-09']);
    const ledger = await computeTaxYearLedger(gappy, order().coldkeys, await chain.reader());
    const flag = ledger.mapping.flags.find((f) => f.kind === 'stale-rate');
    expect(flag?.text).toContain('2026-01-08: rate of 2026-01-06');
    const income = readCsv(incomeCsv(ledger, inputs.subnetNames)).filter(
      (row) => row['date'] === '2026-01-08',
    );
    expect(income.length).toBeGreaterThan(0);
    for (const row of income) {
      expect(row['tao_gbp_at']).toBe('2026-01-06T00:00:00.000Z');
      expect(row['note']).toContain('none at the day');
      // Valued at that quote, never at £0: TAO × rate to 8 places (a dust position's few RAO round to £0).
      expect(row['gbp']).toBe(
        new Decimal(row['tao']!)
          .times(row['tao_gbp']!)
          .toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN)
          .toFixed(8),
      );
    }
    expect(income.some((row) => Number(row['gbp']) > 0)).toBe(true);
    const pdf = pdfToText(await packPdf(order(), gappy, ledger, order().paidAt), world.dir).replace(
      /\s+/g,
      ' ',
    );
    expect(pdf).toContain('No TAO/GBP rate was published at the end of');
  });

  it('refuses to build when the nearest earlier quote is more than 3 days older', async () => {
    const gappy = without(['2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09']);
    await expect(computeTaxYearLedger(gappy, order().coldkeys, await chain.reader())).rejects.toThrow(
      MissingFiatRateError,
    );
  });

  it('values every day of a fully priced record at its own day-end quote', async () => {
    const ledger = await computeTaxYearLedger(inputs, order().coldkeys, await chain.reader());
    expect(ledger.mapping.flags.filter((f) => f.kind === 'stale-rate')).toEqual([]);
    // Income on every day of the record after the first (collected 1 to 16 January; the record opens at
    // the first day's end), each at the quote of its end: in winter the UK day is the UTC day, and its
    // end is the quote dated the next UTC day.
    const days = Array.from({ length: 15 }, (_, i) => addDays('2026-01-02', i));
    expect([...new Set(ledger.income.map((row) => row.date))].sort()).toEqual(days);
    for (const row of ledger.income) {
      expect([row.date, row.gbpPrice.date, row.gbpPrice.stale]).toEqual([
        row.date,
        addDays(row.date, 1),
        false,
      ]);
    }
  });
});
