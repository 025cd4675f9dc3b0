import { TaxCalendar } from '../../pipeline/contract/tax-published.js';
import { parseUkTaxYear } from '../../pipeline/time/uk-tax-year.js';

/**
 * Why a pack of a tax year cannot be built from what is published, or null when it can. The pack reads
 * the stake at the end of every collected UK day of its year (`tax/calendar.json`): a year the record
 * does not reach has nothing to read, and its build would fail until the job gives up. Checkout asks
 * first, so nobody pays for a pack that cannot be made.
 */
export type TaxYearCoverage = (taxYear: string) => string | null;

/** Coverage from the live run's calendar; `calendar` gives its bytes, null when nothing is published. */
export function publishedTaxYearCoverage(calendar: () => Uint8Array | null): TaxYearCoverage {
  return (label) => {
    const year = parseUkTaxYear(label);
    const body = calendar();
    const parsed = body ? TaxCalendar.safeParse(JSON.parse(new TextDecoder().decode(body))) : null;
    if (!parsed?.success) {
      return 'The chain record the packs are built from is not published yet; please try again after the next daily run.';
    }
    const days = parsed.data.days;
    if (days.some((day) => day.date >= year.firstDay && day.date <= year.lastDay)) return null;
    const first = days[0]?.date;
    const last = days.at(-1)?.date;
    const reach = first && last ? `it covers UK days ${first} to ${last}` : 'it holds no collected day yet';
    return `The ${label} pack cannot be made: the chain record it is built from does not reach UK tax year ${label} (${reach}). Nothing was charged; choose a tax year the record covers.`;
  };
}
