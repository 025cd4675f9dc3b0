import { randomBytes } from 'node:crypto';
import { BASE58_ALPHABET, base58Width, encodeBase58 } from './base58.js';
import { sha256Hex } from './secret-hash.js';

/** The fixed live-key prefix; a key found in a log or a repository is recognisable at a glance. */
export const API_KEY_PREFIX = 'sbm_live_';
/** Random bytes behind each key: 256 bits. */
export const API_KEY_BYTES = 32;
/** Characters of the random part that are stored and shown in clear, to tell keys apart in lists. */
export const VISIBLE_BODY_CHARS = 6;

/** Characters of the checksum at the end of a key: CRC32 of the random part, base62. */
export const CHECKSUM_CHARS = 6;
const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const BODY_WIDTH = base58Width(API_KEY_BYTES);
/** Keys made before checksums (still valid): the prefix and the random part only. */
const LEGACY_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[${BASE58_ALPHABET}]{${BODY_WIDTH}}$`);
const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}([${BASE58_ALPHABET}]{${BODY_WIDTH}})([0-9A-Za-z]{${CHECKSUM_CHARS}})$`,
);

export interface GeneratedApiKey {
  /** The whole key: shown to the operator once, never stored. */
  key: string;
  /** `sbm_live_` plus the first characters of the random part; stored and indexed. */
  prefix: string;
  /** SHA-256 of the whole key, hex; stored. */
  hash: string;
}

/**
 * A new key: `sbm_live_`, 32 random bytes in base58 (44 characters), and the CRC32 of those 44
 * characters in base62 (6 characters), as GitHub's tokens carry one: a secret scanner recognises a
 * leaked key offline, and a mistyped or truncated key is refused before any lookup.
 */
export function generateApiKey(random: (size: number) => Uint8Array = randomBytes): GeneratedApiKey {
  const body = encodeBase58(random(API_KEY_BYTES));
  const key = API_KEY_PREFIX + body + checksumOf(body);
  return { key, prefix: visiblePrefix(key), hash: sha256Hex(key) };
}

export type KeyShape = 'checksummed' | 'legacy' | 'bad-checksum' | 'malformed';

/** What a presented value is, decided without any lookup. */
export function apiKeyShape(value: string): KeyShape {
  if (LEGACY_KEY_PATTERN.test(value)) return 'legacy';
  const match = KEY_PATTERN.exec(value);
  if (!match) return 'malformed';
  return checksumOf(match[1]!) === match[2] ? 'checksummed' : 'bad-checksum';
}

/** A key as issued: a checksummed key with a matching checksum, or a key from before checksums. */
export function isApiKeyShaped(value: string): boolean {
  const shape = apiKeyShape(value);
  return shape === 'checksummed' || shape === 'legacy';
}

/** CRC32 (IEEE, as zlib's) of the text's bytes, as 6 base62 digits (62^6 > 2^32), left-padded with 0. */
export function checksumOf(text: string): string {
  let value = crc32(Buffer.from(text, 'utf8'));
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    out = BASE62_ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The last four characters, shown in key lists beside the prefix. */
export function lastFour(key: string): string {
  return key.slice(-4);
}

export function visiblePrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + VISIBLE_BODY_CHARS);
}
