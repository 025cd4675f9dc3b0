import type { ApiKeyRecord } from '../state/gateway-state.js';

/** One thing that happened to one of an account's keys, as `accounts show` lists it. */
export interface KeyEvent {
  at: Date;
  prefix: string;
  event: 'created' | 'revoked' | 'expired';
}

/** How many key events `accounts show` prints, newest first. */
export const RECENT_KEY_EVENTS = 10;

/**
 * The account's recent key events, newest first, read from the keys' own times (created, revoked, an
 * expiry already passed). The state has no key-event table yet: when one lands (with the address each
 * change came from), this is the one place to read it instead.
 */
export function recentKeyEvents(
  keys: readonly ApiKeyRecord[],
  now: Date,
  limit = RECENT_KEY_EVENTS,
): KeyEvent[] {
  const events: KeyEvent[] = [];
  for (const key of keys) {
    events.push({ at: key.createdAt, prefix: key.prefix, event: 'created' });
    if (key.revokedAt) events.push({ at: key.revokedAt, prefix: key.prefix, event: 'revoked' });
    // A key revoked before its expiry never expired.
    else if (key.expiresAt && key.expiresAt <= now)
      events.push({ at: key.expiresAt, prefix: key.prefix, event: 'expired' });
  }
  return events.sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, limit);
}
