/** One limiter's answer for one request: the monthly allowance and the per-IP windows share it. */
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one; never below 0. */
  remaining: number;
  /** When the window (billing period or rate window) ends. */
  resetAt: Date;
  /** The window's length, for `RateLimit-Policy`. */
  windowSeconds: number;
}

/**
 * Response headers for a decision, in two vocabularies:
 * - `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (the usage headers the
 *   interface names; Reset is the UTC Unix time, in seconds, at which the window ends);
 * - the IETF draft's fields in the form of draft-ietf-httpapi-ratelimit-headers-07:
 *   `RateLimit-Policy: <limit>;w=<window seconds>` and
 *   `RateLimit: limit=<limit>, remaining=<remaining>, reset=<seconds until reset>`.
 * A refusal adds `Retry-After` in seconds (at least 1) until the window ends.
 */
export function limitHeaders(decision: LimitDecision, now: Date): Record<string, string> {
  const resetMs = decision.resetAt.getTime();
  const resetIn = Math.max(0, Math.ceil((resetMs - now.getTime()) / 1000));
  const remaining = Math.max(0, decision.remaining);
  const fixed = fixedParts(decision.limit, decision.windowSeconds, resetMs);
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': fixed.limit,
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': fixed.reset,
    'RateLimit-Policy': fixed.policy,
    RateLimit: `limit=${fixed.limit}, remaining=${remaining}, reset=${resetIn}`,
  };
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, resetIn));
  return headers;
}

interface FixedParts {
  limit: string;
  reset: string;
  policy: string;
}

/** The parts that stay the same for a window, kept from the last call: keyed requests repeat them. */
let last: { limit: number; windowSeconds: number; resetMs: number; parts: FixedParts } | null = null;

function fixedParts(limit: number, windowSeconds: number, resetMs: number): FixedParts {
  if (last?.limit !== limit || last.windowSeconds !== windowSeconds || last.resetMs !== resetMs) {
    last = {
      limit,
      windowSeconds,
      resetMs,
      parts: {
        limit: String(limit),
        reset: String(Math.ceil(resetMs / 1000)),
        policy: `${limit};w=${windowSeconds}`,
      },
    };
  }
  return last.parts;
}
