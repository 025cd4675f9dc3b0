import { u8aToHex } from '@polkadot/util';
import { encodeAddress } from '@polkadot/util-crypto';
import type { Account } from './accounts.js';

const MODL = [0x6d, 0x6f, 0x64, 0x6c]; // b"modl"
const SUBTENSR = [0x73, 0x75, 0x62, 0x74, 0x65, 0x6e, 0x73, 0x72]; // b"subtensr"

/**
 * A subnet's own account, which holds the TAO staked into it: `PalletId(*b"subtensr")`'s sub-account for
 * the netuid, i.e. `modl` ++ `subtensr` ++ netuid (u16 little-endian) ++ zeros to 32 bytes
 * (opentensor/subtensor `pallets/subtensor/src/subnets/subnet.rs`, `get_subnet_account_id`).
 */
export function subnetAccount(netuid: number): Account {
  const publicKey = new Uint8Array(32);
  publicKey.set(MODL, 0);
  publicKey.set(SUBTENSR, 4);
  publicKey[12] = netuid & 0xff;
  publicKey[13] = (netuid >> 8) & 0xff;
  return {
    label: `subnet-account/${netuid}`,
    publicKey,
    hex: u8aToHex(publicKey),
    address: encodeAddress(publicKey, 42),
  };
}
