import { Router, type RouterType } from 'itty-router';
import { taxPaths } from '../pipeline/contract/tax-published.js';
import type { ColdkeyChain } from '../pipeline/tax/chain-record/coldkey-chain.js';
import { createAccessGuard } from './access-guard.js';
import {
  type AllowanceTicket,
  countsAgainstAllowance,
  createAllowanceMeter,
  type LeaseOptions,
} from './auth/allowance.js';
import type { AuthDeps } from './auth/auth-deps.js';
import { resolveClientIp } from './auth/client-ip.js';
import { createKeyUseTally } from './auth/key-use-tally.js';
import { type LimitDecision, limitHeaders } from './auth/limit-headers.js';
import { createPublicLimiter } from './auth/window-limiter.js';
import { createFastPath, type FastPath } from './fast-path.js';
import { HttpError, ValidationFailure } from './http/http-errors.js';
import { errorAnswer, errorBody } from './http/responses.js';
import { allowedMethods, serveHeadLikeGet, withoutBody } from './http/route-methods.js';
import { NO_ORDER_SERVICES, type OrderServices } from './orders/order-services.js';
import { publishedTaxYearCoverage } from './orders/tax-year-coverage.js';
import {
  type ConnectionInfo,
  type GatewayRequest,
  NO_RESPONSE_HEADERS,
  requestTime,
} from './request-context.js';
import { type AccountServices, accountRoutes, NO_ACCOUNT_SERVICES } from './routes/account.js';
import { dataRoutes } from './routes/data.js';
import { emissionRoutes } from './routes/emissions.js';
import { explorerRoutes } from './routes/explorer.js';
import { metaRoutes } from './routes/meta.js';
import { orderRoutes } from './routes/orders.js';
import { signInRoutes } from './routes/sign-in.js';
import { stripeWebhookRoutes } from './routes/stripe-webhook.js';
import { taxRoutes } from './routes/tax.js';
import type { SnapshotCache } from './snapshots/snapshot-cache.js';
import type { GatewayState } from './state/gateway-state.js';
import { type ExplorerSource, explorerFromDist } from './web/explorer-loader.js';

export interface RequestLogEntry {
  method: string;
  /** The route pattern, never the raw URL: query strings can hold order tokens. */
  route: string;
  status: number;
  duration_ms: number;
  account: string | null;
}

export interface GatewayDeps {
  state: GatewayState;
  burns: SnapshotCache;
  emissions: SnapshotCache;
  now: () => Date;
  baseUrl: string;
  monthlyAllowance: number;
  /** Allowance leases (`auth/allowance.ts`); absent: every keyed success is counted in the shared state. */
  allowanceLease?: LeaseOptions | undefined;
  publicLimitPerMinute: number;
  /** Proxies that append to `X-Forwarded-For` (`SBM_TRUST_PROXY`); 0 (the default) counts the socket's address. */
  trustProxy?: number;
  /** The node the tax check reads (`SBM_CHAIN_URL`); without one every uncached check answers 503. */
  taxChain?: ColdkeyChain | null;
  /** Tax orders (checkout, status, pack, Stripe webhook); absent: nothing is sold and no order opens. */
  orders?: OrderServices;
  /** The self-serve API plan (sign-in mail, Stripe subscriptions); absent: those routes answer 503. */
  account?: AccountServices;
  /**
   * The explorer's bundle (README "The explorer"); by default read from gateway/web/dist on the first
   * page request (built first when stale). When it yields null the pages answer 503 saying so; every
   * API route answers as always.
   */
  explorer?: ExplorerSource;
  /** The published data is the sandbox's synthetic world (`SBM_SANDBOX=1`, set by `make demo`): every page says so. */
  sandbox?: boolean;
  log: (entry: RequestLogEntry) => void;
  onError: (error: unknown) => void;
}

