/**
 * The PDF's income by month of a UK tax year (6 April to 5 April): 1 to 5 April of the next calendar year
 * belong to the year too. Their income is a thirteenth, short month, so that the months add up to the total
 * (seen in `make pack-preview --tax-year 2025/26`: the April 2026 days were in the total and in no month).
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { incomeSummary } from '../../../../pipeline/tax/products/pack/pack-summary.js';
import type { IncomeRow } from '../../../../pipeline/tax/uk-rules/income-ledger.js';
import { JANUARY_PRICES } from './january-prices.js';
import { TAO } from './ledger-cases.js';

const row = (date: string, tao: bigint): IncomeRow => ({
  date,
  position: { coldkey: '5Customer', hotkey: '5Validator', netuid: 0 },
  registeredAt: 0,
  alphaRao: tao,
  taoRao: tao,
  gbp: new Decimal((tao / TAO).toString()).mul(2),
  priceBlock: 1,
  gbpPrice: JANUARY_PRICES.on('2026-01-10')!,
});

describe('income by month of the 2025/26 tax year', () => {
  const rows = [row('2025-04-06', 1n * TAO), row('2026-03-31', 2n * TAO), row('2026-04-05', 4n * TAO)];
  const summary = incomeSummary(rows, 2025, new Map());

  it('lists April 2025 to March 2026, then 1 to 5 April 2026 with its own income', () => {
    expect(summary.byMonth.map((m) => [m.label, m.taoRao])).toEqual([
      ['Apr 2025', 1n * TAO],
      ...['May 2025', 'Jun 2025', 'Jul 2025', 'Aug 2025', 'Sep 2025', 'Oct 2025', 'Nov 2025', 'Dec 2025'].map(
        (label) => [label, 0n],
      ),
      ['Jan 2026', 0n],
      ['Feb 2026', 0n],
      ['Mar 2026', 2n * TAO],
      ['Apr 2026 (1st to 5th)', 4n * TAO],
    ]);
  });

  it('has months that add up to the total', () => {
    expect(summary.byMonth.reduce((sum, m) => sum + m.taoRao, 0n)).toBe(summary.total.taoRao);
    expect(summary.total.gbp.toFixed(2)).toBe('14.00');
  });

  it('keeps twelve months while 1 to 5 April has no income yet (the current year)', () => {
    expect(incomeSummary(rows.slice(0, 2), 2025, new Map()).byMonth).toHaveLength(12);
  });

  it("marks the months outside the record's days, so the PDF shows a dash there and not £0.00", () => {
    // A year not over, and a record that opened in June: 2 June to 24 November 2025.
    const record = { firstDay: '2025-06-02', lastDay: '2025-11-24' };
    const months = incomeSummary(rows.slice(0, 1), 2025, new Map(), record).byMonth;
    expect(months.filter((m) => m.outsideRecord).map((m) => m.label)).toEqual([
      'Apr 2025',
      'May 2025',
      'Dec 2025',
      'Jan 2026',
      'Feb 2026',
      'Mar 2026',
    ]);
    // June and November, partly covered, and the months between are real figures.
    expect(months.find((m) => m.label === 'Jun 2025')?.outsideRecord).toBeUndefined();
    expect(months.find((m) => m.label === 'Nov 2025')?.outsideRecord).toBeUndefined();
  });
});
