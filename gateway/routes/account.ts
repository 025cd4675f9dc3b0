import { randomBytes } from 'node:crypto';
import type { RouterType } from 'itty-router';
import Stripe from 'stripe';
import {
  createAccountKey,
  ROLL_GRACE_SECONDS,
  type RollGrace,
  revokeAccountKey,
  rollAccountKey,
  usageSummary,
} from '../account/account-keys.js';
import {
  type BillingDeps,
  handleBillingEvent,
  liveSubscription,
  openBillingPortal,
  startSubscriptionCheckout,
  stripePagesOrigins,
} from '../account/stripe-billing.js';
import { checkAccess } from '../auth/access.js';
import {
  ACCOUNT_COOKIE,
  accountCookie,
  csrfMatches,
  type SignedInAccount,
  signedInAccount,
} from '../auth/account-sessions.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import { readCookie } from '../auth/cookie-header.js';
import { confirmSignIn, requestSignInLink } from '../auth/email-sign-in.js';
import { limitHeaders } from '../auth/limit-headers.js';
import { resolveCredential } from '../auth/resolve-credential.js';
import { HttpError } from '../http/http-errors.js';
import { jsonResponse } from '../http/responses.js';
import { isSameOrigin } from '../http/same-origin.js';
import type { Mailer } from '../orders/mailer.js';
import type { GatewayRequest } from '../request-context.js';
import { PRIVATE_NO_STORE } from '../snapshots/cache-policy.js';
import {
  ACCOUNT_SCRIPT,
  type AccountView,
  accountPage,
  apiPlanPage,
  confirmPage,
  failurePage,
  linkSentPage,
  type PageFrame,
  signInFormPage,
} from '../web/account-page.js';
import type { ExplorerSource } from '../web/explorer-loader.js';
import { contentSecurityPolicy, htmlHeaders } from '../web/page-headers.js';

/** What the self-serve plan needs beyond the app's common dependencies; absent parts answer 503. */
export interface AccountServices {
  /** Sign-in links and key notices; null: sign-in answers 503. */
  mailer: Mailer | null;
  /** The Stripe client pinned to `STRIPE_API_VERSION`; null: subscribe and portal answer 503. */
  stripe: Stripe | null;
  /** `SBM_API_PLAN_PRICE`. */
  priceId: string | null;
  /** The signing secret of `/account/webhooks/stripe`. */
  webhookSecret: string | null;
  /** Origins of the hosted pages "Subscribe" and "Manage billing" redirect to (`stripePagesOrigins`); default Stripe's. */
  stripePages?: readonly string[];
}

export const NO_ACCOUNT_SERVICES: AccountServices = {
  mailer: null,
  stripe: null,
  priceId: null,
  webhookSecret: null,
};

export interface AccountRouteDeps {
  auth: AuthDeps;
  explorer: ExplorerSource;
  baseUrl: string;
  /** The pages say they show the sandbox (`SBM_SANDBOX=1`), as the explorer's do. */
  sandbox?: boolean;
  monthlyAllowance: number;
  services: AccountServices;
}

/** The anonymous forms' double-submit token (the email form, the sign-in button). */
const FORM_COOKIE = 'svc_form';
const MAX_FORM_BYTES = 16 * 1024;
const MAX_EVENT_BYTES = 512 * 1024;

/**
 * The account pages: email sign-in safe from mail scanners, keys, usage, subscribe and
 * billing portal; the Stripe webhook of subscriptions; and `GET /api/v1/usage` for keys. Every
 * state-changing request checks `Origin` and a form token (the session's CSRF token once signed in).
 */
