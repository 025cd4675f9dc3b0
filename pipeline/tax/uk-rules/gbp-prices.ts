/**
 * TAO in pounds at the end of a UK day, from the published daily prices (`tax/fiat-prices.json`: per UTC
 * date, the first quote at or after 00:00 UTC). A UK day ends at 00:00 UTC (winter) or 23:00 UTC (summer)
 * of the next UTC date, so the quote of the next UTC date is the one nearest the day's end, within the hour:
 * UK day D takes the quote dated D + 1, the same moment as the pool price of the day's last block. A day
 * without that quote takes the nearest earlier one up to `MAX_RATE_AGE_DAYS` older, and the pack says so;
 * beyond that there is no rate and the pack is not built (never a value of £0). Prices stay decimal text
 * until multiplied.
 */
import type { Decimal } from 'decimal.js';
import type { TaxFiatPrices } from '../../contract/tax-published.js';
import { addDays } from '../../time/utc-day.js';
import { CgtDecimal } from './cgt/cgt-decimal.js';

/** How much older than a day's end a rate may be, in days, before the day counts as having none. */
export const MAX_RATE_AGE_DAYS = 3;

export interface GbpPrice {
  /** Pounds per TAO. */
  gbp: Decimal;
  /** The UTC date of the quote (the day after the UK day it values; earlier when that one is missing). */
  date: string;
  /** The quote's time, ISO 8601 UTC: the first quote at or after 00:00 UTC of `date`. */
  at: string;
  source: string;
  /** True when the quote is older than the UK day's end quote (that one was not published). */
  stale: boolean;
}

/** A valuation that has no TAO/GBP rate within `MAX_RATE_AGE_DAYS` of its UK day's end. */
export class MissingFiatRateError extends Error {
  constructor(readonly ukDate: string) {
    super(
      `no TAO/GBP rate for UK day ${ukDate}: none published for ${addDays(ukDate, 1)} (the day's end) nor the ${MAX_RATE_AGE_DAYS} days before it; fetch the missing prices (sbm prices fetch) and build again`,
    );
    this.name = 'MissingFiatRateError';
  }
}

export class GbpPrices {
  readonly #days: Omit<GbpPrice, 'stale'>[];
  /** UK days valued with an older quote than their end's: UK date → the quote used. */
  readonly #stale = new Map<string, GbpPrice>();
  /** Each UK day's rate once found: a big pack asks for a day's rate for each of its transactions. */
  readonly #on = new Map<string, GbpPrice>();

  constructor(days: TaxFiatPrices['days']) {
    this.#days = days
      .filter((day) => day.gbp !== null)
      .map((day) => ({
        date: day.date,
        at: `${day.date}T00:00:00.000Z`,
        gbp: new CgtDecimal(day.gbp as string),
        source: day.source,
      }))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** The rate at the end of a UK day; throws `MissingFiatRateError` when none is near enough. */
  on(ukDate: string): GbpPrice {
    const known = this.#on.get(ukDate);
    if (known) return known;
    const want = addDays(ukDate, 1);
    const found = this.#latestUpTo(want);
    if (!found || found.date < addDays(want, -MAX_RATE_AGE_DAYS)) throw new MissingFiatRateError(ukDate);
    const price = { ...found, stale: found.date !== want };
    if (price.stale) this.#stale.set(ukDate, price);
    this.#on.set(ukDate, price);
    return price;
  }

  /** The UK days valued so far with an older quote than their end's, oldest first. */
  staleDays(): { ukDate: string; price: GbpPrice }[] {
    return [...this.#stale]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([ukDate, price]) => ({ ukDate, price }));
  }

  #latestUpTo(date: string): Omit<GbpPrice, 'stale'> | null {
    let lo = 0;
    let hi = this.#days.length - 1;
    let found: Omit<GbpPrice, 'stale'> | null = null;
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
