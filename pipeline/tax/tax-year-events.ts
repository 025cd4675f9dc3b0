import type { ColdkeyShard } from '../contract/tax-published.js';
import type { UkTaxYear } from '../time/uk-tax-year.js';

/**
 * How many staking events of `coldkey` in its shard fall in `year` (by the block's time, in UK time:
 * the year runs from 00:00 Europe/London on 6 April). Every role counts: an event the coldkey made and
 * one where it received stake or TAO. A coldkey absent from the shard, or a missing shard, has none.
 */
export function countTaxYearEvents(shard: ColdkeyShard | null, coldkey: string, year: UkTaxYear): number {
  const events = shard?.coldkeys[coldkey] ?? [];
  let count = 0;
  for (const event of events) {
    const at = Date.parse(event.time);
    if (at >= year.startMs && at < year.endMs) count += 1;
  }
  return count;
}
