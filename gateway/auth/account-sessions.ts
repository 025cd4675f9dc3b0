import { createHash, randomBytes } from 'node:crypto';
import { DAY_MS } from '../../pipeline/time/utc-day.js';
import type { AccountSessionRecord } from '../state/billing-state.js';
import type { Account } from '../state/gateway-state.js';
import type { AuthDeps } from './auth-deps.js';
import { encodeBase58 } from './base58.js';
import { readCookie } from './cookie-header.js';
import { newId } from './random-id.js';
import type { HeaderSource } from './resolve-credential.js';
import { digestsEqual, sha256Hex } from './secret-hash.js';

/**
 * The account page's own cookie. It is not `svc_explore` and is never read by the API's credential
 * resolution: an account session manages keys and billing, it grants no data access (an API key reads data
 * only: keys are managed on the account page, never through an API key, and an API account is metered).
 */
export const ACCOUNT_COOKIE = 'svc_account';
export const ACCOUNT_SESSION_DAYS = 30;
const SESSION_BYTES = 32;

export interface SignedInAccount {
  account: Account;
  session: AccountSessionRecord;
  /** The CSRF token of this session, for the page's forms: derived from the cookie, never stored. */
  csrf: string;
}

export async function openAccountSession(
  deps: AuthDeps,
  accountId: string,
): Promise<{ cookieValue: string; record: AccountSessionRecord }> {
  const now = deps.now();
  const cookieValue = encodeBase58(randomBytes(SESSION_BYTES));
  const record = await deps.state.billing.insertAccountSession({
    id: newId('acs'),
    accountId,
    hash: sha256Hex(cookieValue),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ACCOUNT_SESSION_DAYS * DAY_MS),
    revokedAt: null,
  });
  return { cookieValue, record };
}

/** The signed-in account of a request, or null (no cookie, unknown, revoked or expired session). */
export async function signedInAccount(
  deps: AuthDeps,
  headers: HeaderSource,
): Promise<SignedInAccount | null> {
  const cookie = readCookie(headers.get('cookie'), ACCOUNT_COOKIE);
  if (!cookie || cookie.length > 200) return null;
  const digest = sha256Hex(cookie);
  const session = await deps.state.billing.findAccountSessionByHash(digest);
  if (!session || !digestsEqual(session.hash, digest)) return null;
  if (session.revokedAt || session.expiresAt <= deps.now()) return null;
  const account = await deps.state.getAccount(session.accountId);
  if (!account) return null;
  return { account, session, csrf: csrfOf(cookie) };
}

/** A session's CSRF token: a hash of the cookie under its own label, so it reveals nothing of it. */
export function csrfOf(cookieValue: string): string {
  return createHash('sha256').update(`sbm-account-csrf:${cookieValue}`).digest('base64url');
}

export function csrfMatches(expected: string, presented: string | undefined): boolean {
  if (!presented || presented.length !== expected.length) return false;
  return digestsEqual(Buffer.from(expected).toString('hex'), Buffer.from(presented).toString('hex'));
}

/** HttpOnly, SameSite=Lax, 30 days, Secure when the service is served over https. */
export function accountCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${ACCOUNT_COOKIE}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
