import type { Plan } from '../state/gateway-state.js';
import { accountPeriod } from './accounts.js';
import { type KeyRejection, verifyApiKey } from './api-keys.js';
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
export async function resolveCredential(deps: AuthDeps, headers: HeaderSource): Promise<Credential> {
  return publicCallerNow(headers) ?? resolvePresented(deps, headers);
}

const PUBLIC: Credential = Object.freeze({ kind: 'public' });

/**
 * The public credential when the request presents none (no `Authorization`, no session cookie), decided
 * without waiting; null when there is something to verify. Most requests are public: answering them
 * without a promise keeps them as cheap as the bytes they fetch.
 */
export function publicCallerNow(headers: HeaderSource): Credential | null {
  if (headers.get('authorization')) return null;
  return readCookie(headers.get('cookie'), SESSION_COOKIE) ? null : PUBLIC;
}

async function resolvePresented(deps: AuthDeps, headers: HeaderSource): Promise<Credential> {
  const authorization = headers.get('authorization');
  if (authorization) {
    const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization.trim());
    if (!bearer?.[1]) {
      return {
        kind: 'invalid',
        reason: 'bad-scheme',
        detail: 'send the API key as "Authorization: Bearer <key>"',
      };
    }
    const verified = await verifyApiKey(deps, bearer[1]);
    if (!verified.ok) return { kind: 'invalid', reason: verified.reason, detail: verified.detail };
    return {
      kind: 'key',
      accountId: verified.account.id,
      keyId: verified.key.id,
      plan: verified.account.plan,
      period: accountPeriod(verified.account, deps.now()),
    };
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
