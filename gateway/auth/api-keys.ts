import type { Account, ApiKeyRecord, KeyCandidate } from '../state/gateway-state.js';
import { accountHasAccess, paidPeriodCovers } from './accounts.js';
import { apiKeyShape, generateApiKey, visiblePrefix } from './api-key-format.js';
import type { AuthDeps } from './auth-deps.js';
import {
  AccountInactiveError,
  ActiveKeyLimitError,
  UnknownAccountError,
  UnknownKeyError,
} from './auth-errors.js';
import { newId } from './random-id.js';
import { digestsEqual, sha256Hex } from './secret-hash.js';

/** A plan covers up to 3 active keys. */
export const MAX_ACTIVE_KEYS = 3;

export interface CreatedApiKey {
  /** The plaintext key; returned once and never retrievable again. */
  key: string;
  record: ApiKeyRecord;
}

export async function createApiKey(
  deps: AuthDeps,
  accountId: string,
  options: { expiresAt?: Date | null } = {},
): Promise<CreatedApiKey> {
  const now = deps.now();
  const account = await deps.state.getAccount(accountId);
  if (!account) throw new UnknownAccountError(accountId);
  if (!accountHasAccess(account, now)) throw new AccountInactiveError(accountId);
  const generated = generateApiKey();
  const result = await deps.state.insertKeyWithinLimit(
    {
      id: newId('key'),
      accountId,
      prefix: generated.prefix,
      hash: generated.hash,
      createdAt: now,
      revokedAt: null,
      expiresAt: options.expiresAt ?? null,
    },
    MAX_ACTIVE_KEYS,
    now,
  );
  if (result.inserted) return { key: generated.key, record: result.key };
  if (result.reason === 'unknown-account') throw new UnknownAccountError(accountId);
  throw new ActiveKeyLimitError(accountId, MAX_ACTIVE_KEYS);
}

export async function revokeApiKey(deps: AuthDeps, keyId: string): Promise<ApiKeyRecord> {
  const revoked = await deps.state.revokeKey(keyId, deps.now());
  if (!revoked) throw new UnknownKeyError(keyId);
  return revoked;
}

export async function listApiKeys(deps: AuthDeps, accountId: string): Promise<ApiKeyRecord[]> {
  if (!(await deps.state.getAccount(accountId))) throw new UnknownAccountError(accountId);
  return deps.state.listKeys(accountId);
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

export function keyStatus(key: ApiKeyRecord, now: Date): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return 'active';
}

export type KeyRejection =
  | 'malformed'
  | 'bad-checksum'
  | 'unknown'
  | 'revoked'
  | 'expired'
  | 'account-inactive'
  | 'unpaid';

export type KeyVerification =
  | { ok: true; key: ApiKeyRecord; account: Account }
  | { ok: false; reason: KeyRejection; detail: string };

const DETAILS: Record<KeyRejection, string> = {
  malformed: 'the API key is malformed',
  'bad-checksum': "the API key's checksum does not match: it was mistyped or cut short; copy the whole key",
  unknown: 'the API key is not valid',
  revoked: 'the API key has been revoked',
  expired: 'the API key has expired',
  'account-inactive': "the API key's account is cancelled and its paid period has ended",
  unpaid:
    "the API plan's paid period has ended and no payment has come in since: renew or update the card at /account",
};

function reject(reason: KeyRejection): KeyVerification {
  return { ok: false, reason, detail: DETAILS[reason] };
}

/**
 * What is known of each presented key that matched a stored key, by the key as presented: its SHA-256,
 * and which candidate it matched in the candidate list it was last compared with. A client sends the
 * same key on every request, and its shape check (two patterns and a CRC32), its digest and the
 * comparisons were most of a keyed request's JavaScript (profiled 2026-11-25). Only keys
 * that matched are kept, so made-up values cannot fill it (and it is emptied at 1,024). The comparison
 * is redone whenever the state hands over a different list (it reads the rows again after any change
 * anywhere), and the state lookup and every status check still run on each request. The keys kept
 * are ones this process reads in every request anyway; they are never written anywhere.
 */
interface MatchedKey {
  digest: string;
  candidates: readonly KeyCandidate[];
  match: KeyCandidate | undefined;
}
const matchedKeys = new Map<string, MatchedKey>();
const MAX_MATCHED_KEYS = 1_024;

/**
 * Checks a presented key against the state on every call, so a revocation made through any gateway
 * instance or the operator CLI takes effect on the very next request (the SQLite state may answer
 * from rows it read before, but only while nothing can have changed them). Candidates are found by
 * the visible prefix; the digest comparison itself is constant-time.
 */
export async function verifyApiKey(deps: AuthDeps, presented: string, now?: Date): Promise<KeyVerification> {
  let digest = matchedKeys.get(presented)?.digest;
  if (digest === undefined) {
    const shape = apiKeyShape(presented);
    if (shape === 'malformed' || shape === 'bad-checksum') return reject(shape);
    digest = sha256Hex(presented);
  }
  const candidates = await deps.state.findKeyCandidates(visiblePrefix(presented));
  return verdict(deps, matchIn(presented, digest, candidates), now);
}

/**
 * `verifyApiKey` without waiting, for a key that matched before and whose candidates the state holds
 * proven current (`findKeyCandidatesNow`): the same checks, the same answer. Undefined means verify
 * with `verifyApiKey`. Most keyed requests come from clients that send the same key again and again.
 */
export function verifyApiKeyNow(deps: AuthDeps, presented: string, now?: Date): KeyVerification | undefined {
  const known = matchedKeys.get(presented);
  if (known === undefined) return undefined;
  const candidates = deps.state.findKeyCandidatesNow(visiblePrefix(presented));
  if (candidates === undefined) return undefined;
  const match = candidates === known.candidates ? known.match : matchIn(presented, known.digest, candidates);
  return verdict(deps, match, now);
}

/** The candidate whose hash is the digest's, remembered for a key that matched. */
function matchIn(
  presented: string,
  digest: string,
  candidates: readonly KeyCandidate[],
): KeyCandidate | undefined {
  let match: KeyCandidate | undefined;
  for (const candidate of candidates) {
    // Compare every candidate, not stopping early, so the number of comparisons does not depend
    // on which candidate matched.
    if (digestsEqual(candidate.key.hash, digest) && !match) match = candidate;
  }
  if (match) {
    if (!matchedKeys.has(presented) && matchedKeys.size >= MAX_MATCHED_KEYS) matchedKeys.clear();
    matchedKeys.set(presented, { digest, candidates, match });
  }
  return match;
}

function verdict(deps: AuthDeps, match: KeyCandidate | undefined, at?: Date): KeyVerification {
  if (!match) return reject('unknown');
  const now = at ?? deps.now();
  const status = keyStatus(match.key, now);
  if (status !== 'active') return reject(status);
  if (!accountHasAccess(match.account, now)) return reject('account-inactive');
  if (!paidPeriodCovers(match.account, now)) return reject('unpaid');
  return { ok: true, key: match.key, account: match.account };
}
