/**
 * The PDF's points to check as a reader meets them: each says its UK day, whether its words began with the
 * date or with the chain events of an action (`Transfer 912/5`, which tell a person no day).
 */
import { describe, expect, it } from 'vitest';
import { groupedFlagLine, groupFlags } from '../../../../pipeline/tax/products/pack/grouped-flags.js';

const line = (flags: Parameters<typeof groupFlags>[0]) => groupFlags(flags).map(groupedFlagLine);

describe('a point to check', () => {
  it('raised by one action puts its day first and its chain events in brackets', () => {
    expect(
      line([
        {
          date: '2026-10-27',
          kind: 'transfer-out',
          text: 'Transfer 912/5: TAO sent to 5Friend (outside this order).',
        },
      ]),
    ).toEqual(['2026-10-27 (Transfer 912/5): TAO sent to 5Friend (outside this order).']);
  });

  it('that begins with its date keeps it, once', () => {
    expect(
      line([
        { date: '2026-11-19', kind: 'unpriced', text: '2026-11-19: income on subnet 8 has no pool price.' },
      ]),
    ).toEqual(['2026-11-19: income on subnet 8 has no pool price.']);
  });

  it('repeated on several days is said once with its count and days', () => {
    const flag = (date: string) => ({ date, kind: 'unpriced' as const, text: `${date}: no rate.` });
    expect(line([flag('2026-11-02'), flag('2026-11-01')])).toEqual([
      'no rate. (2 times, on 2 day(s): 2026-11-01, 2026-11-02)',
    ]);
  });
});
