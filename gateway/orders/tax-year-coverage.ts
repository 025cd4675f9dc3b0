import { TaxCalendar, taxPaths } from '../../pipeline/contract/tax-published.js';
import { type ObjectStore, readManifest, readPublishedObject } from '../../pipeline/store/index.js';
import { ukDay } from '../../pipeline/time/uk-day.js';
import { parseUkTaxYear, type UkTaxYear } from '../../pipeline/time/uk-tax-year.js';
import { addDays } from '../../pipeline/time/utc-day.js';

/**
 * Which tax years can be sold: coverage decides. A pack reads the stake at the end of every UK
 * day (Europe/London) of its year, so a year is on sale only when the published record (`tax/calendar.json`)
 * holds every UK day from its 6 April to its 5 April, or, for the year under way, to yesterday (today is
 * not over). A year whose first months are missing would be built from a later opening and misstate the
 * year: it is not offered, and checkout and `orders create` refuse it naming the first missing UK day. The
 * operator sells an earlier year by backfilling it with the collection commands (`sbm daily --from`).
 *
 * The record must begin on or before 6 April and reach the year's last needed day. A day missing from the
 * calendar between them (a summer day published before its end could be placed, a day a collection skipped)
 * does not unsell the year: the pack builder finds that day's last block on the chain by its timestamps.
 */
export type TaxYearCoverage = (taxYear: string) => string | null;

export interface YearCoverage {
  /** `2026/27`. */
  taxYear: string;
  /** Every UK day the year needs so far is in the record. */
  covered: boolean;
  /** The first UK day the year needs that the record lacks; null when covered. */
  firstMissingDay: string | null;
  /** One line for a buyer or an operator when not covered; null when covered. */
  reason: string | null;
}

/** The UK days a tax year needs as of `now`: 6 April to 5 April, or to yesterday for the year under way. */
export function neededDays(year: UkTaxYear, now: Date): { from: string; to: string } | null {
  const yesterday = addDays(ukDay(now.getTime()), -1);
  const to = yesterday < year.lastDay ? yesterday : year.lastDay;
  return to < year.firstDay ? null : { from: year.firstDay, to };
}

/** Coverage of one tax year by a parsed calendar (null: nothing published yet). */
export function yearCoverage(calendar: TaxCalendar | null, label: string, now: Date): YearCoverage {
  const year = parseUkTaxYear(label);
  const refuse = (firstMissingDay: string, why: string): YearCoverage => ({
    taxYear: year.label,
    covered: false,
    firstMissingDay,
    reason: `The ${year.label} pack cannot be made: ${why}. Nothing was charged; choose a tax year the record covers.`,
  });
  const needed = neededDays(year, now);
  if (!needed) {
    return refuse(
      year.firstDay,
      `tax year ${year.label} has no finished UK day yet (its first, ${year.firstDay}, is not over)`,
    );
  }
  const days = calendar?.days ?? [];
  const first = days[0]?.date;
  const last = days.at(-1)?.date;
  if (!first || !last) {
    return refuse(
      year.firstDay,
      `the chain record it is built from holds no UK day yet, so UK day ${year.firstDay} is missing`,
    );
  }
  const reach = `the record covers UK days ${first} to ${last}`;
  if (first > needed.from) {
    return refuse(
      needed.from,
      `the chain record lacks UK day ${needed.from}, the first of the tax year (${reach})`,
    );
  }
  if (last < needed.to) {
    const missing = last < needed.from ? needed.from : addDays(last, 1);
    return refuse(missing, `the chain record lacks UK day ${missing} of tax year ${year.label} (${reach})`);
  }
  return { taxYear: year.label, covered: true, firstMissingDay: null, reason: null };
}

/** Parses `tax/calendar.json` bytes; null when absent or not a calendar. */
export function parseCalendar(body: Uint8Array | null): TaxCalendar | null {
  if (!body) return null;
  try {
    const parsed = TaxCalendar.safeParse(JSON.parse(new TextDecoder().decode(body)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Coverage from the live run's calendar; `calendar` gives its bytes (null when nothing is published) and
 * `now` the clock that says which day is yesterday.
 */
export function publishedTaxYearCoverage(
  calendar: () => Uint8Array | null,
  now: () => Date,
): TaxYearCoverage {
  return (label) => {
    const parsed = parseCalendar(calendar());
    if (!parsed) {
      return 'The chain record the packs are built from is not published yet; please try again after the next daily run.';
    }
    return yearCoverage(parsed, label, now()).reason;
  };
}

/** The calendar of the run the store serves now (the commands' view), null when none is published. */
export async function readPublishedCalendar(store: ObjectStore): Promise<TaxCalendar | null> {
  const manifest = await readManifest(store, '').catch(() => null);
  if (!manifest) return null;
  const object = await readPublishedObject(store, manifest, taxPaths.calendar()).catch(() => null);
  return parseCalendar(object?.body ?? null);
}
