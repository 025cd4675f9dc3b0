/**
 * UK days and tax years in `sbm tax cgt`: the same-day rule, the 30-day window and the tax year all count
 * Europe/London days, which in summer (BST) start at 23:00Z the evening before.
 */
import { describe, expect, it } from 'vitest';
import { cgtReport } from './run-cgt.js';

const OPENING = '2020-01-01,TAO,acquire,100,1000';

describe('UK days in sbm tax cgt', () => {
  it('puts 23:30 BST on 5 April in the old tax year and 00:30 BST on 6 April in the new one', async () => {
    const report = await cgtReport([
      OPENING,
      '2025-04-05T22:30:00Z,TAO,dispose,1,30', // 23:30 BST, 5 April 2025
      '2025-04-05T23:30:00Z,TAO,dispose,2,70', // 00:30 BST, 6 April 2025
    ]);
    expect(report.disposals.map((d) => [d.date, d.quantity])).toEqual([
      ['2025-04-05', '1'],
      ['2025-04-06', '2'],
    ]);
    expect(report.tax_years.map((y) => [y.tax_year, y.disposals, y.proceeds])).toEqual([
      ['2024/25', 1, '30'],
      ['2025/26', 1, '70'],
    ]);
  });

  it('reads the same boundary written with an offset and in UK local time', async () => {
    for (const [late, early] of [
      ['2025-04-05T23:30+01:00', '2025-04-06T00:30+01:00'],
      ['2025-04-05T23:30', '2025-04-06T00:30'],
      ['2025-04-05 23:30:00', '2025-04-06 00:30:00.000'],
    ]) {
      const report = await cgtReport([OPENING, `${late},TAO,dispose,1,30`, `${early},TAO,dispose,2,70`]);
      expect(report.tax_years.map((y) => [y.tax_year, y.proceeds])).toEqual([
        ['2024/25', '30'],
        ['2025/26', '70'],
      ]);
    }
  });

  it('groups disposals on one London day into one disposal across UTC midnight in summer, not in winter', async () => {
    const summer = await cgtReport([
      OPENING,
      '2024-07-10T23:30:00Z,TAO,dispose,1,20', // 00:30 BST, 11 July
      '2024-07-11T00:30:00Z,TAO,dispose,2,40', // 01:30 BST, 11 July
    ]);
    expect(summer.disposals.map((d) => [d.date, d.quantity, d.proceeds])).toEqual([
      ['2024-07-11', '3', '60'],
    ]);

    const winter = await cgtReport([
      OPENING,
      '2024-01-10T23:30:00Z,TAO,dispose,1,20', // 23:30 GMT, 10 January
      '2024-01-11T00:30:00Z,TAO,dispose,2,40', // 00:30 GMT, 11 January
    ]);
    expect(winter.disposals.map((d) => [d.date, d.quantity])).toEqual([
      ['2024-01-10', '1'],
      ['2024-01-11', '2'],
    ]);
  });

  it('matches an acquisition made before UTC midnight with a disposal of the same London day', async () => {
    const report = await cgtReport([
      OPENING,
      '2024-07-10T23:30:00Z,TAO,acquire,4,100', // 00:30 BST, 11 July
      '2024-07-11T12:00:00Z,TAO,dispose,4,120',
    ]);
    expect(report.disposals[0]?.matched).toEqual([
      { rule: 'same-day', date: '2024-07-11', quantity: '4', cost: '100' },
    ]);
    expect(report.pools).toEqual([{ asset: 'TAO', quantity: '100', cost: '1000' }]);
  });

  it('reaches 30 London days after a disposal and no further', async () => {
    const report = await cgtReport([
      OPENING,
      '2024-06-01T12:00:00Z,TAO,dispose,10,200',
      '2024-07-01T22:30:00Z,TAO,acquire,3,30', // 23:30 BST, 1 July: day 30
      '2024-07-01T23:30:00Z,TAO,acquire,5,60', // 00:30 BST, 2 July: day 31, into the pool
    ]);
    expect(report.disposals[0]?.matched).toEqual([
      { rule: '30-day', date: '2024-07-01', quantity: '3', cost: '30' },
      { rule: 's104', quantity: '7', cost: '70' },
    ]);
    expect(report.pools).toEqual([{ asset: 'TAO', quantity: '98', cost: '990' }]);
  });

  it('takes a date alone as that UK day', async () => {
    const report = await cgtReport([
      OPENING,
      '2024-07-10T23:30:00Z,TAO,dispose,1,20', // 00:30 BST, 11 July
      '2024-07-11,TAO,dispose,1,20',
      '2024-01-11,TAO,dispose,1,20',
      '2024-01-11T23:59:59Z,TAO,dispose,1,20', // 23:59:59 GMT, 11 January
    ]);
    expect(report.disposals.map((d) => [d.date, d.quantity])).toEqual([
      ['2024-01-11', '2'],
      ['2024-07-11', '2'],
    ]);
  });
});
