/**
 * TAO in pounds for a UK day, from the published daily prices (`tax/fiat-prices.json`: the first quote at
 * or after 00:00 UTC of each UTC day). UK day D takes the price of UTC day D; a day without a GBP price
 * takes the latest earlier day that has one, and says so. Prices stay decimal text until multiplied.
 */
import type { Decimal } from 'decimal.js';
import type { TaxFiatPrices } from '../contract/tax-published.js';
import { CgtDecimal } from './cgt/cgt-decimal.js';

export interface GbpPrice {
  /** Pounds per TAO. */
  gbp: Decimal;
  /** The UTC day whose price this is (earlier than the UK day when that day had none). */
  date: string;
  source: string;
}

export class GbpPrices {
  readonly #days: GbpPrice[];

  constructor(days: TaxFiatPrices['days']) {
    this.#days = days
      .filter((day) => day.gbp !== null)
      .map((day) => ({ date: day.date, gbp: new CgtDecimal(day.gbp as string), source: day.source }))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** The price for a UK day; null when no day up to it has a GBP price. */
  on(date: string): GbpPrice | null {
    let lo = 0;
    let hi = this.#days.length - 1;
    let found: GbpPrice | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const day = this.#days[mid]!;
      if (day.date <= date) {
        found = day;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}
