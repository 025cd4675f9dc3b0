import { u8aToHex } from '@polkadot/util';
import { blake2AsU8a, xxhashAsU8a } from '@polkadot/util-crypto';
import { readUintLe, u16Hex, u32Hex, u128Hex } from './scale.js';

/** How a map key part is hashed and what it holds. */
export type KeyPart =
  | 'identity-u16'
  | 'blake2-u16'
  | 'blake2-account'
  | 'twox64-u32'
  // The swap pallet's `Positions` and the crowdloan pallet's `Contributions` (world/user-liquidity.ts).
  | 'twox64-u16'
  | 'twox64-account'
  | 'twox64-u128'
  | 'identity-account';

/** A decoded key argument: a number for u16/u32, a 0x-hex public key for accounts. */
export type KeyArg = number | string;

export function storagePrefix(pallet: string, item: string): string {
  return u8aToHex(xxhashAsU8a(pallet, 128)) + u8aToHex(xxhashAsU8a(item, 128)).slice(2);
}

function blake2Concat(hex: string): string {
  return u8aToHex(blake2AsU8a(hexToBytes(hex), 128)).slice(2) + hex.slice(2);
}

function hexToBytes(hex: string): Uint8Array {
  const body = hex.slice(2);
  const bytes = new Uint8Array(body.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(body.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function twox64Concat(hex: string): string {
  return u8aToHex(xxhashAsU8a(hexToBytes(hex), 64)).slice(2) + hex.slice(2);
}

export function encodeKey(prefix: string, parts: readonly KeyPart[], args: readonly KeyArg[]): string {
  let key = prefix;
  parts.forEach((part, i) => {
    const arg = args[i];
    if (part === 'identity-u16') key += u16Hex(Number(arg)).slice(2);
    else if (part === 'blake2-u16') key += blake2Concat(u16Hex(Number(arg)));
    else if (part === 'blake2-account') key += blake2Concat(String(arg));
    else if (part === 'twox64-u16') key += twox64Concat(u16Hex(Number(arg)));
    else if (part === 'twox64-account') key += twox64Concat(String(arg));
    else if (part === 'twox64-u128') key += twox64Concat(u128Hex(BigInt(arg ?? 0)));
    else if (part === 'identity-account') key += String(arg).slice(2);
    else key += twox64Concat(u32Hex(Number(arg)));
  });
  return key;
}

/** Decodes the arguments after the 32-byte prefix; null when the key does not have this shape. */
export function decodeKeyArgs(rest: string, parts: readonly KeyPart[]): KeyArg[] | null {
  const args: KeyArg[] = [];
  let at = 0;
  for (const part of parts) {
    if (part === 'identity-u16') {
      if (rest.length < at + 4) return null;
      args.push(Number(readUintLe(rest.slice(at, at + 4))));
      at += 4;
    } else if (part === 'blake2-u16') {
      if (rest.length < at + 36) return null;
      args.push(Number(readUintLe(rest.slice(at + 32, at + 36))));
      at += 36;
    } else if (part === 'blake2-account') {
      if (rest.length < at + 96) return null;
      args.push(`0x${rest.slice(at + 32, at + 96)}`);
      at += 96;
    } else if (part === 'twox64-u16') {
      if (rest.length < at + 20) return null;
      args.push(Number(readUintLe(rest.slice(at + 16, at + 20))));
      at += 20;
    } else if (part === 'twox64-account') {
      if (rest.length < at + 80) return null;
      args.push(`0x${rest.slice(at + 16, at + 80)}`);
      at += 80;
    } else if (part === 'twox64-u128') {
      if (rest.length < at + 48) return null;
      // Position ids are small: a number, as the other integer parts.
      args.push(Number(readUintLe(rest.slice(at + 16, at + 48))));
      at += 48;
    } else if (part === 'identity-account') {
      if (rest.length < at + 64) return null;
      args.push(`0x${rest.slice(at, at + 64)}`);
      at += 64;
    } else {
      if (rest.length < at + 24) return null;
      args.push(Number(readUintLe(rest.slice(at + 16, at + 24))));
      at += 24;
    }
  }
  return at === rest.length ? args : null;
}
