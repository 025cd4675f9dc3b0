import type { HeaderSource } from '../auth/resolve-credential.js';

/**
 * Whether a state-changing browser request comes from our own pages: its `Origin` (or, where a browser
 * sends none, its `Referer`) must be the service's public origin or the origin the request was sent
 * to. A request with neither is refused: every browser sends `Origin` on a form POST, so only a
 * non-browser client lacks both, and the account forms are for browsers.
 */
export function isSameOrigin(headers: HeaderSource, requestUrl: string, baseUrl: string): boolean {
  const allowed = new Set([new URL(baseUrl).origin, new URL(requestUrl).origin]);
  const origin = headers.get('origin');
  if (origin) return origin !== 'null' && allowed.has(origin);
  const referer = headers.get('referer');
  if (!referer) return false;
  try {
    return allowed.has(new URL(referer).origin);
  } catch {
    return false;
  }
}
