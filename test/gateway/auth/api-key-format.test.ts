import { describe, expect, it } from 'vitest';
import {
  API_KEY_BYTES,
  API_KEY_PREFIX,
  apiKeyShape,
  CHECKSUM_CHARS,
  checksumOf,
  crc32,
  generateApiKey,
  isApiKeyShaped,
  visiblePrefix,
} from '../../../gateway/auth/api-key-format.js';
import { BASE58_ALPHABET, encodeBase58 } from '../../../gateway/auth/base58.js';
import { sha256Hex } from '../../../gateway/auth/secret-hash.js';

function decodeBase58(text: string): bigint {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${char}`);
    value = value * 58n + BigInt(digit);
  }
  return value;
}

const toBigInt = (bytes: Uint8Array) => bytes.reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);

describe('base58', () => {
  it('matches the reference encoding, padded to the full width', () => {
    expect(encodeBase58(new TextEncoder().encode('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
    expect(encodeBase58(new Uint8Array(32))).toBe('1'.repeat(44));
    expect(encodeBase58(new Uint8Array(32).fill(255))).toHaveLength(44);
  });
});

describe('API key format', () => {
  it('is the live prefix, 44 base58 characters and a 6-character checksum, with a visible prefix of 6 more', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^sbm_live_[1-9A-HJ-NP-Za-km-z]{44}[0-9A-Za-z]{6}$/);
    expect(isApiKeyShaped(key)).toBe(true);
    expect(prefix).toBe(key.slice(0, API_KEY_PREFIX.length + 6));
    expect(visiblePrefix(key)).toBe(prefix);
    expect(hash).toBe(sha256Hex(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carries all 32 random bytes: the body decodes back to exactly the bytes drawn', () => {
    const drawn: Uint8Array[] = [];
    const random = (size: number) => {
      expect(size).toBe(API_KEY_BYTES);
      const bytes = crypto.getRandomValues(new Uint8Array(size));
      drawn.push(bytes);
      return bytes;
    };
    for (let i = 0; i < 50; i++) {
      const { key } = generateApiKey(random);
      expect(decodeBase58(key.slice(API_KEY_PREFIX.length, -CHECKSUM_CHARS))).toBe(toBigInt(drawn[i]!));
    }
  });

  it('gives distinct keys and distinct visible prefixes, with every base58 character in use', () => {
    const keys = Array.from({ length: 2000 }, () => generateApiKey().key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys.map(visiblePrefix)).size).toBe(keys.length);
    // The last 40 characters are uniform over the alphabet; each should appear about 1,379 times.
    const counts = new Map<string, number>();
    for (const key of keys)
      for (const char of key.slice(-46, -6)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(58);
    for (const count of counts.values()) expect(count).toBeGreaterThan(1100);
  });

  it('rejects strings that are not keys', () => {
    const { key } = generateApiKey();
    for (const bad of [
      '',
      'sbm_live_',
      key.slice(0, -1),
      `${key}x`,
      key.replace('sbm_live_', 'sbm_test_'),
      `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`,
    ]) {
      expect(isApiKeyShaped(bad)).toBe(false);
    }
  });

  it('ends in the CRC32 of the random part in base62, so a typo is found without a lookup', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    const { key } = generateApiKey();
    const body = key.slice(API_KEY_PREFIX.length, -CHECKSUM_CHARS);
    expect(key.slice(-CHECKSUM_CHARS)).toBe(checksumOf(body));
    expect(apiKeyShape(key)).toBe('checksummed');
    // One character of the random part changed: the checksum no longer matches.
    const i = API_KEY_PREFIX.length + 10;
    const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(apiKeyShape(typo)).toBe('bad-checksum');
    expect(isApiKeyShaped(typo)).toBe(false);
  });

  it('still accepts the shape of keys issued before checksums', () => {
    const legacy = API_KEY_PREFIX + body44();
    expect(apiKeyShape(legacy)).toBe('legacy');
    expect(isApiKeyShaped(legacy)).toBe(true);
  });
});

function body44(): string {
  return Array.from({ length: 44 }, (_, i) => BASE58_ALPHABET[(i * 7) % 58]).join('');
}
