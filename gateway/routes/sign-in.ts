import type { RouterType } from 'itty-router';
import type { AuthDeps } from '../auth/auth-deps.js';
import { readCookie } from '../auth/cookie-header.js';
import { revokeSession, SESSION_COOKIE, verifySession } from '../auth/sessions.js';
import { redeemSignInLink, SIGN_IN_PATH, type SignInOutcome } from '../auth/sign-in-links.js';
import type { GatewayRequest } from '../request-context.js';
import type { ExplorerSource } from '../web/explorer-loader.js';
import { htmlHeaders } from '../web/page-headers.js';
import { messagePage } from '../web/page-shell.js';
import { accessOf } from './explorer.js';

export interface SignInRouteDeps {
  explorer: ExplorerSource;
  auth: AuthDeps;
  /** `Secure` cookies when the public base URL is https. */
  baseUrl: string;
  /** The pages say they show the sandbox's synthetic world (`SBM_SANDBOX=1`). */
  sandbox?: boolean;
}

const FAILURES: Record<
  Exclude<SignInOutcome, { ok: true }>['reason'],
  { status: number; title: string; text: string }
> = {
  used: {
    status: 410,
    title: 'This sign-in link has been used',
    text: 'Each link signs in once. Ask for a new link, or keep using the browser where you first opened this one.',
  },
  expired: {
    status: 410,
    title: 'This sign-in link has expired',
    text: 'Links work for 15 minutes after they are made. Ask for a new one.',
  },
  unknown: {
    status: 404,
    title: 'This sign-in link is not valid',
    text: 'The link is incomplete or was never issued. Copy the whole link you were sent, or ask for a new one.',
  },
  'account-inactive': {
    status: 403,
    title: 'This subscription has ended',
    text: 'The link belongs to a subscription whose paid period is over, so it cannot sign you in.',
  },
};

/**
 * `GET /explore/sign-in?token=…` follows a one-time link: one session cookie and a redirect to `/`, or
 * a page that says what is wrong with the link and sets no cookie. `/explore/sign-out` clears the
 * cookie: a form posts to it (a GET shows that form), so a prefetched or embedded link cannot sign
 * anyone out. The request log records route patterns, never the token.
 */
export function signInRoutes(router: RouterType<GatewayRequest>, deps: SignInRouteDeps): void {
  const secure = deps.baseUrl.startsWith('https:');
  const noReferrer = { 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };

  router.get(SIGN_IN_PATH, async (request) => {
    const tokens = new URL(request.url).searchParams.getAll('token');
    const outcome: SignInOutcome =
      tokens.length === 1 ? await redeemSignInLink(deps.auth, tokens[0]!) : { ok: false, reason: 'unknown' };
    if (!outcome.ok) {
      const manifest = (await deps.explorer())?.manifest ?? null;
      const failure = FAILURES[outcome.reason];
      const html = messagePage({
        title: failure.title,
        paragraphs: [
          failure.text,
          'Everything public works without signing in: <a href="/">see the subnets</a>.',
        ],
        manifest,
        access: 'public',
        sandbox: deps.sandbox ?? false,
      });
      return new Response(html, { status: failure.status, headers: { ...htmlHeaders(), ...noReferrer } });
    }
    const maxAge = Math.max(
      0,
      Math.floor((outcome.session.record.expiresAt.getTime() - deps.auth.now().getTime()) / 1000),
    );
    return new Response(null, {
      status: 303,
      headers: {
        location: '/',
        'set-cookie': sessionCookie(outcome.session.cookieValue, maxAge, secure),
        ...noReferrer,
      },
    });
  });

  router.get('/explore/sign-out', async (request) => {
    const access = await accessOf(deps.auth, request);
    const manifest = (await deps.explorer())?.manifest ?? null;
    const html = messagePage({
      title: access === 'subscriber' ? 'Sign out' : 'You are not signed in',
      paragraphs:
        access === 'subscriber'
          ? [
              'Signing out removes the subscriber cookie from this browser.',
              '<form method="post" action="/explore/sign-out"><button type="submit">Sign out</button></form>',
            ]
          : ['<a href="/">Back to the subnets</a>.'],
      manifest,
      access,
      sandbox: deps.sandbox ?? false,
    });
    return new Response(html, { headers: htmlHeaders() });
  });

  router.post('/explore/sign-out', async (request) => {
    // The session ends on the server too, so a copy of the cookie stops working as well.
    const cookie = readCookie(request.ctx.requestHeaders.get('cookie'), SESSION_COOKIE);
    const verified = cookie ? await verifySession(deps.auth, cookie) : null;
    if (verified?.ok) await revokeSession(deps.auth, verified.session.id);
    return new Response(null, {
      status: 303,
      headers: { location: '/', 'set-cookie': sessionCookie('', 0, secure), 'cache-control': 'no-store' },
    });
  });
}

/** The session cookie: script cannot read it, other sites' requests do not carry it (Lax). */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
