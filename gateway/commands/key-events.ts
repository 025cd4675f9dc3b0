import { newId } from '../auth/random-id.js';
import { OPERATOR_SOURCE, type KeyEvent as RecordedKeyEvent } from '../state/billing-state.js';
import type { ApiKeyRecord, GatewayState } from '../state/gateway-state.js';

/** One thing that happened to one of an account's keys, as `accounts show` lists it. */
export interface KeyEvent {
  at: Date;
  prefix: string;
  event: RecordedKeyEvent['kind'] | 'expired';
  /**
   * Where the change came from, as the account page shows it to the holder: the address of the page's
   * request, `operator` for the operator's `keys` commands, null for an expiry (no one did it).
   */
  from: string | null;
}

/** How many key events `accounts show` prints, newest first. */
export const RECENT_KEY_EVENTS = 10;

/**
 * The account's recent key events, newest first: the recorded creates, rolls and revocations (the
 * key_events table, which the account page shows too), plus the expiries that have passed. An expiry
 * (the end of a roll's grace period) is nobody's action, so nothing records it: it is read from the
 * key's own time, and only for keys not revoked first.
 */
export async function recentKeyEvents(
  state: GatewayState,
  accountId: string,
  keys: readonly ApiKeyRecord[],
  now: Date,
  limit = RECENT_KEY_EVENTS,
): Promise<KeyEvent[]> {
  const recorded = (await state.billing.listKeyEvents(accountId, limit)).map(
    (e): KeyEvent => ({ at: e.at, prefix: e.keyPrefix, event: e.kind, from: e.ip ?? OPERATOR_SOURCE }),
  );
  const expired = keys
    .filter((key) => !key.revokedAt && key.expiresAt && key.expiresAt <= now)
    .map((key): KeyEvent => ({ at: key.expiresAt!, prefix: key.prefix, event: 'expired', from: null }));
  return [...recorded, ...expired]
    .sort((a, b) => b.at.getTime() - a.at.getTime() || SAME_TIME_ORDER[b.event] - SAME_TIME_ORDER[a.event])
    .slice(0, limit);
}

/**
 * Events of one instant in the order they happen (listed newest first, so in reverse): a roll records
 * the old key's `rolled` and the new key's `created` at the same time, and the table's ids are random.
 */
const SAME_TIME_ORDER: Readonly<Record<KeyEvent['event'], number>> = {
  rolled: 0,
  revoked: 1,
  created: 2,
  expired: 3,
};

/**
 * Records a create or revocation made by the operator's `keys` commands, so that `accounts show` and the
 * holder's account page list it beside the holder's own changes (with no address: it came from no request).
 */
export async function recordOperatorKeyEvent(
  state: GatewayState,
  key: ApiKeyRecord,
  kind: 'created' | 'revoked',
  at: Date,
): Promise<void> {
  await state.billing.insertKeyEvent({
    id: newId('kev'),
    accountId: key.accountId,
    keyId: key.id,
    kind,
    keyPrefix: key.prefix,
    ip: null,
    at,
  });
}
