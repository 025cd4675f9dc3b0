import { z } from 'zod';

/**
 * The tax packs on sale: one UK tax year each, for up to five coldkeys. The ids are part of the public
 * interface (the checkout's `sku`); prices are defaults the gateway's `SBM_SKU_PRICES` may override.
 */
/**
 * The ids are static (the checkout's enum is part of the contract), so each tax year is added before it
 * begins: a test fails once the current UK tax year has no pack here.
 */
export const SKU_IDS = ['uk-2024-25', 'uk-2025-26', 'uk-2026-27', 'uk-2027-28'] as const;
export type SkuId = (typeof SKU_IDS)[number];

/** Coldkeys one pack covers (the person's wallets: a section 104 pool is per person, not per wallet). */
export const MAX_COLDKEYS_PER_PACK = 5;

export const Sku = z
  .object({
    sku: z.enum(SKU_IDS),
    name: z.string(),
    kind: z.string().meta({ description: 'What the pack is: `uk-tax-year`, one UK tax year.' }),
    tax_year: z.string().meta({ description: 'The UK tax year covered, `<YYYY>/<YY>`.' }),
    max_coldkeys: z.number().int(),
    amount_minor: z.number().int().meta({ description: 'The price in minor units (pence).' }),
    currency: z.string().meta({ description: 'ISO 4217, lower case: `gbp`.' }),
  })
  .meta({ id: 'Sku' });
export type Sku = z.infer<typeof Sku>;

function ukYearPack(startYear: number): Sku {
  const label = `${startYear}/${String((startYear + 1) % 100).padStart(2, '0')}`;
  return {
    sku: `uk-${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}` as SkuId,
    name: `UK tax pack ${label}`,
    kind: 'uk-tax-year',
    tax_year: label,
    max_coldkeys: MAX_COLDKEYS_PER_PACK,
    amount_minor: 3900,
    currency: 'gbp',
  };
}

/** The catalogue at its default prices, in SKU order. */
export const DEFAULT_SKUS: readonly Sku[] = [2024, 2025, 2026, 2027].map(ukYearPack);
