import { describe, expect, it } from 'vitest';
import { ukDay, ukDayEndMs, ukDayStartMs, ukOffsetMs } from '../../pipeline/time/uk-day.js';
import {
  InvalidUkTaxYearError,
  parseUkTaxYear,
  ukTaxYear,
  ukTaxYearOf,
} from '../../pipeline/time/uk-tax-year.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

describe('UK days (Europe/London)', () => {
  it('follow GMT in winter and BST in summer', () => {
    expect(ukOffsetMs(at('2026-01-15T12:00:00Z'))).toBe(0);
    expect(ukOffsetMs(at('2026-07-15T12:00:00Z'))).toBe(HOUR);
    // 2026's clocks go forward at 01:00Z on 29 March and back at 01:00Z on 25 October.
    expect(ukOffsetMs(at('2026-03-29T00:59:59Z'))).toBe(0);
    expect(ukOffsetMs(at('2026-03-29T01:00:00Z'))).toBe(HOUR);
    expect(ukOffsetMs(at('2026-10-25T00:59:59Z'))).toBe(HOUR);
    expect(ukOffsetMs(at('2026-10-25T01:00:00Z'))).toBe(0);
  });

  it('name the London date of an instant', () => {
    expect(ukDay(at('2026-07-15T22:59:59Z'))).toBe('2026-07-15');
    expect(ukDay(at('2026-07-15T23:00:00Z'))).toBe('2026-07-16'); // midnight BST
    expect(ukDay(at('2026-01-15T23:59:59Z'))).toBe('2026-01-15');
    expect(ukDay(at('2026-01-16T00:00:00Z'))).toBe('2026-01-16');
  });

  it('start at London midnight and last 23 or 25 hours on the days the clocks change', () => {
    expect(ukDayStartMs('2026-01-15')).toBe(at('2026-01-15T00:00:00Z'));
    expect(ukDayStartMs('2026-07-15')).toBe(at('2026-07-14T23:00:00Z'));
    expect(ukDayStartMs('2026-03-29')).toBe(at('2026-03-29T00:00:00Z'));
    expect(ukDayEndMs('2026-03-29') - ukDayStartMs('2026-03-29')).toBe(23 * HOUR);
    expect(ukDayStartMs('2026-10-25')).toBe(at('2026-10-24T23:00:00Z'));
    expect(ukDayEndMs('2026-10-25') - ukDayStartMs('2026-10-25')).toBe(25 * HOUR);
  });
});

describe('UK tax years', () => {
  it('turn over at 00:00 London time on 6 April (23:00Z on 5 April, in BST)', () => {
    // 2026-04-05T23:30 Europe/London is 22:30Z: still 5 April in the UK.
    expect(ukTaxYearOf(at('2026-04-05T22:30:00Z')).label).toBe('2025/26');
    // 2026-04-06T00:30 Europe/London is 2026-04-05T23:30Z: a UTC 5 April, but a UK 6 April.
    expect(ukTaxYearOf(at('2026-04-05T23:30:00Z')).label).toBe('2026/27');
    expect(ukTaxYearOf(at('2026-04-05T22:59:59.999Z')).label).toBe('2025/26');
    expect(ukTaxYearOf(at('2026-04-05T23:00:00Z')).label).toBe('2026/27');
  });

  it('place a winter instant in the year that began the April before', () => {
    expect(ukTaxYearOf(at('2027-01-15T12:00:00Z')).label).toBe('2026/27');
    expect(ukTaxYearOf(at('2026-12-31T23:59:59Z')).label).toBe('2026/27');
    expect(ukTaxYearOf(at('2027-04-05T12:00:00Z')).label).toBe('2026/27');
  });

  it('know their first and last days and their start and end instants', () => {
    expect(ukTaxYear(2026)).toEqual({
      label: '2026/27',
      startYear: 2026,
      firstDay: '2026-04-06',
      lastDay: '2027-04-05',
      startMs: at('2026-04-05T23:00:00Z'),
      endMs: at('2027-04-05T23:00:00Z'),
    });
    const year = ukTaxYear(2026);
    expect(ukTaxYearOf(year.startMs).label).toBe('2026/27');
    expect(ukTaxYearOf(year.endMs - 1).label).toBe('2026/27');
    expect(ukTaxYearOf(year.endMs).label).toBe('2027/28');
  });

  it('write labels as YYYY/YY, across a century', () => {
    expect(ukTaxYear(2025).label).toBe('2025/26');
    expect(ukTaxYear(2099).label).toBe('2099/00');
    expect(ukTaxYear(2008).label).toBe('2008/09');
    expect(ukTaxYear(2026).label).toMatch(/^\d{4}\/\d{2}$/); // the contract's tax_year pattern
  });

  it('parse a label, refusing one whose years do not follow each other', () => {
    expect(parseUkTaxYear('2026/27')).toEqual(ukTaxYear(2026));
    expect(parseUkTaxYear('2099/00').startYear).toBe(2099);
    for (const bad of ['2026/28', '2026-27', '2026/2027', '26/27', '']) {
      expect(() => parseUkTaxYear(bad)).toThrow(InvalidUkTaxYearError);
    }
  });
});
