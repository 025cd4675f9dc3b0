/**
 * Stake held through a coldkey's own EVM address. The EVM staking precompiles (opentensor/subtensor
 * `precompiles/src/staking.rs`: `StakingPrecompile` at 0x…0801 from November 2024, `StakingPrecompileV2` at
 * 0x…0805 from March 2025) dispatch `add_stake`, `remove_stake` and the other staking calls with the EVM
 * caller's mapped account as the signer (`HashedAddressMapping<BlakeTwo256>`: `blake2_256("evm:" ++ address)`).
 * So a stake made from the coldkey's own EVM address (its key's first 20 bytes, `own-evm-address.ts`) is held
 * by that mapped account: `StakeAdded`/`StakeRemoved` name it as the coldkey, and its positions are listed
 * under it. Only the coldkey controls that address (`EnsureAddressTruncated`), so that stake is the coldkey's
 * own, as its TAO there is: the record takes the mapped account in as one of its coldkeys, with its events,
 * when it did anything besides receiving and sending TAO (which the coldkey's own events already hold).
 */
import { encodeAddress } from '@polkadot/util-crypto';
import type { ColdkeyEvent } from '../../contract/tax-published.js';
import { ownEvmOf } from './actions/own-evm-address.js';
import type { FollowedColdkeys, RecordEvent } from './follow-coldkey-swaps.js';

/** Bittensor's SS58 prefix, the format of every coldkey the pack reads. */
const SS58_PREFIX = 42;

/** A coldkey of the record and the account of its own EVM address, which the record took in. */
export interface OwnEvmAccount {
  coldkey: string;
  /** The mapped account (SS58), a coldkey of the record from here on. */
  account: string;
  /** The EVM address (0x, 20 bytes). */
  evm: string;
}

/** The account (SS58) that holds `coldkey`'s own EVM address's TAO and stake; null for no valid coldkey. */
export function ownEvmAccountOf(coldkey: string): string | null {
  const own = ownEvmOf(coldkey);
  return own ? encodeAddress(own.account, SS58_PREFIX) : null;
}

/**
 * Adds to `record` the mapped account of each coldkey's own EVM address that staked (any event of its own but
 * a TAO transfer), with its events; returns the accounts taken in.
 */
export async function followOwnEvmStake(
  record: FollowedColdkeys,
  eventsOf: (coldkey: string) => Promise<readonly ColdkeyEvent[]>,
): Promise<OwnEvmAccount[]> {
  const taken: OwnEvmAccount[] = [];
  const known = new Map<string, RecordEvent>(record.events.map((e) => [`${e.block}/${e.event_index}`, e]));
  for (const coldkey of [...record.coldkeys]) {
    const own = ownEvmOf(coldkey);
    const account = ownEvmAccountOf(coldkey);
    if (!own || !account || record.coldkeys.includes(account)) continue;
    const events = await eventsOf(account);
    if (!events.some((e) => e.kind !== 'Transfer')) continue;
    record.coldkeys.push(account);
    taken.push({ coldkey, account, evm: own.evm });
    for (const event of events) {
      const id = `${event.block}/${event.event_index}`;
      const seen = known.get(id);
      if (!seen || (event.role === 'origin' && seen.role !== 'origin'))
        known.set(id, { ...event, coldkey: account });
    }
  }
  if (taken.length > 0)
    record.events = [...known.values()].sort((a, b) => a.block - b.block || a.event_index - b.event_index);
  return taken;
}
