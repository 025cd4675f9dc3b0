import crypto from 'node:crypto';

/**
 * SHA-256 of a secret (API key or session cookie), hex. Only this digest is ever stored. The one-shot
 * `crypto.hash` skips the Hash object `createHash` builds, which every keyed request paid for.
 */
export function sha256Hex(secret: string): string {
  return crypto.hash('sha256', secret, 'hex');
}

/**
 * Compares two hex digests in time independent of where they differ, so response timing tells an
 * attacker nothing about how close a guess came to a stored hash.
 */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  // Digests of one algorithm have one length; a mismatch means a malformed value, not a secret leak.
  if (left.length !== right.length || left.length === 0) return false;
  return crypto.timingSafeEqual(left, right);
}
