import { createHmac, randomBytes } from 'node:crypto';
import { HttpError } from '../http/http-errors.js';
import type { GatewayState } from '../state/gateway-state.js';
import { rateLimitSubject } from './client-ip.js';
import { type LimitDecision, limitHeaders } from './limit-headers.js';

/** 20 requests an hour per IP address across `/tax/check.json` and `/tax/orders/...`; more answer 429. */
export const TAX_LIMIT_PER_HOUR = 20;

const WINDOW_SECONDS = 3600;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const BUCKET_PREFIX = 'tax:';
/** The state salt this limiter keys addresses with (see `getOrCreateSalt`). */
export const TAX_SALT_NAME = 'tax-rate-limit';
/** How often one process deletes windows whose last hit is over an hour old. */
const PRUNE_EVERY_MS = 10 * 60_000;

export type TaxLimitResult =
  | { allowed: true; decision: LimitDecision }
  | { allowed: false; decision: LimitDecision; error: HttpError };

export interface TaxLimiter {
  readonly limitPerHour: number;
  /**
   * Counts one request from `clientIp` (the request context's `ip`). Every tax route calls it once,
   * before any other work: the check, each order route and the checkout; never the payment webhook.
   * A refusal carries the 429 to throw; an admission carries the decision, for headers if wanted.
   */
  hit(clientIp: string): Promise<TaxLimitResult>;
}

/**
 * The tax interface's rate limit, kept in the gateway state so every instance enforces one budget.
 *
 * A rolling hour, not a fixed clock hour: the spec says "more than 20 requests per hour from one IP
 * address" gets a 429, and a fixed window would let 20 through at 10:59:59 and 20 more at 11:00:00,
 * 40 within two seconds. The state keeps, per address, the times of its hits in the last hour (at
 * most 20), admits a request while fewer than 20 lie in the hour before it, and answers a refusal
 * with `Retry-After` = the seconds until the oldest of them is an hour old. Refused requests are not
 * counted, so a client that keeps knocking is not locked out longer.
 *
 * The address is never stored: the bucket is `tax:` + HMAC-SHA256(salt, address), IPv6 by its /64
 * (`rateLimitSubject`). The salt is 32 random bytes created once in the state (insert-if-absent, so
 * every instance reads the same one) and not rotated: a bucket lives an hour past its last hit and is
 * then pruned, so there is nothing older to unlink, and rotating would split a rolling hour in two
 * (a caller could spend 20 before the switch and 20 after it). What the salt does and does not do:
 * a bucket cannot be matched against a list of addresses without the salt, and two databases (two
 * deployments, or a test copy) never share hashes; but the salt sits in the same database, and IPv4
 * has only 2^32 addresses, so whoever holds the database can recover the addresses of the last
 * hour's callers by trying them all. Keeping only the last hour is what limits that exposure.
 */
export function createTaxLimiter(options: {
  state: GatewayState;
  now: () => Date;
  limitPerHour?: number;
}): TaxLimiter {
  const { state, now } = options;
  const limit = options.limitPerHour ?? TAX_LIMIT_PER_HOUR;
  let salt: Promise<Buffer> | null = null;
  let prunedAt = Number.NEGATIVE_INFINITY;

  const loadSalt = (): Promise<Buffer> => {
    if (!salt) {
      const loading = state
        .getOrCreateSalt(TAX_SALT_NAME, randomBytes(32).toString('hex'), now())
        .then((hex) => Buffer.from(hex, 'hex'));
      // A failed read (the database was away) is retried by the next request, not remembered.
      loading.catch(() => {
        if (salt === loading) salt = null;
      });
      salt = loading;
    }
    return salt;
  };

  return {
    limitPerHour: limit,
    async hit(clientIp) {
      const key = createHmac('sha256', await loadSalt())
        .update(rateLimitSubject(clientIp))
        .digest('hex');
      const at = now();
      const since = new Date(at.getTime() - WINDOW_MS);
      if (at.getTime() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = at.getTime();
        await state.pruneRollingWindows(BUCKET_PREFIX, since);
      }
      const hit = await state.hitRollingWindow(BUCKET_PREFIX + key, at, since, limit);
      // A slot frees when the oldest hit in the hour is an hour old; with no hits, a full hour away.
      const resetAt = new Date((hit.oldest ?? at).getTime() + WINDOW_MS);
      const decision: LimitDecision = {
        allowed: hit.allowed,
        limit,
        remaining: Math.max(0, limit - hit.count),
        resetAt,
        windowSeconds: WINDOW_SECONDS,
      };
      if (hit.allowed) return { allowed: true, decision };
      const headers = limitHeaders(decision, at);
      const error = new HttpError(
        429,
        `More than ${limit} requests an hour from this address to the tax interface; ` +
          `retry in ${retryWording(Number(headers['Retry-After']))}.`,
        headers,
      );
      return { allowed: false, decision, error };
    },
  };
}

function retryWording(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
