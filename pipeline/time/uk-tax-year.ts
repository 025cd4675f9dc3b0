/**
 * The UK tax year: 6 April to 5 April in UK days (Europe/London), so it starts at 00:00 London time on
 * 6 April (23:00Z on 5 April, as 6 April is always in BST) and is labelled `2026/27` for the year that
 * starts in 2026. The tax check, the estimate and the pack all place instants in a tax year through here.
 */
import { ukDay, ukDayStartMs } from './uk-day.js';

export interface UkTaxYear {
  /** `2026/27`: the starting year and the last two digits of the next. */
  label: string;
  /** The calendar year of its 6 April (2026 for 2026/27). */
  startYear: number;
  /** Its first UK day, `YYYY-04-06`. */
  firstDay: string;
  /** Its last UK day, 5 April of the next year. */
  lastDay: string;
  /** 00:00 Europe/London on 6 April, epoch milliseconds. */
  startMs: number;
  /** 00:00 Europe/London on the next 6 April: the first instant after the year (exclusive). */
  endMs: number;
}

const LABEL = /^(\d{4})\/(\d{2})$/;

export class InvalidUkTaxYearError extends Error {
  override name = 'InvalidUkTaxYearError';
  constructor(readonly text: string) {
    super(`expected a UK tax year as YYYY/YY (for example 2026/27), got "${text}"`);
  }
}

/** The tax year that starts on 6 April of `startYear`. */
export function ukTaxYear(startYear: number): UkTaxYear {
  if (!Number.isInteger(startYear) || startYear < 1000 || startYear > 9998) {
    throw new RangeError(`a tax year's start must be a four-digit year, got ${startYear}`);
  }
  const next = startYear + 1;
  return {
    label: `${startYear}/${String(next % 100).padStart(2, '0')}`,
    startYear,
    firstDay: `${startYear}-04-06`,
    lastDay: `${next}-04-05`,
    startMs: ukDayStartMs(`${startYear}-04-06`),
    endMs: ukDayStartMs(`${next}-04-06`),
  };
}

/** The tax year an instant falls in, judged by the UK day it falls on. */
export function ukTaxYearOf(ms: number): UkTaxYear {
  const day = ukDay(ms);
  const year = Number(day.slice(0, 4));
  return ukTaxYear(day >= `${year}-04-06` ? year : year - 1);
}

/** A label such as `2026/27`; the second part must be the year after the first (`2026/28` is refused). */
export function parseUkTaxYear(label: string): UkTaxYear {
  const match = LABEL.exec(label);
  const startYear = Number(match?.[1]);
  if (!match || startYear < 1000 || startYear > 9998 || Number(match[2]) !== (startYear + 1) % 100) {
    throw new InvalidUkTaxYearError(label);
  }
  return ukTaxYear(startYear);
}
