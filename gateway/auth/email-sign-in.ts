import { createHmac, randomBytes } from 'node:crypto';
import { HOUR_MS } from '../../pipeline/time/utc-day.js';
import { HttpError } from '../http/http-errors.js';
import type { Mailer } from '../orders/mailer.js';
import type { Account } from '../state/gateway-state.js';
import { openAccountSession } from './account-sessions.js';
import type { AuthDeps } from './auth-deps.js';
import { encodeBase58 } from './base58.js';
import { rateLimitSubject } from './client-ip.js';
import { limitHeaders } from './limit-headers.js';
import { newId } from './random-id.js';
import { sha256Hex } from './secret-hash.js';

/** Where the emailed link points; its GET only shows a button (mail scanners open links with GET). */
export const ACCOUNT_SIGN_IN_PATH = '/account/sign-in';
export const EMAIL_TOKEN_TTL_MS = 15 * 60_000;
/** Link requests per rolling hour, per email address and per client address. */
export const SIGN_IN_LINKS_PER_HOUR = 5;
const TOKEN_BYTES = 32;
const SALT_NAME = 'account-sign-in';
const EMAIL_PATTERN = /^[^\s@<>()",;:]{1,64}@[^\s@<>()",;:]+\.[^\s@<>()",;:]{2,}$/;

export interface EmailSignInDeps extends AuthDeps {
  mailer: Mailer;
  baseUrl: string;
}

/** Lower case, trimmed; null when it is not an address we would send to. */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) return null;
  return email;
}

/**
 * `POST /account/sign-in-link`: mails a one-time link to `email`. The answer and the work are the same
 * whether or not the address has an account (the first confirmed sign-in creates it), so the form
 * tells nobody which addresses are customers. Limited per address and per client address (rolling
 * hour, kept in the shared state as HMACs, never the addresses): a 429 with `Retry-After`.
 */
export async function requestSignInLink(
  deps: EmailSignInDeps,
  rawEmail: string,
  clientIp: string,
): Promise<void> {
  const email = normalizeEmail(rawEmail);
  if (!email) throw new HttpError(422, 'Enter an email address such as name@example.com.');
  const now = deps.now();
  const since = new Date(now.getTime() - HOUR_MS);
  const salt = Buffer.from(
    await deps.state.getOrCreateSalt(SALT_NAME, randomBytes(32).toString('hex'), now),
    'hex',
  );
  const bucket = (kind: string, subject: string) =>
    `signin-${kind}:${createHmac('sha256', salt).update(subject).digest('hex')}`;
  await deps.state.pruneRollingWindows('signin-', since);
  // Spent and expired tokens are kept a day (so a late click says "expired", not "unknown"), then go.
  await deps.state.billing.pruneEmailTokens(new Date(now.getTime() - 24 * HOUR_MS));
  for (const [kind, subject, what] of [
    ['ip', rateLimitSubject(clientIp), 'from this address'],
    ['email', email, 'for this email address'],
  ] as const) {
    const hit = await deps.state.hitRollingWindow(bucket(kind, subject), now, since, SIGN_IN_LINKS_PER_HOUR);
    if (!hit.allowed) {
      const resetAt = new Date((hit.oldest ?? now).getTime() + HOUR_MS);
      const headers = limitHeaders(
        { allowed: false, limit: SIGN_IN_LINKS_PER_HOUR, remaining: 0, resetAt, windowSeconds: 3600 },
        now,
      );
      throw new HttpError(
        429,
        `More than ${SIGN_IN_LINKS_PER_HOUR} sign-in links an hour ${what}; ` +
          `try again in ${Math.ceil(Number(headers['Retry-After']) / 60)} minutes, or use a link already sent.`,
        headers,
      );
    }
  }
  const token = encodeBase58(randomBytes(TOKEN_BYTES));
  const record = await deps.state.billing.insertEmailToken({
    id: newId('tok'),
    email,
    hash: sha256Hex(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS),
    usedAt: null,
  });
  const url = `${deps.baseUrl}${ACCOUNT_SIGN_IN_PATH}?token=${token}`;
  await deps.mailer.send({
    key: `sign-in-${record.id}`,
    to: email,
    subject: 'Your sign-in link for Subnet burn metrics',
    text: [
      'Open this link to sign in to your Subnet burn metrics account (API plan, keys and usage):',
      '',
      url,
      '',
      'The link works once, for 15 minutes. The page it opens has a "Sign in" button; nothing happens',
      'until you press it. If you did not ask for this, ignore this email: nothing changes.',
    ].join('\n'),
  });
}

export type ConfirmOutcome =
  | { ok: true; cookieValue: string; account: Account; expiresAt: Date }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/**
 * `POST /account/sign-in`: spends the token (one conditional statement: once, on any instance), makes
 * the email's account if it has none, and opens an account session.
 */
export async function confirmSignIn(deps: AuthDeps, token: string): Promise<ConfirmOutcome> {
  if (token.length === 0 || token.length > 200) return { ok: false, reason: 'unknown' };
  const now = deps.now();
  const redemption = await deps.state.billing.redeemEmailToken(sha256Hex(token), now);
  if (!redemption.redeemed) {
    if (!redemption.token) return { ok: false, reason: 'unknown' };
    return { ok: false, reason: redemption.token.usedAt ? 'used' : 'expired' };
  }
  const account = await deps.state.billing.findOrCreateEmailAccount(
    redemption.token.email,
    newId('acc'),
    now,
  );
  const session = await openAccountSession(deps, account.id);
  return { ok: true, cookieValue: session.cookieValue, account, expiresAt: session.record.expiresAt };
}
