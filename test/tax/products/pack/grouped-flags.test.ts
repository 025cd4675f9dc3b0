/**
 * The PDF's points to check as a reader meets them: each says its UK day, whether its words began with the
 * date or with the chain events of an action (`Transfer 912/5`, which tell a person no day).
 */
import { describe, expect, it } from 'vitest';
import {
  groupedFlagLine,
  groupFlags,
  MAX_LISTED_POINTS,
  pointsToList,
} from '../../../../pipeline/tax/products/pack/grouped-flags.js';

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

describe('a long list of points', () => {
  // 45 transfers out over the year to 45 addresses, then the coldkey swap the record followed and the
  // provisional disposals.
  const transfers = Array.from({ length: 45 }, (_, i) => ({
    date: `2026-${String(5 + Math.floor(i / 28)).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    kind: 'transfer-out' as const,
    text: `Transfer ${1000 + i}/3: TAO sent to 5Friend${i} (outside this order), taken as disposed of at its market value.`,
  }));
  const points = groupFlags([
    ...transfers,
    { date: '2026-11-20', kind: 'moved', text: '2026-11-20: coldkey 5Old was swapped to 5New.' },
    {
      date: '2026-11-20',
      kind: 'provisional',
      text: 'The record ends on 2026-11-24: those costs are provisional.',
    },
  ]);

  it('lists a screenful of the transfers and every point about the whole record, the rest counted', () => {
    const { listed, unlisted } = pointsToList(points);
    expect(listed.filter((p) => p.kind === 'transfer-out')).toHaveLength(MAX_LISTED_POINTS);
    expect(listed.slice(-2).map((p) => p.kind)).toEqual(['moved', 'provisional']);
    expect(unlisted).toBe(45 - MAX_LISTED_POINTS);
  });
});
