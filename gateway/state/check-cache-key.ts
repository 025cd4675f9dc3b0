import { createHash } from 'node:crypto';

/**
 * The check cache's key for a coldkey (pass the canonical address from `parseColdkey`): its SHA-256,
 * hex. The cached body names the coldkey anyway; the key is opaque so that the state's interface, its
 * index and anything that prints keys never carry an address.
 */
export function checkCacheKey(coldkey: string): string {
  return createHash('sha256').update(coldkey).digest('hex');
}
