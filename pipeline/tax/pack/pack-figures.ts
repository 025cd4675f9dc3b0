import { fixedToText } from '../../amounts/rao.js';
import type { ColdkeyEvent } from '../../contract/tax-published.js';
import type { PackInputs } from './pack-inputs.js';

/** One coldkey's line of the placeholder pack: its staking activity in the tax year, exact to the RAO. */
export interface ColdkeyFigures {
  coldkey: string;
  /** Null when the published run has no events for the coldkey's shard. */
  events: number | null;
  taoStaked: string | null;
  taoUnstaked: string | null;
  feesTao: string | null;
}

/**
 * Sums per coldkey (bigint RAO, rendered once as exact decimal TAO): TAO this coldkey put into stake
 * (`StakeAdded` as origin) and took out (`StakeRemoved` as origin), and the fees of its own events.
 */
export function coldkeyFigures(inputs: PackInputs): ColdkeyFigures[] {
  return [...inputs.events.entries()].map(([coldkey, events]) => {
    if (events === null) {
      return { coldkey, events: null, taoStaked: null, taoUnstaked: null, feesTao: null };
    }
    const sum = (pick: (event: ColdkeyEvent) => string | null, kind?: ColdkeyEvent['kind']) =>
      fixedToText(
        events
          .filter((event) => event.role === 'origin' && (kind === undefined || event.kind === kind))
          .reduce((total, event) => total + BigInt(pick(event) ?? '0'), 0n),
        9,
      );
    return {
      coldkey,
      events: events.length,
      taoStaked: sum((event) => event.tao_rao, 'StakeAdded'),
      taoUnstaked: sum((event) => event.tao_rao, 'StakeRemoved'),
      feesTao: sum((event) => event.fee_rao),
    };
  });
}
