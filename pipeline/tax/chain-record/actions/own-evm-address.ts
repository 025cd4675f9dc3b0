/**
 * A coldkey's own EVM address on subtensor, known from the coldkey alone. The runtime maps an EVM address to
 * the account that holds its TAO by `HashedAddressMapping<BlakeTwo256>` (`blake2_256("evm:" ++ address)`),
 * and lets a substrate account draw on an EVM address by `EVM.withdraw` only when the address is the first 20
 * bytes of that account's public key (`WithdrawOrigin = EnsureAddressTruncated`; opentensor/subtensor
 * `runtime/src/lib.rs`, `impl pallet_evm::Config`). So the account mapped from a coldkey's truncated key is
 * the coldkey's own: TAO sent there and back stays the owner's. Any other EVM address is an address like any
 * other: the pack cannot tell whose it is.
 */
import { u8aConcat, u8aEq, u8aToHex } from '@polkadot/util';
import { blake2AsU8a, decodeAddress } from '@polkadot/util-crypto';

const mapped = new Map<string, { evm: string; account: Uint8Array } | null>();

/** The coldkey's own EVM address (0x, 20 bytes) and the account holding its TAO; null for no valid address. */
export function ownEvmOf(coldkey: string): { evm: string; account: Uint8Array } | null {
  let found = mapped.get(coldkey);
  if (found === undefined) {
    try {
      const evm = decodeAddress(coldkey).slice(0, 20);
      const account = blake2AsU8a(u8aConcat(new TextEncoder().encode('evm:'), evm), 256);
      found = { evm: u8aToHex(evm), account };
    } catch {
      found = null;
    }
    if (mapped.size > 10_000) mapped.clear();
    mapped.set(coldkey, found);
  }
  return found;
}

/** The EVM address (0x) when `account` is the account of `coldkey`'s own EVM address, else null. */
export function ownEvmAddressAt(coldkey: string, account: string | null): string | null {
  if (account === null) return null;
  const own = ownEvmOf(coldkey);
  if (!own) return null;
  try {
    return u8aEq(decodeAddress(account), own.account) ? own.evm : null;
  } catch {
    return null;
  }
}
