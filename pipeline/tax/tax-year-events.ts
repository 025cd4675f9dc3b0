import type { ColdkeyShard } from '../contract/tax-published.js';
import type { UkTaxYear } from '../time/uk-tax-year.js';

const INCOME_KINDS = new Set(['AutoStakeAdded', 'RootClaimed', 'SubnetLeaseDividendsDistributed']);

/**
 * How many staking actions of `coldkey` in its shard fall in `year` (by the block's time, in UK time:
 * the year runs from 00:00 Europe/London on 6 April): the events of one extrinsic count once (the current
 * runtime emits a transfer and a StakeAdded for one stake, four events for a move), and income received
 * by an event (auto-stake, root claims, lease dividends) is not an action. Every role counts: an event the
 * coldkey made and one where it received stake or TAO. A coldkey absent from the shard, or a missing shard,
 * has none.
 */
export function countTaxYearEvents(shard: ColdkeyShard | null, coldkey: string, year: UkTaxYear): number {
  const events = shard?.coldkeys[coldkey] ?? [];
  const actions = new Set<string>();
  for (const event of events) {
    if (INCOME_KINDS.has(event.kind)) continue;
    const at = Date.parse(event.time);
    if (at < year.startMs || at >= year.endMs) continue;
    actions.add(
      typeof event.extrinsic_index === 'number'
        ? `${event.block}/x${event.extrinsic_index}`
        : `${event.block}/e${event.event_index}`,
    );
  }
  return actions.size;
}
