import type { GatewayState } from '../state/gateway-state.js';
import type { LimitDecision } from './limit-headers.js';

/**
 * Default for `SBM_PUBLIC_LIMIT_PER_MIN`. The data changes once a day (emissions every five minutes)
 * and a dashboard view needs a handful of calls, so 60 a minute lets a person browse and a polite
 * script poll many times over, while holding one address to one request a second on average. Offices
 * behind one NAT address share it; they can use a key. `0` turns the limit off.
 */
export const DEFAULT_PUBLIC_LIMIT_PER_MIN = 60;

/** At most this many refused keys are remembered per limiter and window (a few MB at most). */
const MAX_REMEMBERED_FULL = 100_000;

export interface WindowLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  /** Counts one hit for `key` (an IP address); null when the limiter is off (limit 0). */
  hit(key: string): Promise<LimitDecision | null>;
}

/**
 * A fixed-window counter per key kept in the shared state, so every gateway instance enforces one
 * budget. Windows are aligned to the Unix epoch (minute windows start on the minute). Once per window
 * per process it deletes this limiter's expired windows, so the table stays small.
 *
 * A key the shared state refused is remembered until its window ends, and refused from memory: a
 * window's count never falls (only windows already over are deleted), so the state would refuse it
 * again, whichever instance asked. A flood from one address then costs the state nothing once the
 * address is over its limit, where each refusal cost two statements in the turn's transaction.
 */
export function createWindowLimiter(options: {
  state: GatewayState;
  /** Bucket namespace, e.g. `public` or `tax`; limiters with different names never share counts. */
  name: string;
  limit: number;
  windowSeconds: number;
  now: () => Date;
}): WindowLimiter {
  const { state, name, limit, windowSeconds, now } = options;
  const windowMs = windowSeconds * 1000;
  const prefix = `${name}:`;
  let prunedWindow = -1;
  /** Keys refused in the window that starts at `fullWindow`; emptied when the window moves on. */
  let fullWindow = -1;
  const full = new Set<string>();
  const decision = (allowed: boolean, count: number, startMs: number): LimitDecision => ({
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: new Date(startMs + windowMs),
    windowSeconds,
  });
  return {
    limit,
    windowSeconds,
    async hit(key) {
      if (limit <= 0) return null;
      const at = now();
      const startMs = Math.floor(at.getTime() / windowMs) * windowMs;
      if (startMs !== fullWindow) {
        fullWindow = startMs;
        full.clear();
      }
      if (full.has(key)) return decision(false, limit, startMs);
      if (startMs !== prunedWindow) {
        prunedWindow = startMs;
        await state.pruneRateWindows(prefix, new Date(startMs));
      }
      const hit = await state.hitRateWindow(prefix + key, new Date(startMs), limit);
      // Bounded: a flood from more addresses than this in one window is refused by the state instead.
      if (!hit.allowed && startMs === fullWindow && full.size < MAX_REMEMBERED_FULL) full.add(key);
      return decision(hit.allowed, hit.count, startMs);
    },
  };
}

export function createPublicLimiter(options: {
  state: GatewayState;
  limitPerMinute: number;
  now: () => Date;
}): WindowLimiter {
  return createWindowLimiter({
    state: options.state,
    name: 'public',
    limit: options.limitPerMinute,
    windowSeconds: 60,
    now: options.now,
  });
}
