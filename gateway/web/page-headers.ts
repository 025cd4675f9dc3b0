/**
 * Headers of everything the explorer serves. The Content-Security-Policy allows only the page's own
 * origin: scripts, styles, data requests and form posts go nowhere else, and nothing inline runs (the
 * pages have no inline script or style; uPlot sets styles through the CSSOM, which CSP does not
 * govern). HTML is `no-cache` (always revalidated: a new deployment's asset names show at once); the
 * hashed assets are cached for a year and never revalidated.
 */
/**
 * The policy, with `formTargets`: origins a form's POST may be redirected to (the account page's
 * "Subscribe" and "Manage billing" answer 303 to Stripe's hosted pages, and browsers check
 * `form-action` on every redirect of a form submission, so without them the click goes nowhere).
 */
export function contentSecurityPolicy(formTargets: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    ["form-action 'self'", ...formTargets].join(' '),
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

export function htmlHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    // Addresses stay on this site: a sign-in link's token never travels in a Referer.
    'referrer-policy': 'same-origin',
    // The page says whether its reader is signed in, so a shared cache must key it by the cookie.
    vary: 'Cookie',
  };
}

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
