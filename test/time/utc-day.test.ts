import { describe, expect, it } from 'vitest';
import {
  addDays,
  DAY_MS,
  daysEnding,
  eachDay,
  epochDay,
  formatUtcDay,
  InvalidUtcDayError,
  isUtcDay,
  parseUtcDay,
} from '../../pipeline/time/utc-day.js';
import { utcDayOption } from '../../pipeline/time/utc-day-option.js';

describe('UTC days', () => {
  it('accepts real YYYY-MM-DD dates only', () => {
    expect(isUtcDay('2024-02-29')).toBe(true);
    expect(isUtcDay('2025-12-31')).toBe(true);
    // Date.parse would roll 30 February over to 2 March; a day that does not exist is refused.
    expect(isUtcDay('2025-02-29')).toBe(false);
    expect(isUtcDay('2025-02-30')).toBe(false);
    expect(isUtcDay('2025-13-01')).toBe(false);
    expect(isUtcDay('2025-1-01')).toBe(false);
    expect(isUtcDay('2025-01-01T00:00:00Z')).toBe(false);
    expect(isUtcDay(' 2025-01-01')).toBe(false);
    expect(isUtcDay('')).toBe(false);
  });

  it('parses a day to its 00:00Z instant and says what it expected when it cannot', () => {
    expect(parseUtcDay('2025-03-01')).toBe(Date.UTC(2025, 2, 1));
    expect(() => parseUtcDay('2025-02-30')).toThrow(InvalidUtcDayError);
    expect(() => parseUtcDay('March 1')).toThrow('expected a UTC day as YYYY-MM-DD, got "March 1"');
  });

  it('formats the day of an instant, by UTC and not by the local clock', () => {
    expect(formatUtcDay(Date.UTC(2025, 2, 1))).toBe('2025-03-01');
    expect(formatUtcDay(Date.UTC(2025, 2, 1) + DAY_MS - 1)).toBe('2025-03-01');
    expect(formatUtcDay(Date.UTC(2025, 2, 1) - 1)).toBe('2025-02-28');
  });

  it('adds days across month, leap-year and year ends', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2025-03-01', 0)).toBe('2025-03-01');
    expect(addDays('2025-01-01', 365)).toBe('2026-01-01');
  });

  it('counts days since the epoch (DuckDB DATE values)', () => {
    expect(epochDay('1970-01-01')).toBe(0);
    expect(epochDay('1970-01-02')).toBe(1);
    expect(epochDay('1969-12-31')).toBe(-1);
    expect(epochDay('2025-03-01')).toBe(20_148);
  });

  it('lists every day of a range, both ends included', () => {
    expect(eachDay('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(eachDay('2025-01-01', '2025-01-01')).toEqual(['2025-01-01']);
    expect(eachDay('2025-01-02', '2025-01-01')).toEqual([]);
  });

  it('lists the days ending with a day, oldest first', () => {
    expect(daysEnding('2025-03-02', 3)).toEqual(['2025-02-28', '2025-03-01', '2025-03-02']);
    expect(daysEnding('2025-03-02', 1)).toEqual(['2025-03-02']);
    expect(daysEnding('2025-03-02', 0)).toEqual([]);
  });

  it('gives commander an error it can attach to the option', () => {
    expect(utcDayOption('2025-03-01')).toBe('2025-03-01');
    expect(() => utcDayOption('2025-3-1')).toThrow(
      expect.objectContaining({
        code: 'commander.invalidArgument',
        message: 'expected a UTC day as YYYY-MM-DD, got "2025-3-1"',
      }),
    );
  });
});
