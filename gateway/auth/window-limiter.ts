import type { GatewayState } from '../state/gateway-state.js';
import type { LimitDecision } from './limit-headers.js';

/**
 * Default for `SBM_PUBLIC_LIMIT_PER_MIN`. The data changes once a day (emissions every five minutes)
 * and a dashboard view needs a handful of calls, so 60 a minute lets a person browse and a polite
 * script poll many times over, while holding one address to one request a second on average. Offices
 * behind one NAT address share it; they can use a key. `0` turns the limit off.
 */
export const DEFAULT_PUBLIC_LIMIT_PER_MIN = 60;

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
  return {
    limit,
    windowSeconds,
    async hit(key) {
      if (limit <= 0) return null;
      const at = now();
      const startMs = Math.floor(at.getTime() / windowMs) * windowMs;
      if (startMs !== prunedWindow) {
        prunedWindow = startMs;
        await state.pruneRateWindows(prefix, new Date(startMs));
      }
      const hit = await state.hitRateWindow(prefix + key, new Date(startMs), limit);
      return {
        allowed: hit.allowed,
        limit,
        remaining: Math.max(0, limit - hit.count),
        resetAt: new Date(startMs + windowMs),
        windowSeconds,
      };
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
