import { compactToU8a, u8aToHex } from '@polkadot/util';

/**
 * Hand-written SCALE for the few primitive storage values read most often: building a codec object per
 * answer would cost more than the rest of the request.
 */
export function uintLeHex(value: bigint | number, bytes: number): string {
  let v = BigInt(value);
  if (v < 0n) v += 1n << BigInt(bytes * 8); // two's complement for signed fixed-point bits
  let hex = '';
  for (let i = 0; i < bytes; i++) {
    hex += Number(v & 0xffn)
      .toString(16)
      .padStart(2, '0');
    v >>= 8n;
  }
  return `0x${hex}`;
}

export const u16Hex = (v: number) => uintLeHex(v, 2);
export const u32Hex = (v: number) => uintLeHex(v, 4);
export const u64Hex = (v: bigint | number) => uintLeHex(v, 8);
export const u128Hex = (v: bigint) => uintLeHex(v, 16);
export const boolHex = (v: boolean) => (v ? '0x01' : '0x00');

export function bytesHex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return u8aToHex(new Uint8Array([...compactToU8a(bytes.length), ...bytes]));
}

/** Reads a little-endian unsigned integer from hex digits (no 0x). */
export function readUintLe(hex: string): bigint {
  let value = 0n;
  for (let i = hex.length - 2; i >= 0; i -= 2)
    value = (value << 8n) | BigInt(Number.parseInt(hex.slice(i, i + 2), 16));
  return value;
}
