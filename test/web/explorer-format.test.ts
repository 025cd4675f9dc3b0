/**
 * The explorer's number and date formats (gateway/web/src/format.ts), in a British reader's locale: day
 * axes show dates, small values keep their significant digits, and a change against a window that
 * burned next to nothing reads "new" instead of a rate of millions of percent.
 */
import { beforeAll, describe, expect, it } from 'vitest';

/** What the test uses of gateway/web/src/format.ts (browser code: the Node program does not type-check it). */
interface Format {
  NEW_CHANGE_PCT: number;
  number(value: number): string;
  shortDay(day: string): string;
  shortNumber(value: number): { digits: string; suffix: string };
  shortChangePercent(value: number | null): string;
}
let format: Format;

beforeAll(async () => {
  // The browser code reads the reader's locale from `navigator`; Node 20 has none.
  Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-GB' }, configurable: true });
  // By URL, so that tsc's Node program does not pull the browser code in (it has no DOM types).
  format = (await import(new URL('../../gateway/web/src/format.ts', import.meta.url).href)) as Format;
});

describe('the explorer formats', () => {
  it('labels a day axis with dates, not month-day numbers', () => {
    expect(format.shortDay('2026-11-21')).toBe('21 Nov');
    expect(format.shortDay('2027-01-02')).toBe('2 Jan');
  });

  it('keeps three significant digits of a value below 1', () => {
    expect(format.number(0.00314)).toBe('0.00314');
    expect(format.number(0.000271828)).toBe('0.000272');
    expect(format.number(0.42)).toBe('0.42');
    expect(format.number(1234.5)).toBe('1,234.50');
    expect(format.shortNumber(0.00314)).toEqual({ digits: '0.00314', suffix: '' });
    expect(format.shortNumber(941_900)).toEqual({ digits: '941.9', suffix: 'k' }); // en-GB's compact suffix
  });

  it('says "new" for a change against a window that burned next to nothing', () => {
    expect(format.shortChangePercent(100_700_000)).toBe('new');
    expect(format.shortChangePercent(format.NEW_CHANGE_PCT)).toBe('new');
    expect(format.shortChangePercent(9_999)).toBe('+9,999%');
    expect(format.shortChangePercent(103.3)).toBe('+103.3%');
    expect(format.shortChangePercent(-40)).toBe('-40.0%');
    expect(format.shortChangePercent(null)).toBe('n/a');
  });
});
