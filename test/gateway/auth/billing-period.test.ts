import { describe, expect, it } from 'vitest';
import { addMonthsClamped, billingPeriod, periodSeconds } from '../../../gateway/auth/billing-period.js';

const d = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it('run by calendar month from the anchor, at the anchor time of day', () => {
    const anchor = d('2025-03-15T10:00:00Z');
    expect(billingPeriod(anchor, d('2025-03-15T10:00:00Z'))).toEqual({
      start: d('2025-03-15T10:00:00Z'),
      end: d('2025-04-15T10:00:00Z'),
    });
    expect(billingPeriod(anchor, d('2025-04-15T09:59:59.999Z')).start).toEqual(anchor);
    // The end of a period is the start of the next.
    expect(billingPeriod(anchor, d('2025-04-15T10:00:00Z'))).toEqual({
      start: d('2025-04-15T10:00:00Z'),
      end: d('2025-05-15T10:00:00Z'),
    });
    expect(billingPeriod(anchor, d('2026-01-01T00:00:00Z'))).toEqual({
      start: d('2025-12-15T10:00:00Z'),
      end: d('2026-01-15T10:00:00Z'),
    });
  });

  it('clamp a day missing from a month and return to the anchor day afterwards', () => {
    const anchor = d('2024-01-31T00:00:00Z');
    expect(addMonthsClamped(anchor, 1)).toEqual(d('2024-02-29T00:00:00Z'));
    expect(addMonthsClamped(anchor, 2)).toEqual(d('2024-03-31T00:00:00Z'));
    expect(addMonthsClamped(anchor, 13)).toEqual(d('2025-02-28T00:00:00Z'));
    expect(billingPeriod(anchor, d('2024-03-01T00:00:00Z'))).toEqual({
      start: d('2024-02-29T00:00:00Z'),
      end: d('2024-03-31T00:00:00Z'),
    });
  });

  it('use the first period before the anchor and report the length in seconds', () => {
    const anchor = d('2025-03-15T10:00:00Z');
    expect(billingPeriod(anchor, d('2025-03-01T00:00:00Z')).start).toEqual(anchor);
    expect(periodSeconds(billingPeriod(anchor, anchor))).toBe(31 * 86_400);
    expect(periodSeconds(billingPeriod(d('2025-02-01T00:00:00Z'), d('2025-02-10T00:00:00Z')))).toBe(
      28 * 86_400,
    );
  });
});
