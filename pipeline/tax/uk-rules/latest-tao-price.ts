import type { TaxFiatPrices } from '../../contract/tax-published.js';

/** A TAO price as published: exact decimal text, and the UTC day it is the price of. */
export interface PublishedPrice {
  value: string;
  date: string;
}

export interface LatestTaoPrices {
  gbp: PublishedPrice | null;
  usd: PublishedPrice | null;
}

/**
 * The latest published daily TAO price in each currency: the newest day that has one. A day whose
 * price could not be collected is `null` in the published list and skipped here, so one failed fetch
 * does not blank the check; each currency is taken on its own for the same reason.
 */
export function latestTaoPrices(prices: TaxFiatPrices): LatestTaoPrices {
  const latest = (pick: (day: TaxFiatPrices['days'][number]) => string | null): PublishedPrice | null => {
    let best: PublishedPrice | null = null;
    for (const day of prices.days) {
      const value = pick(day);
      if (value !== null && (best === null || day.date > best.date)) best = { value, date: day.date };
    }
    return best;
  };
  return { gbp: latest((day) => day.gbp), usd: latest((day) => day.usd) };
}
