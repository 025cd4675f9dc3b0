/**
 * A crowdloan's funds account: the `bt/cloan` pallet id's sub-account for the crowdloan id (opentensor/subtensor
 * `pallets/crowdloan/src/lib.rs`, `funds_account`, `into_sub_account_truncating`; `runtime/src/lib.rs`
 * `CrowdloanPalletId`, at 835a2c902): the 32 bytes `modl`, `bt/cloan`, the id as u32 little-endian, then zeros.
 * A contribution sends the TAO there and a refund or withdrawal pays it back from there.
 */
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';

const PREFIX = new TextEncoder().encode('modlbt/cloan');

/** The crowdloan's funds account as an SS58 address (generic prefix 42). */
export function crowdloanAccount(id: number, ss58Format = 42): string {
  const bytes = new Uint8Array(32);
  bytes.set(PREFIX, 0);
  new DataView(bytes.buffer).setUint32(12, id, true);
  return encodeAddress(bytes, ss58Format);
}

/** The crowdloan whose funds account `address` is, or null for any other account. */
export function crowdloanOfAccount(address: string): number | null {
  let bytes: Uint8Array;
  try {
    bytes = decodeAddress(address);
  } catch {
    return null;
  }
  if (bytes.length !== 32) return null;
  for (let i = 0; i < PREFIX.length; i++) if (bytes[i] !== PREFIX[i]) return null;
  for (let i = 16; i < 32; i++) if (bytes[i] !== 0) return null;
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
}
