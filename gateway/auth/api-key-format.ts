import { randomBytes } from 'node:crypto';
import { BASE58_ALPHABET, base58Width, encodeBase58 } from './base58.js';
import { sha256Hex } from './secret-hash.js';

/** The fixed live-key prefix; a key found in a log or a repository is recognisable at a glance. */
export const API_KEY_PREFIX = 'sbm_live_';
/** Random bytes behind each key: 256 bits. */
export const API_KEY_BYTES = 32;
/** Characters of the random part that are stored and shown in clear, to tell keys apart in lists. */
export const VISIBLE_BODY_CHARS = 6;

const BODY_WIDTH = base58Width(API_KEY_BYTES);
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[${BASE58_ALPHABET}]{${BODY_WIDTH}}$`);

export interface GeneratedApiKey {
  /** The whole key: shown to the operator once, never stored. */
  key: string;
  /** `sbm_live_` plus the first characters of the random part; stored and indexed. */
  prefix: string;
  /** SHA-256 of the whole key, hex; stored. */
  hash: string;
}

export function generateApiKey(random: (size: number) => Uint8Array = randomBytes): GeneratedApiKey {
  const key = API_KEY_PREFIX + encodeBase58(random(API_KEY_BYTES));
  return { key, prefix: visiblePrefix(key), hash: sha256Hex(key) };
}

export function isApiKeyShaped(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function visiblePrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + VISIBLE_BODY_CHARS);
}
