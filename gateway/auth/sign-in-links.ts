import { randomBytes } from 'node:crypto';
import type { SignInLinkRecord } from '../state/gateway-state.js';
import { accountHasAccess } from './accounts.js';
import type { AuthDeps } from './auth-deps.js';
import { AccountInactiveError, PlanMismatchError, UnknownAccountError } from './auth-errors.js';
import { encodeBase58 } from './base58.js';
import { sha256Hex } from './secret-hash.js';
import { type CreatedSession, createSession, DEFAULT_SESSION_DAYS } from './sessions.js';

/** Where a link points, relative to the base URL; the explorer's sign-in route answers it. */
export const SIGN_IN_PATH = '/explore/sign-in';
/** A link is good for 15 minutes: long enough to open it, short enough that a leaked one soon dies. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
const TOKEN_BYTES = 32;

export interface CreatedSignInLink {
  /** The whole link, token included; shown once, stored only as the token's SHA-256. */
  url: string;
  record: SignInLinkRecord;
}

/**
 * A one-time link that opens a subscriber session in a browser (`sessions create --link`). The same
 * rules as `createSession`: subscriber accounts with access only. The session itself is made when the
 * link is followed, so its lifetime starts then.
 */
export async function createSignInLink(
  deps: AuthDeps,
  accountId: string,
  options: { baseUrl: string; sessionDays?: number },
): Promise<CreatedSignInLink> {
  const now = deps.now();
  const account = await deps.state.getAccount(accountId);
  if (!account) throw new UnknownAccountError(accountId);
  if (account.plan !== 'subscriber') {
    throw new PlanMismatchError(
      `account ${accountId} is on the ${account.plan} plan; sign-in links are for subscribers`,
    );
  }
  if (!accountHasAccess(account, now)) throw new AccountInactiveError(accountId);
  const token = encodeBase58(randomBytes(TOKEN_BYTES));
  const record = await deps.state.insertSignInLink({
    id: `lnk_${encodeBase58(randomBytes(12))}`,
    accountId,
    hash: sha256Hex(token),
    sessionDays: options.sessionDays ?? DEFAULT_SESSION_DAYS,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SIGN_IN_LINK_TTL_MS),
    usedAt: null,
  });
  return { url: `${options.baseUrl}${SIGN_IN_PATH}?token=${token}`, record };
}

export type SignInOutcome =
  | { ok: true; session: CreatedSession }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' | 'account-inactive' };

/**
 * Follows a link: marks it used (one conditional statement, so two tabs or two instances racing on
 * one link open one session between them) and opens a session. A token of the wrong shape is looked
 * up all the same: the answer for a forged token is "unknown", whatever it looks like.
 */
export async function redeemSignInLink(deps: AuthDeps, token: string): Promise<SignInOutcome> {
  if (token.length === 0 || token.length > 200) return { ok: false, reason: 'unknown' };
  const now = deps.now();
  const redemption = await deps.state.redeemSignInLink(sha256Hex(token), now);
  if (!redemption.redeemed) {
    const link = redemption.link;
    if (!link) return { ok: false, reason: 'unknown' };
    return { ok: false, reason: link.usedAt ? 'used' : 'expired' };
  }
  try {
    const session = await createSession(deps, redemption.link.accountId, {
      days: redemption.link.sessionDays,
    });
    return { ok: true, session };
  } catch (error) {
    // Cancelled (or changed plan) between the link's creation and its use.
    if (error instanceof AccountInactiveError || error instanceof PlanMismatchError) {
      return { ok: false, reason: 'account-inactive' };
    }
    throw error;
  }
}
