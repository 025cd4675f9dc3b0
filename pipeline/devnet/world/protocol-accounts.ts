import { u8aToHex } from '@polkadot/util';
import { encodeAddress } from '@polkadot/util-crypto';
import type { Account } from './accounts.js';

/**
 * A pallet's own account: `PalletId(*b"........").into_account_truncating()`, i.e. `modl` ++ the eight-byte
 * id ++ zeros to 32 bytes (sp_runtime `AccountIdConversion`).
 */
export function palletAccount(id: string): Account {
  if (id.length !== 8) throw new Error(`palletAccount: a PalletId has eight bytes, got "${id}"`);
  const publicKey = new Uint8Array(32);
  publicKey.set(new TextEncoder().encode(`modl${id}`), 0);
  return {
    label: `pallet/${id}`,
    publicKey,
    hex: u8aToHex(publicKey),
    address: encodeAddress(publicKey, 42),
  };
}

/** Where `burn_tao` sends TAO (`BurnAccountId: PalletId = PalletId(*b"burntnsr")`, runtime/src/lib.rs). */
export function burnAccount(): Account {
  return palletAccount('burntnsr');
}

/** The limit-orders pallet's intermediary account (`LimitOrdersPalletId: PalletId(*b"bt/limit")`). */
export function limitOrdersAccount(): Account {
  return palletAccount('bt/limit');
}

/** The hotkey the limit-orders pallet stakes through (`LimitOrdersPalletHotkey`: `PalletId(*b"bt/lmhky")`). */
export function limitOrdersHotkey(): Account {
  return palletAccount('bt/lmhky');
}
