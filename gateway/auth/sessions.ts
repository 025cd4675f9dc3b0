import { randomBytes } from 'node:crypto';
import { DAY_MS } from '../../pipeline/time/utc-day.js';
import type { Account, SessionRecord } from '../state/gateway-state.js';
import { accountHasAccess } from './accounts.js';
import type { AuthDeps } from './auth-deps.js';
import {
  AccountInactiveError,
  PlanMismatchError,
  UnknownAccountError,
  UnknownSessionError,
} from './auth-errors.js';
import { encodeBase58 } from './base58.js';
import { newId } from './random-id.js';
import { digestsEqual, sha256Hex } from './secret-hash.js';

/** The subscriber session cookie's name, fixed by the interface. */
export const SESSION_COOKIE = 'svc_explore';
export const SESSION_BYTES = 32;
export const DEFAULT_SESSION_DAYS = 30;

export interface CreatedSession {
  /** The cookie value; shown once, stored only as its SHA-256. */
  cookieValue: string;
  record: SessionRecord;
}

/**
 * Issues a subscriber browser session. Only subscriber accounts get sessions: sessions are not
 * metered, so an API account with a session would bypass its allowance.
 */
export async function createSession(
  deps: AuthDeps,
  accountId: string,
  options: { days?: number } = {},
): Promise<CreatedSession> {
  const now = deps.now();
  const account = await deps.state.getAccount(accountId);
  if (!account) throw new UnknownAccountError(accountId);
  if (account.plan !== 'subscriber') {
    throw new PlanMismatchError(
      `account ${accountId} is on the ${account.plan} plan; sessions are for subscribers`,
    );
  }
  if (!accountHasAccess(account, now)) throw new AccountInactiveError(accountId);
  const cookieValue = encodeBase58(randomBytes(SESSION_BYTES));
  const days = options.days ?? DEFAULT_SESSION_DAYS;
  const record = await deps.state.insertSession({
    id: newId('ses'),
    accountId,
    hash: sha256Hex(cookieValue),
    createdAt: now,
    expiresAt: new Date(now.getTime() + days * DAY_MS),
    revokedAt: null,
  });
  return { cookieValue, record };
}

export async function revokeSession(deps: AuthDeps, sessionId: string): Promise<SessionRecord> {
  const revoked = await deps.state.revokeSession(sessionId, deps.now());
  if (!revoked) throw new UnknownSessionError(sessionId);
  return revoked;
}

export type SessionVerification =
  | { ok: true; session: SessionRecord; account: Account }
  | { ok: false; reason: 'unknown' | 'revoked' | 'expired' | 'account-inactive' };

export async function verifySession(deps: AuthDeps, cookieValue: string): Promise<SessionVerification> {
  if (cookieValue.length === 0 || cookieValue.length > 200) return { ok: false, reason: 'unknown' };
  const digest = sha256Hex(cookieValue);
  const session = await deps.state.findSessionByHash(digest);
  if (!session || !digestsEqual(session.hash, digest)) return { ok: false, reason: 'unknown' };
  const now = deps.now();
  if (session.revokedAt) return { ok: false, reason: 'revoked' };
  if (session.expiresAt <= now) return { ok: false, reason: 'expired' };
  const account = await deps.state.getAccount(session.accountId);
  if (!account || !accountHasAccess(account, now)) return { ok: false, reason: 'account-inactive' };
  return { ok: true, session, account };
}
