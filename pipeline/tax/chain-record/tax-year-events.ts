import type { ColdkeyShard } from '../../contract/tax-published.js';
import type { UkTaxYear } from '../../time/uk-tax-year.js';

const INCOME_KINDS = new Set(['AutoStakeAdded', 'RootClaimed', 'SubnetLeaseDividendsDistributed']);

/**
 * How many staking events of `coldkey` in its shard fall in `year` (by the block's time, in UK time:
 * the year runs from 00:00 Europe/London on 6 April). Not counted: the TAO legs of staking to and from a
 * subnet's own account (the current runtime's transfer beside each StakeAdded and StakeRemoved), and income
 * received by an event (auto-stake, root claims, lease dividends). Every role counts: an event the coldkey
 * made and one where it received stake or TAO. A coldkey absent from the shard, or a missing shard, has none.
 */
export function countTaxYearEvents(shard: ColdkeyShard | null, coldkey: string, year: UkTaxYear): number {
  const events = shard?.coldkeys[coldkey] ?? [];
  let count = 0;
  for (const event of events) {
    // A call's transaction fee is part of that call, not an event of its own.
    if (INCOME_KINDS.has(event.kind) || event.kind === 'TransactionFeePaid') continue;
    if (
      event.kind === 'Transfer' &&
      ((event.from_subnet ?? null) !== null || (event.to_subnet ?? null) !== null)
    )
      continue;
    const at = Date.parse(event.time);
    if (at >= year.startMs && at < year.endMs) count += 1;
  }
  return count;
}
