/**
 * A pack's closing pools of its tax year, from the engine's one run on the whole record: a year with disposals
 * has them with its figures, a year without any with the year ends, and a year the record does not reach is
 * computed up to its end. A pool emptied in an earlier year of the record is not one of a later year's pools.
 */
import { describe, expect, it } from 'vitest';
import { yearClosingPools } from '../../../pipeline/tax/products/year-closing-pools.js';
import { CgtDecimal } from '../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { CgtPool, CgtTransaction } from '../../../pipeline/tax/uk-rules/cgt/cgt-types.js';
import { computeGains } from '../../../pipeline/tax/uk-rules/cgt/compute-gains.js';

const tx = (at: string, asset: string, action: CgtTransaction['action'], quantity: string, gbp: string) => ({
  at: new Date(at),
  asset,
  action,
  quantity: new CgtDecimal(quantity),
  gbp: new CgtDecimal(gbp),
});

// 2024/25: alpha of subnet 9 bought and all of it sold. 2025/26: TAO bought twice, nothing sold.
const record: CgtTransaction[] = [
  tx('2024-05-01T12:00:00Z', 'alpha:9:0', 'acquire', '10', '100'),
  tx('2024-06-01T12:00:00Z', 'alpha:9:0', 'dispose', '10', '150'),
  tx('2025-05-01T12:00:00Z', 'TAO', 'acquire', '5', '1000'),
  tx('2025-07-01T12:00:00Z', 'TAO', 'acquire', '1', '300'),
];
const text = (pools: readonly CgtPool[]) => pools.map((p) => `${p.asset} ${p.quantity} ${p.cost}`);

describe("a tax year's closing pools", () => {
  const gains = computeGains(record);

  it('of a year with disposals are the ones the engine gives with its figures', () => {
    const pools = yearClosingPools(gains, '2024/25', record, '2025-04-05');
    expect(text(pools)).toEqual(text(gains.taxYears.find((y) => y.taxYear === '2024/25')!.closingPools));
    expect(text(pools)).toEqual(['alpha:9:0 0 0']);
  });

  it('of a year without disposals are every pool held at its end, not a pool emptied the year before', () => {
    expect(gains.taxYears.map((y) => y.taxYear)).toEqual(['2024/25']);
    const pools = yearClosingPools(gains, '2025/26', record, '2026-04-05');
    expect(text(pools)).toEqual(['TAO 6 1300']);
    // Computing the gains again up to the year's end lists the emptied pool too, as a pool of nothing.
    const end = new Date('2026-04-05T23:00:00Z').getTime();
    expect(text(computeGains(record.filter((t) => t.at.getTime() < end)).pools)).toEqual([
      'TAO 6 1300',
      'alpha:9:0 0 0',
    ]);
  });

  it('of a year the record does not reach are computed up to its end', () => {
    expect(yearClosingPools(gains, '2023/24', record, '2024-04-05')).toEqual([]);
  });
});
