/**
 * The explorer's 7-day spark lines end on the `as_of` day: while that day is under way its point is the
 * day so far, drawn apart (gateway/web/src/spark-line.ts), so most lines do not seem to fall at the end.
 */
import { describe, expect, it } from 'vitest';
import { asOfDayPartial } from '../../gateway/web/src/partial-day.js';

describe('asOfDayPartial', () => {
  it('is true while the as_of day is under way', () => {
    expect(asOfDayPartial('2026-03-02T00:10:00Z')).toBe(true);
    expect(asOfDayPartial('2026-03-02T00:00:00Z')).toBe(true);
    expect(asOfDayPartial('2026-03-02T23:58:00Z')).toBe(true);
  });

  it('is false when as_of closes the day', () => {
    expect(asOfDayPartial('2026-03-02T23:59:59Z')).toBe(false);
    expect(asOfDayPartial('2026-03-02T23:59:59.999Z')).toBe(false);
  });

  it('is false for an unreadable as_of (nothing to mark)', () => {
    expect(asOfDayPartial('not a time')).toBe(false);
  });
});
