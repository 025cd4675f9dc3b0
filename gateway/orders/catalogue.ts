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

export function isSkuId(id: string): id is SkuId {
  return (SKU_IDS as readonly string[]).includes(id);
}

/** `£39.00` for 3900 pence; other currencies as `12.50 USD`. */
export function formatPrice(amountMinor: number, currency: string): string {
  const major = `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, '0')}`;
  return currency === 'gbp' ? `£${major}` : `${major} ${currency.toUpperCase()}`;
}
