/** The Bitcoin base58 alphabet: no 0, O, I or l, so a key read aloud or copied by hand stays unambiguous. */
export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Longest base58 text of `byteLength` bytes: ceil(8 · n / log2 58). */
export function base58Width(byteLength: number): number {
  return Math.ceil((byteLength * 8) / Math.log2(58));
}

/**
 * Base58 of the bytes read as one big-endian number, left-padded with the zero digit `1` to the
 * longest width for that many bytes, so every secret of a kind has the same length and shape.
 */
export function encodeBase58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text.padStart(base58Width(bytes.length), BASE58_ALPHABET[0]);
}