export interface GatewayApp {
  fetch(request: Request, connection?: ConnectionInfo): Promise<Response>;
  /**
   * Answers a snapshot read straight from Node's request and response objects and returns true; any
   * other request returns false, untouched, for `fetch` (see `fast-path.ts`).
   */
  fastPath: FastPath;
  /** Gives back the unspent part of the allowance leases this instance holds and writes the per-key use it counted. */
  close(): Promise<void>;
  /** The route table, each route's method and path pattern (HEAD included): for tests that walk every route. */
  readonly routes: readonly { method: string; path: string }[];
}

/**
 * The gateway: an itty-router router built from injected dependencies. `fetch` sets up the request
 * context, handlers parse, admit and return bytes, `catch` maps every error to the one body shape,
 * and `finally` settles the allowance, adds the limit headers and logs one line.
 */
export function buildApp(deps: GatewayDeps): GatewayApp {
  const keyUse = createKeyUseTally({ billing: deps.state.billing, onError: deps.onError });
  const allowance = createAllowanceMeter({
    state: deps.state,
    limit: deps.monthlyAllowance,
    lease: deps.allowanceLease,
    now: deps.now,
  });
  const auth: AuthDeps = { state: deps.state, now: deps.now, keyUse, allowance };
  const guard = createAccessGuard({
    auth,
    allowance,
    publicLimiter: createPublicLimiter({
      state: deps.state,
      limitPerMinute: deps.publicLimitPerMinute,
      now: deps.now,
    }),
  });

  /** The account page's per-key, per-day use: counted here, written once a second. */
  const recordKeyUse = (request: GatewayRequest, granted: boolean, status: number): void => {
    const credential = request.ctx.credential;
    if (!granted || credential?.kind !== 'key' || !countsAgainstAllowance(status)) return;
    keyUse.count(credential.keyId, credential.accountId, requestTime(request, deps.now).getTime());
  };

  /**
   * Every request's end, on the router and the fast path alike: settles the allowance reservation,
   * puts the limit headers into `headers` when they differ from those built in, logs one line. A
   * request ends without a promise (undefined: done) unless settling must write the shared state.
   */
  const finish = (
    request: GatewayRequest,
    status: number,
    headers: Record<string, string>,
  ): Promise<void> | undefined => {
    const ticket = request.ctx.ticket;
    if (!ticket) {
      logRequest(request, status);
      return undefined;
    }
    request.ctx.ticket = null;
    const decision = ticket.settle(status);
    if (decision instanceof Promise) {
      return decision.then((settled) => endSettled(request, ticket, settled, status, headers));
    }
    endSettled(request, ticket, decision, status, headers);
    return undefined;
  };
  const endSettled = (
    request: GatewayRequest,
    ticket: AllowanceTicket,
    decision: LimitDecision,
    status: number,
    headers: Record<string, string>,
  ): void => {
    recordKeyUse(request, ticket.decision.allowed, status);
    // A success keeps the reservation's headers, already built into the response.
    if (decision !== ticket.decision || !request.ctx.headersApplied) {
      Object.assign(headers, limitHeaders(decision, requestTime(request, deps.now)));
    }
    logRequest(request, status);
  };
  const logRequest = (request: GatewayRequest, status: number): void => {
    deps.log({
      method: request.method,
      route: request.route ?? 'unmatched',
      status,
      duration_ms: Math.round((performance.now() - request.ctx.startedAt) * 100) / 100,
      account: accountOf(request),
    });
  };

  // The request context is set up in `fetch` below rather than in a `before` stage, and `finally` is
  // one stage: itty awaits every stage, and each await is a turn of the microtask queue per request.
  const router = Router<GatewayRequest, [ConnectionInfo | undefined]>({
    catch: (error: unknown) => toErrorResponse(error, deps.onError),
    finally: [
      async (answer: Response | undefined, request: GatewayRequest) => {
        let response = answer ?? unrouted(request);
        const headers: Record<string, string> = {};
        await finish(request, response.status, headers);
        for (const name in headers) response.headers.set(name, headers[name]!);
        if (request.method === 'HEAD') response = await withoutBody(response);
        return response;
      },
    ],
  }) as RouterType<GatewayRequest, [ConnectionInfo | undefined]>;

  dataRoutes(router, { burns: deps.burns, guard, now: deps.now });
  emissionRoutes(router, { emissions: deps.emissions, guard, now: deps.now });
  const orders = deps.orders ?? NO_ORDER_SERVICES;
  metaRoutes(router, {
    baseUrl: deps.baseUrl,
    burns: deps.burns,
    emissions: deps.emissions,
    skus: orders.catalogue.skus,
  });
  taxRoutes(router, {
    state: deps.state,
    burns: deps.burns,
    chain: deps.taxChain ?? null,
    now: deps.now,
    onError: deps.onError,
  });
  const common = { state: deps.state, now: deps.now };
  const coverage = publishedTaxYearCoverage(
    () => deps.burns.get(taxPaths.calendar(), deps.now().getTime())?.body ?? null,
    deps.now,
  );
  const explorer = deps.explorer ?? explorerFromDist({ onError: deps.onError });
  const sandbox = deps.sandbox ?? false;
  orderRoutes(router, {
    ...common,
    ...orders,
    baseUrl: deps.baseUrl,
    onError: deps.onError,
    coverage,
    explorer,
    sandbox,
  });
  stripeWebhookRoutes(router, {
    ...common,
    webhookSecret: orders.webhookSecret,
    alert: orders.alert,
    seal: orders.seal,
  });
  // The explorer's pages and sign-in links, beside the API: none of their paths is an API path.
  explorerRoutes(router, { explorer, auth, sandbox });
  signInRoutes(router, { explorer, auth, baseUrl: deps.baseUrl, sandbox });
  accountRoutes(router, {
    auth,
    explorer,
    sandbox,
    baseUrl: deps.baseUrl,
    monthlyAllowance: deps.monthlyAllowance,
    services: deps.account ?? NO_ACCOUNT_SERVICES,
  });
  serveHeadLikeGet(router.routes);
  // No answer: a 405 naming what the path serves when no route matched the method, else a 404.
  const unrouted = (request: GatewayRequest): Response => {
    const allowed = request.route ? [] : allowedMethods(router.routes, new URL(request.url).pathname);
    if (allowed.length === 0) return errorBody(404, 'Not Found');
    return errorBody(405, 'Method Not Allowed', { allow: allowed.join(', ') });
  };

  const fastPath = createFastPath({
    routes: router.routes,
    trustProxy: deps.trustProxy ?? 0,
    errorAnswer: (error) => toErrorAnswer(error, deps.onError),
    finish,
  });

  return {
    fastPath,
    routes: router.routes.map(([method, , , path]) => ({ method, path: path || '/' })),
    async close() {
      await Promise.all([allowance.close(), keyUse.close()]);
    },
    fetch(request, connection) {
      const gatewayRequest = request as unknown as GatewayRequest;
      const requestHeaders = connection?.headers ?? request.headers;
      gatewayRequest.ctx = {
        startedAt: performance.now(),
        ip: resolveClientIp(connection?.ip, requestHeaders, deps.trustProxy ?? 0),
        requestHeaders,
        credential: null,
        ticket: null,
        responseHeaders: NO_RESPONSE_HEADERS,
        headersApplied: false,
        at: null,
      };
      return router.fetch(gatewayRequest, connection);
    },
  };
}

function accountOf(request: GatewayRequest): string | null {
  const credential = request.ctx?.credential;
  return credential && (credential.kind === 'key' || credential.kind === 'session')
    ? credential.accountId
    : null;
}

/** Typed errors become their status and `detail`; anything else is logged and answered without detail. */
function toErrorResponse(error: unknown, onError: (error: unknown) => void): Response {
  if (error instanceof ValidationFailure) return errorBody(422, error.detail);
  if (error instanceof HttpError) return errorBody(error.status, error.detail, error.headers);
  onError(error);
  return errorBody(500, 'Internal server error');
}

/** The same mapping as plain parts, for the fast path. */
function toErrorAnswer(error: unknown, onError: (error: unknown) => void) {
  if (error instanceof ValidationFailure) return errorAnswer(422, error.detail);
  if (error instanceof HttpError) return errorAnswer(error.status, error.detail, error.headers);
  onError(error);
  return errorAnswer(500, 'Internal server error');
}
