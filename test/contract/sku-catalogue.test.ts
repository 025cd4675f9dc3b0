/**
 * The catalogue's SKU ids are static (the checkout's enum is part of the contract), so a tax year must be
 * added before it begins: the tax page asks for `uk-<year>` of the year it shows, and an id missing here is
 * refused at checkout. This test fails on the first day of a UK tax year the catalogue lacks.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SKUS, SKU_IDS } from '../../pipeline/contract/sku.js';
import { ukTaxYearOf } from '../../pipeline/time/uk-tax-year.js';

describe('the SKU catalogue', () => {
  it('sells the current UK tax year (Europe/London) and the one before it', () => {
    const current = ukTaxYearOf(Date.now());
    const before = ukTaxYearOf(current.startMs - 1);
    const years = DEFAULT_SKUS.map((sku) => sku.tax_year);
    expect(years).toContain(current.label);
    expect(years).toContain(before.label);
  });

  it('names each pack by its tax year, one id per year', () => {
    expect(DEFAULT_SKUS.map((sku) => sku.sku)).toEqual([...SKU_IDS]);
    for (const sku of DEFAULT_SKUS) expect(sku.sku).toBe(`uk-${sku.tax_year.replace('/', '-')}`);
  });
});
