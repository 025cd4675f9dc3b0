import { u8aToHex } from '@polkadot/util';
import { blake2AsU8a, encodeAddress } from '@polkadot/util-crypto';

/** An account of the simulated world: a 32-byte public key, its hex and its SS58 address (prefix 42). */
export interface Account {
  label: string;
  publicKey: Uint8Array;
  hex: string;
  address: string;
}

/**
 * Accounts are derived from the seed and a label, not from key pairs: nothing in the sandbox signs, and
 * a public key is all the chain stores.
 */
export function deriveAccount(seed: string, label: string): Account {
  const publicKey = blake2AsU8a(`${seed}/account/${label}`, 256);
  return { label, publicKey, hex: u8aToHex(publicKey), address: encodeAddress(publicKey, 42) };
}
