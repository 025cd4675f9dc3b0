/**
 * The engine as the pack calls it (`computeGains` on transactions it builds), and the two renderings: what the
 * pack relies on beyond HMRC's examples (refs, exactness at 9 decimals, pools at each year end, refusals with
 * the caller's ref).
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { plainDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { cgtJson } from '../../../../pipeline/tax/uk-rules/cgt/cgt-json.js';
import { cgtTable } from '../../../../pipeline/tax/uk-rules/cgt/cgt-table.js';
import { CgtInputError, type CgtTransaction } from '../../../../pipeline/tax/uk-rules/cgt/cgt-types.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { runCgt } from './run-cgt.js';

function tx(
  at: string,
  asset: string,
  action: CgtTransaction['action'],
  quantity: string,
  gbp: string,
  ref?: string,
): CgtTransaction {
  return {
    at: new Date(at),
    asset,
    action,
    quantity: new Decimal(quantity),
    gbp: new Decimal(gbp),
    ...(ref ? { ref } : {}),
  };
}

describe('computeGains', () => {
  it('keeps amounts exact to the rao and beyond default decimal.js precision', () => {
    // Decimals from the default decimal.js constructor (20 digits of precision) are taken digit for digit.
    const report = computeGains([
      tx('2024-05-01T12:00:00Z', 'SN12@r123', 'acquire', '123456789.123456789', '1234567.891234567891234567'),
      tx('2024-06-01T12:00:00Z', 'SN12@r123', 'dispose', '0.000000001', '0.000000002'),
    ]);
    const disposal = report.disposals[0];
    // cost = 1234567.891234567891234567 × 0.000000001 / 123456789.123456789: 50 significant digits, no exponent.
    const expected = new Decimal('1234567.891234567891234567')
      .times('0.000000001')
      .dividedBy('123456789.123456789')
      .toSignificantDigits(20);
    expect(new Decimal(disposal?.cost ?? 0).toSignificantDigits(20).eq(expected)).toBe(true);
    expect(plainDecimal(disposal?.cost ?? new Decimal(1))).toMatch(/^0\.0{10}\d{40,}$/);
    expect(plainDecimal(report.pools[0]?.quantity ?? new Decimal(0))).toBe('123456789.123456788');
    // Pool cost + cost taken = cost paid, exactly.
    expect(report.pools[0]?.cost.plus(disposal?.cost ?? 0).toFixed()).toBe('1234567.891234567891234567');
  });

  it("carries the callers' refs into each disposal, grouped by asset and UK day", () => {
    const report = computeGains([
      tx('2024-05-01T08:00:00Z', 'TAO', 'acquire', '10', '100', 'event-1'),
      tx('2024-05-02T08:00:00Z', 'TAO', 'dispose', '2', '30', 'event-2'),
      tx('2024-05-02T09:00:00Z', 'SN1@r1', 'acquire', '5', '30', 'event-3'),
      tx('2024-05-02T22:30:00Z', 'TAO', 'dispose', '3', '45', 'event-4'), // 23:30 BST, still 2 May
      tx('2024-05-02T23:30:00Z', 'TAO', 'dispose', '1', '15', 'event-5'), // 00:30 BST, 3 May
    ]);
    expect(report.disposals.map((d) => [d.date, d.asset, d.refs, d.taxYear])).toEqual([
      ['2024-05-02', 'TAO', ['event-2', 'event-4'], '2024/25'],
      ['2024-05-03', 'TAO', ['event-5'], '2024/25'],
    ]);
    expect(report.pools.map((p) => [p.asset, p.quantity.toFixed(), p.cost.toFixed()])).toEqual([
      ['SN1@r1', '5', '30'],
      ['TAO', '4', '40'],
    ]);
  });

  it('refuses a disposal of more than is held with the ref of that disposal', () => {
    const attempt = () =>
      computeGains([
        tx('2024-05-01T08:00:00Z', 'TAO', 'acquire', '1', '10', 'event-1'),
        tx('2024-05-02T08:00:00Z', 'TAO', 'dispose', '0.6', '10', 'event-2'),
        tx('2024-05-03T08:00:00Z', 'TAO', 'dispose', '0.6', '10', 'event-3'),
      ]);
    expect(attempt).toThrow(CgtInputError);
    expect(attempt).toThrow(
      'event-3: disposal of 0.6 TAO on 2024-05-03 is more than the 0.4 held that UK day',
    );
    try {
      attempt();
    } catch (error) {
      expect((error as CgtInputError).ref).toBe('event-3');
    }
  });

  it('refuses a zero quantity, a negative amount and an invalid date, naming the ref', () => {
    expect(() => computeGains([tx('2024-05-01T08:00:00Z', 'TAO', 'acquire', '0', '10', 'e1')])).toThrow(
      'e1: quantity 0 must be greater than zero',
    );
    expect(() => computeGains([tx('2024-05-01T08:00:00Z', 'TAO', 'acquire', '1', '-1', 'e2')])).toThrow(
      'e2: gbp -1 must not be negative',
    );
    expect(() => computeGains([tx('not a date', 'TAO', 'acquire', '1', '1', 'e3')])).toThrow(
      'e3: the date is not a valid instant',
    );
  });

  it('gives the pools at the end of each tax year with disposals, and SA108 losses as a positive figure', () => {
    const report = computeGains([
      tx('2023-05-01T12:00:00Z', 'TAO', 'acquire', '10', '1000'),
      tx('2024-03-01T12:00:00Z', 'TAO', 'dispose', '4', '100'), // loss 300
      tx('2024-04-05T22:30:00Z', 'TAO', 'acquire', '2', '50'), // 5 April 23:30 BST: in 2023/24's pool
      tx('2024-04-05T23:30:00Z', 'TAO', 'acquire', '2', '50'), // 6 April 00:30 BST: not in it
      tx('2024-06-01T12:00:00Z', 'TAO', 'dispose', '1', '500'),
    ]);
    expect(
      report.taxYears.map((y) => ({
        year: y.taxYear,
        sa108: [y.disposals, y.proceeds, y.costs, y.gains, y.losses].map(String),
        pools: y.closingPools.map((p) => `${p.asset} ${p.quantity} ${p.cost}`),
      })),
    ).toEqual([
      { year: '2023/24', sa108: ['1', '100', '400', '0', '300'], pools: ['TAO 8 650'] },
      { year: '2024/25', sa108: ['1', '500', '70', '430', '0'], pools: ['TAO 9 630'] },
    ]);
  });
});

describe('rendering', () => {
  const report = computeGains([
    tx('2020-01-01T12:00:00Z', 'B', 'acquire', '5000', '500'),
    tx('2024-06-23T08:00:00Z', 'B', 'dispose', '1000', '800'),
    tx('2024-06-23T13:00:00Z', 'B', 'acquire', '1600', '1000'),
    tx('2024-06-23T19:00:00Z', 'B', 'dispose', '500', '600'),
  ]);

  it('JSON: exactly the documented fields, unrounded decimal strings', () => {
    expect(cgtJson(report)).toEqual({
      disposals: [
        {
          date: '2024-06-23',
          asset: 'B',
          quantity: '1500',
          proceeds: '1400',
          cost: '937.5',
          gain: '462.5',
          matched: [{ rule: 'same-day', date: '2024-06-23', quantity: '1500', cost: '937.5' }],
        },
      ],
      pools: [{ asset: 'B', quantity: '5100', cost: '562.5' }],
      tax_years: [
        { tax_year: '2024/25', disposals: 1, proceeds: '1400', costs: '937.5', gains: '462.5', losses: '0' },
      ],
      // Every year from the first acquisition's to the last disposal's: 2019/20 to 2024/25.
      year_ends: ['2019/20', '2020/21', '2021/22', '2022/23', '2023/24', '2024/25'].map((tax_year) => ({
        tax_year,
        as_at: `20${tax_year.slice(5)}-04-05`,
        pools: [
          tax_year === '2024/25'
            ? { asset: 'B', quantity: '5100', cost: '562.5' }
            : { asset: 'B', quantity: '5000', cost: '500' },
        ],
        matched_ahead: [],
      })),
    });
  });

  it("JSON: each year's closing pools and what its disposals took under the 30-day rule after 5 April", () => {
    // 300 disposed of on 1 April 2025 are matched with 300 of the 500 bought on 20 April (£2 each): the
    // 2024/25 pools at 5 April still hold the 1000 of 2024 (the disposal took none of them), and the
    // 20 April acquisitions it took are listed for next year (a pack's pools.csv matched-ahead row).
    const json = cgtJson(
      computeGains([
        tx('2024-05-01T12:00:00Z', 'TAO', 'acquire', '1000', '1000'),
        tx('2025-04-01T12:00:00Z', 'TAO', 'dispose', '300', '900'),
        tx('2025-04-20T12:00:00Z', 'TAO', 'acquire', '500', '1000'),
      ]),
    );
    expect(json.year_ends).toEqual([
      {
        tax_year: '2024/25',
        as_at: '2025-04-05',
        pools: [{ asset: 'TAO', quantity: '1000', cost: '1000' }],
        matched_ahead: [{ asset: 'TAO', day: '2025-04-20', quantity: '300', cost: '600' }],
      },
      {
        tax_year: '2025/26',
        as_at: '2026-04-05',
        pools: [{ asset: 'TAO', quantity: '1200', cost: '1400' }],
        matched_ahead: [],
      },
    ]);
    expect(json.pools).toEqual([{ asset: 'TAO', quantity: '1200', cost: '1400' }]);
    const text = cgtTable(
      computeGains([
        tx('2024-05-01T12:00:00Z', 'TAO', 'acquire', '1000', '1000'),
        tx('2025-04-01T12:00:00Z', 'TAO', 'dispose', '300', '900'),
        tx('2025-04-20T12:00:00Z', 'TAO', 'acquire', '500', '1000'),
      ]),
    );
    expect(text).toMatch(
      /Acquisitions after 2025-04-05 matched with this year's disposals \(30 days\)\n\s+Date\s+Asset\s+Quantity\s+Cost £\n\s+2025-04-20\s+TAO\s+300\s+600\.00\n/,
    );
    expect(text).toContain('Tax year 2025/26: no disposals');
  });

  it('table: per tax year, the disposal and its matched parts, SA108 figures and pools in pence', () => {
    const text = cgtTable(report);
    expect(text).toContain('Tax year 2024/25');
    expect(text).toMatch(/2024-06-23 {2}B\s+1500\s+1,400\.00\s+937\.50\s+462\.50\n/);
    expect(text).toMatch(/same day\s+1500\s+937\.50\n/);
    expect(text).toMatch(/Number of disposals\s+1\n/);
    expect(text).toMatch(/Allowable costs\s+£937\.50\n/);
    expect(text).toMatch(/Gains in the year, before losses\s+£462\.50\n/);
    expect(text).toMatch(/Losses in the year\s+£0\.00\n/);
    expect(text).toMatch(
      /Section 104 pools at 5 April 2025\n\s+Asset\s+Quantity\s+Pooled cost £\n\s+B\s+5100\s+562\.50\n/,
    );
  });

  it('the command prints the table without --json', async () => {
    const run = await runCgt(['2020-01-01,B,acquire,5000,500', '2024-06-23T09:00,B,dispose,1000,800']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Tax year 2024/25');
    expect(run.stdout).toContain('section 104 pool');
    expect(run.stdout).toMatch(/Gains in the year, before losses\s+£700\.00\n/);
  });

  it('a file with no disposals has no tax years and its pools', async () => {
    const run = await runCgt(['2020-01-01,B,acquire,5000,500'], { json: true });
    expect(JSON.parse(run.stdout)).toEqual({
      disposals: [],
      pools: [{ asset: 'B', quantity: '5000', cost: '500' }],
      tax_years: [],
      year_ends: [
        {
          tax_year: '2019/20',
          as_at: '2020-04-05',
          pools: [{ asset: 'B', quantity: '5000', cost: '500' }],
          matched_ahead: [],
        },
      ],
    });
  });
});
