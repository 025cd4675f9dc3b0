import type { ApiKeyRecord, Plan } from '../state/gateway-state.js';
import { accountPeriod } from './accounts.js';
import { type KeyRejection, type KeyVerification, verifyApiKey, verifyApiKeyNow } from './api-keys.js';
import type { AuthDeps } from './auth-deps.js';
import type { BillingPeriod } from './billing-period.js';
import { readCookie } from './cookie-header.js';
import { SESSION_COOKIE, verifySession } from './sessions.js';

export type Credential =
  | { kind: 'public' }
  | { kind: 'key'; accountId: string; keyId: string; plan: Plan; period: BillingPeriod }
  | { kind: 'session'; accountId: string; sessionId: string; plan: Plan }
  | { kind: 'invalid'; reason: KeyRejection | 'bad-scheme'; detail: string };

/** Anything with `get(name)`: the fetch `Headers` class, or a small adapter in tests. */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

/**
 * Decides who is calling. A bearer key takes precedence over a session cookie. A bad key is always
 * `invalid` (a 401, even on public resources): an API client that sends a key wants to know it is
 * wrong. A bad or expired session cookie is ignored and the caller is public: browsers keep stale
 * cookies, and the public pages must keep working for them.
 */
export async function resolveCredential(
  deps: AuthDeps,
  headers: HeaderSource,
  now: Date = deps.now(),
): Promise<Credential> {
  return credentialNow(deps, headers, now) ?? resolvePresented(deps, headers, now);
}

const PUBLIC: Credential = Object.freeze({ kind: 'public' });

/**
 * Who is calling, when that is known without waiting: the public caller (no `Authorization`, no
 * session cookie), or a key `verifyApiKeyNow` can check now. Null when there is something to wait for.
 * Most requests are public or repeat a key: answering them without a promise keeps them as cheap as
 * the bytes they fetch.
 */
export function credentialNow(deps: AuthDeps, headers: HeaderSource, now: Date): Credential | null {
  const authorization = headers.get('authorization');
  if (!authorization) return readCookie(headers.get('cookie'), SESSION_COOKIE) ? null : PUBLIC;
  const presented = bearerKey(authorization);
  if (presented === null) return null;
  const verified = verifyApiKeyNow(deps, presented, now);
  return verified ? keyCredential(verified, now) : null;
}

async function resolvePresented(deps: AuthDeps, headers: HeaderSource, now: Date): Promise<Credential> {
  const authorization = headers.get('authorization');
  if (authorization) {
    const presented = bearerKey(authorization);
    if (presented === null) {
      return {
        kind: 'invalid',
        reason: 'bad-scheme',
        detail: 'send the API key as "Authorization: Bearer <key>"',
      };
    }
    return keyCredential(await verifyApiKey(deps, presented, now), now);
  }
  const cookie = readCookie(headers.get('cookie'), SESSION_COOKIE);
  if (cookie) {
    const verified = await verifySession(deps, cookie);
    if (verified.ok) {
      return {
        kind: 'session',
        accountId: verified.account.id,
        sessionId: verified.session.id,
        plan: verified.account.plan,
      };
    }
  }
  return PUBLIC;
}

/** The key in `Authorization: Bearer <key>`, or null for any other form. */
function bearerKey(authorization: string): string | null {
  let presented = bearerKeys.get(authorization);
  if (presented === undefined) {
    presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization.trim())?.[1] ?? null;
    // Keys are about 60 characters: longer values are parsed each time, not kept.
    if (authorization.length <= MAX_REMEMBERED_LENGTH) {
      if (bearerKeys.size >= MAX_REMEMBERED) bearerKeys.clear();
      bearerKeys.set(authorization, presented);
    }
  }
  return presented;
}

/**
 * The last few `Authorization` values parsed, and the credential last made for each key record (the
 * state hands over new records whenever it reads them again): a client repeats both on every request,
 * and making them anew was a tenth of a keyed request's JavaScript. Bounded, in memory only.
 */
const bearerKeys = new Map<string, string | null>();
const keyCredentials = new Map<string, { key: ApiKeyRecord; credential: KeyCredential }>();
const MAX_REMEMBERED = 1_024;
const MAX_REMEMBERED_LENGTH = 256;

type KeyCredential = Extract<Credential, { kind: 'key' }>;

function keyCredential(verified: KeyVerification, now: Date): Credential {
  if (!verified.ok) return { kind: 'invalid', reason: verified.reason, detail: verified.detail };
  const known = keyCredentials.get(verified.key.id);
  if (known?.key === verified.key) {
    const { period } = known.credential;
    const at = now.getTime();
    if (period.start.getTime() <= at && at < period.end.getTime()) return known.credential;
  }
  const credential: KeyCredential = Object.freeze({
    kind: 'key',
    accountId: verified.account.id,
    keyId: verified.key.id,
    plan: verified.account.plan,
    period: accountPeriod(verified.account, now),
  });
  if (keyCredentials.size >= MAX_REMEMBERED) keyCredentials.clear();
  keyCredentials.set(verified.key.id, { key: verified.key, credential });
  return credential;
}