export function accountRoutes(router: RouterType<GatewayRequest>, deps: AccountRouteDeps): void {
  const secure = deps.baseUrl.startsWith('https:');
  const formTargets = deps.services.stripePages ?? stripePagesOrigins(null);
  const frame = async (): Promise<PageFrame> => ({
    manifest: (await deps.explorer())?.manifest ?? null,
    sandbox: deps.sandbox ?? false,
  });
  // The pages' Referrer-Policy stays htmlHeaders' `same-origin`: a sign-in token never leaves the site
  // in a Referer, and the forms' POSTs carry the page's Origin. Under `no-referrer` a browser sends
  // `Origin: null` on every POST, and the same-origin check refuses each form.
  const html = (body: string, status = 200, extra: Record<string, string> = {}) =>
    new Response(body, {
      status,
      headers: {
        ...htmlHeaders(),
        'content-security-policy': contentSecurityPolicy(formTargets),
        // The account's own page: kept by no cache, not even the browser's.
        'cache-control': PRIVATE_NO_STORE,
        ...extra,
      },
    });
  const see = (location: string, extra: Record<string, string> = {}) =>
    new Response(null, { status: 303, headers: { location, 'cache-control': PRIVATE_NO_STORE, ...extra } });
  const cookieSet = (request: GatewayRequest) =>
    readCookie(request.ctx.requestHeaders.get('cookie'), ACCOUNT_COOKIE) !== undefined;

  const billing = (): BillingDeps => {
    const { stripe, priceId } = deps.services;
    if (!stripe || !priceId) {
      throw new HttpError(
        503,
        'Billing is not configured on this gateway (STRIPE_SECRET_KEY, SBM_API_PLAN_PRICE).',
      );
    }
    return { state: deps.auth.state, now: deps.auth.now, stripe, priceId, baseUrl: deps.baseUrl };
  };

  const readForm = async (request: GatewayRequest): Promise<URLSearchParams> => {
    if (!isSameOrigin(request.ctx.requestHeaders, request.url, deps.baseUrl)) {
      throw new HttpError(403, 'Cross-origin request refused: account forms are posted from this site only.');
    }
    const declared = Number(request.ctx.requestHeaders.get('content-length') ?? '0');
    if (declared > MAX_FORM_BYTES) throw new HttpError(413, 'The form is too large.');
    const text = await request.text();
    if (text.length > MAX_FORM_BYTES) throw new HttpError(413, 'The form is too large.');
    return new URLSearchParams(text);
  };

  /** A signed-in form post: same origin, a live session, and that session's CSRF token. */
  const signedInForm = async (
    request: GatewayRequest,
  ): Promise<{ who: SignedInAccount; form: URLSearchParams }> => {
    const form = await readForm(request);
    const who = await signedInAccount(deps.auth, request.ctx.requestHeaders);
    if (!who) throw new HttpError(401, 'You are signed out: sign in again at /account.');
    if (!csrfMatches(who.csrf, form.get('csrf') ?? undefined)) {
      throw new HttpError(403, 'The form has expired or did not come from this site; reload /account.');
    }
    return { who, form };
  };

  /** An anonymous form post: same origin and the double-submit token of the page it came from. */
  const anonymousForm = async (request: GatewayRequest): Promise<URLSearchParams> => {
    const form = await readForm(request);
    const cookie = readCookie(request.ctx.requestHeaders.get('cookie'), FORM_COOKIE);
    if (!cookie || !csrfMatches(cookie, form.get('form') ?? undefined)) {
      throw new HttpError(403, 'The form has expired or did not come from this site; reload the page.');
    }
    return form;
  };

  const formToken = (request: GatewayRequest): { token: string; header: Record<string, string> } => {
    const existing = readCookie(request.ctx.requestHeaders.get('cookie'), FORM_COOKIE);
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { token: existing, header: {} };
    const token = randomBytes(32).toString('base64url');
    const attributes = [
      'Path=/account',
      'HttpOnly',
      'SameSite=Strict',
      'Max-Age=3600',
      ...(secure ? ['Secure'] : []),
    ];
    return { token, header: { 'set-cookie': [`${FORM_COOKIE}=${token}`, ...attributes].join('; ') } };
  };

  const renderAccount = async (
    who: SignedInAccount,
    extra: Partial<Pick<AccountView, 'newKey' | 'notice'>> = {},
    status = 200,
  ): Promise<Response> => {
    const account = (await deps.auth.state.getAccount(who.account.id)) ?? who.account;
    const view: AccountView = {
      account,
      csrf: who.csrf,
      usage: await usageSummary(deps.auth, account, deps.monthlyAllowance),
      subscription:
        liveSubscription(await deps.auth.state.billing.listSubscriptions(account.id)) ??
        (await deps.auth.state.billing.listSubscriptions(account.id))[0] ??
        null,
      events: await deps.auth.state.billing.listKeyEvents(account.id, 20),
      now: deps.auth.now(),
      billingEnabled: Boolean(deps.services.stripe && deps.services.priceId),
      ...extra,
    };
    return html(accountPage(await frame(), view), status);
  };

  /** Form actions answer with the page and the refusal's status, so a browser shows what went wrong. */
  const asPage = async (who: SignedInAccount, action: () => Promise<Response>): Promise<Response> => {
    try {
      return await action();
    } catch (error) {
      if (error instanceof HttpError && error.status >= 400 && error.status < 500 && error.status !== 429) {
        return renderAccount(who, { notice: escapeText(error.detail) }, error.status);
      }
      throw error;
    }
  };

  router.get('/api-plan', async (request) => html(apiPlanPage(await frame(), cookieSet(request))));

  router.get(
    '/account/account.js',
    () =>
      new Response(ACCOUNT_SCRIPT, {
        headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
      }),
  );

  router.get('/account', async (request) => {
    const who = await signedInAccount(deps.auth, request.ctx.requestHeaders);
    if (who) {
      const checkout = new URL(request.url).searchParams.get('checkout');
      const notice =
        checkout === 'done'
          ? 'Thank you: the payment is being confirmed. This page shows the plan once Stripe tells us (usually within seconds).'
          : checkout === 'cancelled'
            ? 'Checkout cancelled: nothing was charged.'
            : undefined;
      if (checkout === 'cancelled') await deps.auth.state.billing.releaseCheckout(who.account.id);
      return renderAccount(who, notice ? { notice } : {});
    }
    const { token, header } = formToken(request);
    return html(signInFormPage({ frame: await frame(), formToken: token }), 200, header);
  });

  router.post('/account/sign-in-link', async (request) => {
    const form = await anonymousForm(request);
    const mailer = deps.services.mailer;
    if (!mailer) throw new HttpError(503, 'Email sign-in is not configured on this gateway.');
    await requestSignInLink(
      { ...deps.auth, mailer, baseUrl: deps.baseUrl },
      form.get('email') ?? '',
      request.ctx.ip,
    );
    return html(linkSentPage(await frame()));
  });

  router.get('/account/sign-in', async (request) => {
    const tokens = new URL(request.url).searchParams.getAll('token');
    const token = tokens.length === 1 ? tokens[0]! : '';
    // Only a page with a button: a mail scanner's GET spends nothing.
    return html(confirmPage(await frame(), token));
  });

  router.post('/account/sign-in', async (request) => {
    const form = await readForm(request);
    const outcome = await confirmSignIn(deps.auth, form.get('token') ?? '');
    if (!outcome.ok) {
      const [status, title, text] =
        outcome.reason === 'used'
          ? [410, 'This sign-in link has been used', 'Each link signs in once.']
          : outcome.reason === 'expired'
            ? [410, 'This sign-in link has expired', 'Links work for 15 minutes after they are sent.']
            : [404, 'This sign-in link is not valid', 'Copy the whole link from the email.'];
      return html(failurePage(await frame(), title, text), status);
    }
    const maxAge = Math.floor((outcome.expiresAt.getTime() - deps.auth.now().getTime()) / 1000);
    return see('/account', { 'set-cookie': accountCookie(outcome.cookieValue, maxAge, secure) });
  });

  router.post('/account/sign-out', async (request) => {
    const { who } = await signedInForm(request);
    await deps.auth.state.billing.revokeAccountSession(who.session.id, deps.auth.now());
    return see('/account', { 'set-cookie': accountCookie('', 0, secure) });
  });

  router.post('/account/sign-out-everywhere', async (request) => {
    const { who } = await signedInForm(request);
    await deps.auth.state.billing.revokeAccountSessions(who.account.id, deps.auth.now());
    return see('/account', { 'set-cookie': accountCookie('', 0, secure) });
  });

  const keyDeps = () => ({ ...deps.auth, mailer: deps.services.mailer });

  router.post('/account/keys', async (request) => {
    const { who, form } = await signedInForm(request);
    return asPage(who, async () => {
      const issued = await createAccountKey(
        keyDeps(),
        who.account,
        form.get('name') ?? undefined,
        request.ctx.ip,
      );
      const name = (await deps.auth.state.billing.listKeyDetails(who.account.id)).find(
        (d) => d.keyId === issued.record.id,
      )?.name;
      return renderAccount(who, { newKey: { name: name ?? '', key: issued.key } }, 201);
    });
  });

  router.post('/account/keys/:id/revoke', async (request) => {
    const { who } = await signedInForm(request);
    return asPage(who, async () => {
      await revokeAccountKey(keyDeps(), who.account, String(request.params['id']), request.ctx.ip);
      return see('/account');
    });
  });

  router.post('/account/keys/:id/roll', async (request) => {
    const { who, form } = await signedInForm(request);
    return asPage(who, async () => {
      const grace = Number(form.get('grace') ?? '0');
      if (!(ROLL_GRACE_SECONDS as readonly number[]).includes(grace)) {
        throw new HttpError(422, 'The grace period is none, 1 hour (3600) or 24 hours (86400).');
      }
      const issued = await rollAccountKey(
        keyDeps(),
        who.account,
        String(request.params['id']),
        grace as RollGrace,
        request.ctx.ip,
      );
      const name = (await deps.auth.state.billing.listKeyDetails(who.account.id)).find(
        (d) => d.keyId === issued.record.id,
      )?.name;
      return renderAccount(who, { newKey: { name: name ?? '', key: issued.key } }, 201);
    });
  });

  router.post('/account/subscribe', async (request) => {
    const { who } = await signedInForm(request);
    return asPage(who, async () => see(await startSubscriptionCheckout(billing(), who.account)));
  });

  router.post('/account/billing-portal', async (request) => {
    const { who } = await signedInForm(request);
    return asPage(who, async () => see(await openBillingPortal(billing(), who.account)));
  });

  router.post('/account/webhooks/stripe', async (request) => {
    const secret = deps.services.webhookSecret;
    if (!secret || !deps.services.stripe || !deps.services.priceId) {
      throw new HttpError(503, 'The billing webhook is not configured on this gateway.');
    }
    const body = new Uint8Array(await request.arrayBuffer());
    if (body.byteLength > MAX_EVENT_BYTES) throw new HttpError(413, 'The event is too large.');
    const signature = request.ctx.requestHeaders.get('stripe-signature');
    if (!signature) throw new HttpError(400, 'The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(
        Buffer.from(body),
        signature,
        secret,
        undefined,
        undefined,
        deps.auth.now().getTime(),
      );
    } catch {
      throw new HttpError(400, 'The Stripe-Signature does not verify.');
    }
    const result = await handleBillingEvent(billing(), event);
    return jsonResponse({ received: true, handled: result.handled }, 200, { 'cache-control': 'no-store' });
  });

  /**
   * `GET /api/v1/usage`: the key's account standing, read with the key itself and not counted (like
   * OpenRouter's key endpoint). Reading it never changes the allowance.
   */
  router.get('/api/v1/usage', async (request) => {
    const credential = await resolveCredential(deps.auth, request.ctx.requestHeaders);
    request.ctx.credential = credential;
    const denied = checkAccess(credential, 'paid', 'Usage');
    if (denied) throw new HttpError(denied.status, denied.detail, denied.headers);
    if (credential.kind !== 'key') {
      throw new HttpError(401, 'Usage is read with an API key: send "Authorization: Bearer sbm_live_...".', {
        'WWW-Authenticate': 'Bearer realm="sbm"',
      });
    }
    const account = (await deps.auth.state.getAccount(credential.accountId))!;
    const usage = await usageSummary(deps.auth, account, deps.monthlyAllowance);
    const period = credential.period;
    const now = deps.auth.now();
    const body = {
      limit: usage.limit,
      used: usage.used,
      remaining: usage.remaining,
      reset: period.end.toISOString(),
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
      keys: usage.keys.map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        last_four: k.lastFour,
        status: k.status,
        used: k.used,
        last_used_at: k.lastUsedAt?.toISOString() ?? null,
        current: k.id === credential.keyId,
      })),
    };
    const headers = limitHeaders(
      {
        allowed: usage.remaining > 0,
        limit: usage.limit,
        remaining: usage.remaining,
        resetAt: period.end,
        windowSeconds: Math.round((period.end.getTime() - period.start.getTime()) / 1000),
      },
      now,
    );
    delete headers['Retry-After'];
    return jsonResponse(body, 200, { 'cache-control': PRIVATE_NO_STORE, ...headers });
  });
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
