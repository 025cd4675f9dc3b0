import { DEFAULT_SKUS, SKU_IDS, type Sku, type SkuId } from '../../pipeline/contract/sku.js';

/**
 * The SKU catalogue the gateway sells from: the contract's packs at their default prices, with the
 * prices an operator set in `SBM_SKU_PRICES` (read by config.ts into `prices`).
 */
export interface Catalogue {
  readonly skus: readonly Sku[];
  find(id: string): Sku | null;
}

export function catalogueWithPrices(prices: Readonly<Partial<Record<SkuId, number>>> = {}): Catalogue {
  const skus = DEFAULT_SKUS.map((sku) => ({ ...sku, amount_minor: prices[sku.sku] ?? sku.amount_minor }));
  return {
    skus,
    find: (id) => skus.find((sku) => sku.sku === id) ?? null,
  };
}

/**
 * The SKUs on sale: those whose tax year the published record covers (tax-year-coverage.ts), in SKU
 * order, and the others with why not.
 */
export function onSale(
  catalogue: Catalogue,
  coverage: (taxYear: string) => string | null,
): { skus: Sku[]; notOnSale: { sku: Sku; reason: string }[] } {
  const skus: Sku[] = [];
  const notOnSale: { sku: Sku; reason: string }[] = [];
  for (const sku of catalogue.skus) {
    const reason = coverage(sku.tax_year);
    if (reason) notOnSale.push({ sku, reason });
    else skus.push(sku);
  }
  return { skus, notOnSale };
}

export function isSkuId(id: string): id is SkuId {
  return (SKU_IDS as readonly string[]).includes(id);
}

/** `£39.00` for 3900 pence; other currencies as `12.50 USD`. */
export function formatPrice(amountMinor: number, currency: string): string {
  const major = `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, '0')}`;
  return currency === 'gbp' ? `£${major}` : `${major} ${currency.toUpperCase()}`;
}
