import { randomBytes } from 'node:crypto';
import { encodeBase58 } from './base58.js';

export type IdKind = 'acc' | 'key' | 'ses' | 'acs' | 'tok' | 'kev';

/** Public identifiers (`acc_…`, `key_…`, `ses_…`): 12 random bytes, unguessable but not secrets. */
export function newId(kind: IdKind, random: (size: number) => Uint8Array = randomBytes): string {
  return `${kind}_${encodeBase58(random(12))}`;
}
