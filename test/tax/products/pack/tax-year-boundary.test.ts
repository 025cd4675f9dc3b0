/**
 * A receipt at 00:30 on 6 April (BST, 23:30Z on 5 April) belongs to the new tax year; one at 23:30 on
 * 5 April (22:30Z) to the old. Through the two pieces that decide it: the calendar's UK day ends (found by
 * timestamp, as the publish step does on the chain) and the income ledger that reads stake at them.
 */
import { describe, expect, it } from 'vitest';
import type { StakesAtBlock } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { type CollectedUtcDay, ukDayEnds } from '../../../../pipeline/tax/chain-record/uk-day-ends.js';
import { GbpPrices } from '../../../../pipeline/tax/uk-rules/gbp-prices.js';
import { incomeLedger } from '../../../../pipeline/tax/uk-rules/income-ledger.js';
import { ukDayStartMs } from '../../../../pipeline/time/uk-day.js';
import { ukTaxYearOf } from '../../../../pipeline/time/uk-tax-year.js';

// A chain with a block every 30 minutes from 2026-04-03T00:00Z.
const START = Date.parse('2026-04-03T00:00:00Z');
const STEP = 30 * 60_000;
const timeOf = async (block: number) => START + block * STEP;
const blockAt = (iso: string) => (Date.parse(iso) - START) / STEP;
const collected: CollectedUtcDay[] = ['2026-04-03', '2026-04-04', '2026-04-05', '2026-04-06'].map(
  (day, i) => ({
    day,
    firstBlock: i * 48,
    lastBlock: i * 48 + 47,
    lastBlockTimeMs: START + (i * 48 + 47) * STEP,
    complete: true,
  }),
);
const POSITION = { coldkey: '5Cold', hotkey: '5Hot', netuid: 0 };

describe('UK tax year boundary', () => {
  it('ends UK days at 23:00Z in summer, so 23:30Z on 5 April is on 6 April', async () => {
    const ends = await ukDayEnds(collected, timeOf);
    const byDate = new Map(ends.map((end) => [end.date, end]));
    expect(byDate.get('2026-04-05')?.lastBlock).toBe(blockAt('2026-04-05T22:30:00Z'));
    expect(byDate.get('2026-04-06')?.lastBlock).toBe(blockAt('2026-04-06T22:30:00Z'));
  });

  for (const [receipt, date, taxYear] of [
    ['2026-04-05T22:30:00Z', '2026-04-05', '2025/26'], // 23:30 BST on 5 April
    ['2026-04-05T23:30:00Z', '2026-04-06', '2026/27'], // 00:30 BST on 6 April
  ] as const) {
    it(`puts a receipt at ${receipt} on UK day ${date}, tax year ${taxYear}`, async () => {
      const ends = await ukDayEnds(collected, timeOf);
      const days = ends.map((end) => ({ date: end.date, block: end.lastBlock, timeMs: end.lastBlockTimeMs }));
      const received = blockAt(receipt);
      // Root stake of 100 TAO that grows by 1 TAO at the receipt's block.
      const stakeAt = (block: number): StakesAtBlock => ({
        block,
        stake: new Map([['5Cold/5Hot/0', block >= received ? 101_000_000_000n : 100_000_000_000n]]),
        held: [{ coldkey: '5Cold', hotkey: '5Hot', netuid: 0 }],
        subnets: new Map(),
        free: new Map(),
      });
      const blocks = days.map((day) => day.block);
      const stakes = new Map(blocks.map((block) => [block, stakeAt(block)]));
      const rows = incomeLedger(
        [POSITION],
        days[0]!,
        days.slice(1),
        stakes,
        new Map(),
        new GbpPrices([{ date: '2026-04-05', usd: null, gbp: '250', source: 'test' }]),
      );
      expect(rows.map((row) => [row.date, row.alphaRao])).toEqual([[date, 1_000_000_000n]]);
      expect(ukTaxYearOf(ukDayStartMs(rows[0]!.date)).label).toBe(taxYear);
      expect(rows[0]!.gbp?.toFixed(2)).toBe('250.00');
    });
  }
});
