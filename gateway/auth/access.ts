import { API_KEY_PREFIX } from './api-key-format.js';
import type { Credential } from './resolve-credential.js';
import { SESSION_COOKIE } from './sessions.js';

/** `public`: anyone (a presented key must still be valid); `paid`: an API key or a subscriber session. */
export type AccessNeed = 'public' | 'paid';

export interface AccessDenied {
  /** 401; 402 for a key whose plan's paid period has ended unpaid. */
  status: 401 | 402;
  detail: string;
  headers: Record<string, string>;
}

const REALM = 'realm="sbm"';

/**
 * The one place that turns a credential and a resource's need into a refusal. Both refusals are 401
 * with `WWW-Authenticate: Bearer` (RFC 6750); an invalid key adds `error="invalid_token"`. `what`
 * names the resource in the message, e.g. "CSV export" or "A history window of 90 or 365 days".
 */
export function checkAccess(credential: Credential, need: AccessNeed, what: string): AccessDenied | null {
  if (credential.kind === 'invalid' && credential.reason === 'unpaid') {
    return { status: 402, detail: `Payment required: ${credential.detail}.`, headers: {} };
  }
  if (credential.kind === 'invalid') {
    return {
      status: 401,
      detail: `Invalid credential: ${credential.detail}.`,
      headers: {
        'WWW-Authenticate': `Bearer ${REALM}, error="invalid_token", error_description="${credential.detail}"`,
      },
    };
  }
  if (need === 'public' || credential.kind !== 'public') return null;
  return {
    status: 401,
    detail:
      `${what} needs paid access: send an API key as "Authorization: Bearer ${API_KEY_PREFIX}..." ` +
      `or use a subscriber session (cookie ${SESSION_COOKIE}).`,
    headers: { 'WWW-Authenticate': `Bearer ${REALM}` },
  };
}
