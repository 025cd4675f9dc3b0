/**
 * A subnet's own account: the `subtensr` pallet id's sub-account for the netuid (opentensor/subtensor
 * `pallets/subtensor/src/subnets/subnet.rs`, `get_subnet_account_id`, `into_sub_account_truncating`): the 32
 * bytes `modl`, `subtensr`, the netuid as u16 little-endian, then zeros. Staking sends the TAO there and
 * unstaking pays it back from there (`coinbase/tao.rs`), and a dissolved subnet pays its holders from it: a
 * transfer to or from it is never a payment to or from someone outside the order.
 */
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';

const PREFIX = new TextEncoder().encode('modlsubtensr');

/** The subnet's account as an SS58 address (generic prefix 42, as the chain's codec renders accounts). */
export function subnetAccount(netuid: number, ss58Format = 42): string {
  const bytes = new Uint8Array(32);
  bytes.set(PREFIX, 0);
  bytes[12] = netuid & 0xff;
  bytes[13] = (netuid >> 8) & 0xff;
  return encodeAddress(bytes, ss58Format);
}

/** The netuid whose account `address` is, or null for any other account (or text that is no address). */
export function subnetOfAccount(address: string): number | null {
  let bytes: Uint8Array;
  try {
    bytes = decodeAddress(address);
  } catch {
    return null;
  }
  return subnetOfAccountId(bytes);
}

/** The netuid whose account the 32 bytes `id` are, or null for any other account. */
export function subnetOfAccountId(bytes: Uint8Array): number | null {
  if (bytes.length !== 32) return null;
  for (let i = 0; i < PREFIX.length; i++) if (bytes[i] !== PREFIX[i]) return null;
  for (let i = 14; i < 32; i++) if (bytes[i] !== 0) return null;
  return bytes[12]! | (bytes[13]! << 8);
}
