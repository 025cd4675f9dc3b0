import type { RouterType } from 'itty-router';
import type { InputProblem } from '../../pipeline/tax/products/own-records/customer-inputs.js';
import { limitHeaders } from '../auth/limit-headers.js';
import { createTaxLimiter } from '../auth/tax-limiter.js';
import { HttpError } from '../http/http-errors.js';
import { jsonResponse } from '../http/responses.js';
import { type CheckoutDeps, startCheckout, TaxYearNotCoveredError } from '../orders/checkout.js';
import { OrderRequestError } from '../orders/create-order.js';
import type { OrderServices } from '../orders/order-services.js';
import type { OrderTokens } from '../orders/order-token.js';
import { newestBuilt, orderView } from '../orders/order-view.js';
import { packFileName } from '../orders/pack-key.js';
import { type PagePoint, servedPackPoints } from '../orders/served-pack-points.js';
import { PaymentRefusedError, PaymentUnavailableError } from '../orders/stripe-checkout.js';
import type { TaxYearCoverage } from '../orders/tax-year-coverage.js';
import type { GatewayRequest } from '../request-context.js';
import type { GatewayState } from '../state/gateway-state.js';
import type { OrderRecord } from '../state/order-state.js';
import type { ExplorerSource } from '../web/explorer-loader.js';
import { acceptRecordsUpload, refusedResponse, UploadRefused } from './order-records.js';
import { orderStatusPage, recordsRefusedPage, unknownOrderPage, wantsHtml } from './order-status-page.js';

/** What the order routes need: the gateway's common parts and the order services (server.ts builds them). */
export interface OrderRouteDeps extends OrderServices {
  state: GatewayState;
  now: () => Date;
  baseUrl: string;
  onError: (error: unknown) => void;
  /** Whether the published record reaches an SKU's tax year (checkout refuses one it does not). */
  coverage: TaxYearCoverage;
  /** The explorer's bundle, for the status page's stylesheet; absent or null: a plain page. */
  explorer?: ExplorerSource;
  /** The pages say they show the sandbox's synthetic world (`SBM_SANDBOX=1`). */
  sandbox?: boolean;
}

async function manifestOf(deps: OrderRouteDeps) {
  return deps.explorer ? ((await deps.explorer().catch(() => null))?.manifest ?? null) : null;
}

/** The one 404 of the order endpoints: an unknown order, a wrong token and a missing token read alike. */
export const UNKNOWN_ORDER = 'Unknown order, or wrong or missing token.';
const ORDERS_OFF = 'Checkout is not enabled on this gateway (SBM_ORDER_SECRET is not set).';
const CHECKOUT_OFF = 'Checkout is not enabled on this gateway (STRIPE_SECRET_KEY is not set).';
/** A checkout body is two short members; anything larger is not one. */
const MAX_CHECKOUT_BODY = 16 * 1024;

/**
 * The tax orders: `POST /tax/checkout`, `GET /tax/orders/{id}?t=` and `.../pack?t=`. Each
 * counts against the shared tax limit first (20 in any rolling hour per address, with the check) and
 * carries its headers. The request log records route patterns only, so no token reaches it.
 */
export function orderRoutes(router: RouterType<GatewayRequest>, deps: OrderRouteDeps): void {
  const limiter = createTaxLimiter({ state: deps.state, now: deps.now });

  const admit = async (request: GatewayRequest): Promise<Record<string, string>> => {
    const result = await limiter.hit(request.ctx.ip);
    if (!result.allowed) throw result.error;
    return limitHeaders(result.decision, deps.now());
  };
  const withHeaders = async (headers: Record<string, string>, work: () => Promise<Response>) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError)
        throw new HttpError(error.status, error.detail, { ...headers, ...error.headers });
      throw error;
    }
  };

  /**
   * The order the token opens, or the one 404. The HMAC is computed and the order looked up whatever
   * was presented, and the answer is decided only after both, so neither timing nor the response says
   * whether the id exists, the token was wrong, or no token came.
   */
  const openOrder = async (request: GatewayRequest, tokens: OrderTokens | null): Promise<OrderRecord> => {
    const id = String(request.params['order_id'] ?? '');
    const given = new URL(request.url).searchParams.getAll('t');
    // Without SBM_ORDER_SECRET no token can be right: every order reads as unknown.
    const tokenOk = tokens ? tokens.verify(id, given.length === 1 ? given[0]! : null) : false;
    const order = await deps.state.orders.getOrder(id);
    if (!tokenOk || !order) throw new HttpError(404, UNKNOWN_ORDER);
    return order;
  };

  router.post('/tax/checkout', async (request) => {
    const headers = await admit(request);
    return withHeaders(headers, async () => {
      if (!deps.tokens || !deps.seal) throw new HttpError(503, ORDERS_OFF);
      if (!deps.checkoutSessions) throw new HttpError(503, CHECKOUT_OFF);
      const checkoutDeps: CheckoutDeps = {
        state: deps.state,
        now: deps.now,
        catalogue: deps.catalogue,
        tokens: deps.tokens,
        seal: deps.seal,
        sessions: deps.checkoutSessions,
        baseUrl: deps.baseUrl,
        coverage: deps.coverage,
      };
      const body = await readCheckoutBody(request);
      try {
        const session = await startCheckout(checkoutDeps, body);
        return jsonResponse(session, 201, { ...headers, 'cache-control': 'no-store' });
      } catch (error) {
        if (error instanceof OrderRequestError) throw new HttpError(400, error.message);
        if (error instanceof TaxYearNotCoveredError) throw new HttpError(409, error.message);
        if (error instanceof PaymentUnavailableError) {
          deps.onError(error);
          throw new HttpError(503, 'The payment processor cannot be reached; please try again in a minute.', {
            'Retry-After': '60',
          });
        }
        if (error instanceof PaymentRefusedError) {
          deps.onError(error);
          throw new HttpError(
            502,
            'The payment processor refused to start a checkout; we have been notified.',
          );
        }
        throw error;
      }
    });
  });

  // The success URL a buyer's browser lands on after paying: a status page for browsers, JSON for scripts.
  router.get('/tax/orders/:order_id', async (request) => {
    const headers = await admit(request);
    const html = wantsHtml(request.ctx.requestHeaders.get('accept') ?? null);
    return withHeaders(headers, async () => {
      const order = await openOrderForPage(request, html, headers);
      if (order instanceof Response) return order;
      const revisions = await deps.state.orders.listRevisions(order.id);
      const view = orderView(order, deps.baseUrl, deps.tokens!.tokenFor(order.id), revisions, deps.now());
      if (html) {
        // The build under way: the first pack's while paid, else the pending version's.
        const build =
          order.status === 'paid'
            ? order.buildProgress
            : (revisions.find((r) => r.status === 'pending')?.buildProgress ?? null);
        return orderStatusPage(
          view,
          deps.now(),
          await manifestOf(deps),
          headers,
          deps.sandbox ?? false,
          build,
          await pointsOfServedPack(order, revisions),
        );
      }
      return jsonResponse(view, 200, { ...headers, 'cache-control': 'private, no-store', vary: 'Accept' });
    });
  });

  /**
   * The points to check of the pack the link serves (the newest version built), for a ready pack's page;
   * null when there is no pack to read, or it cannot be read (the page shows no list, and we are told).
   */
  const pointsOfServedPack = async (
    order: OrderRecord,
    revisions: Awaited<ReturnType<GatewayState['orders']['listRevisions']>>,
  ): Promise<PagePoint[] | null> => {
    if (!deps.store || order.status !== 'fulfilled' || !order.packKey || !order.packExpiresAt) return null;
    if (deps.now() >= order.packExpiresAt) return null;
    const key = newestBuilt(revisions)?.packKey ?? order.packKey;
    try {
      return await servedPackPoints(deps.store, key);
    } catch (error) {
      deps.onError(
        new Error(
          `order ${order.id}: the points of its pack cannot be read (${error instanceof Error ? error.name : typeof error})`,
        ),
      );
      return null;
    }
  };

  /** As `openOrder`; a browser gets the one 404 as a page. */
  const openOrderForPage = async (
    request: GatewayRequest,
    html: boolean,
    headers: Record<string, string>,
  ): Promise<OrderRecord | Response> => {
    try {
      return await openOrder(request, deps.tokens);
    } catch (error) {
      if (!html || !(error instanceof HttpError) || error.status !== 404) throw error;
      return unknownOrderPage(await manifestOf(deps), headers, deps.sandbox ?? false);
    }
  };

  router.get('/tax/orders/:order_id/pack', async (request) => {
    const headers = await admit(request);
    return withHeaders(headers, async () => {
      const order = await openOrder(request, deps.tokens);
      if (order.status !== 'fulfilled' || !order.packKey || !order.packExpiresAt) {
        throw new HttpError(
          409,
          order.status === 'created'
            ? 'The order has no pack yet: it is not paid.'
            : 'The order has no pack yet: it is paid and the pack is being prepared; try again in a minute.',
        );
      }
      // 410 from the expiry on, whether or not the purge has deleted the object yet.
      if (deps.now() >= order.packExpiresAt) throw new HttpError(410, expiredDetail(order));
      if (!deps.store) throw new Error('order routes without a pack store');
      // The newest version built (the buyer's records added), else the first pack.
      const newest = newestBuilt(await deps.state.orders.listRevisions(order.id));
      const key = newest?.packKey ?? order.packKey;
      const bytes = await deps.store.get(key);
      if (!bytes) {
        if (order.purgedAt) throw new HttpError(410, expiredDetail(order));
        deps.onError(new Error(`order ${order.id} is fulfilled but its pack ${key} is missing`));
        throw new HttpError(503, 'The pack cannot be read right now; please try again later.', {
          'Retry-After': '300',
        });
      }
      return new Response(bytes, {
        headers: {
          ...headers,
          'content-type': 'application/zip',
          'content-length': String(bytes.byteLength),
          'content-disposition': `attachment; filename="${packFileName(order.id, newest?.version ?? 1)}"`,
          'x-pack-version': String(newest?.version ?? 1),
          'cache-control': 'private, no-store',
        },
      });
    });
  });

  // The buyer adds their own records; the fulfilment job builds the next version of the pack.
  router.post('/tax/orders/:order_id/records', async (request) => {
    const headers = await admit(request);
    const html = wantsHtml(request.ctx.requestHeaders.get('accept') ?? null);
    return withHeaders(headers, async () => {
      const order = await openOrderForPage(request, html, headers);
      if (order instanceof Response) return order;
      const token = deps.tokens!.tokenFor(order.id);
      const back = `/tax/orders/${order.id}?t=${token}`;
      const page = async (status: number, detail: string, problems: InputProblem[], extra = {}) =>
        recordsRefusedPage({
          status,
          detail,
          problems,
          back,
          manifest: await manifestOf(deps),
          headers: { ...headers, ...extra },
          sandbox: deps.sandbox ?? false,
        });
      try {
        if (!deps.store) throw new Error('order routes without a pack store');
        const uploadDeps = {
          state: deps.state,
          store: deps.store,
          now: deps.now,
          baseUrl: deps.baseUrl,
          token,
          onError: deps.onError,
        };
        const { revision, view } = await acceptRecordsUpload(uploadDeps, request, order);
        // A browser goes back to its order page (which now shows the version being built); a script
        // gets the order with its new revision.
        if (html) {
          return new Response(null, {
            status: 303,
            headers: { ...headers, location: back, 'cache-control': 'private, no-store' },
          });
        }
        return jsonResponse(view, 202, {
          ...headers,
          location: back,
          'cache-control': 'private, no-store',
          'x-pack-version': String(revision.version),
        });
      } catch (error) {
        if (error instanceof UploadRefused) {
          if (!html) return refusedResponse(error, headers);
          return page(error.status, error.detail, error.problems);
        }
        if (html && error instanceof HttpError) return page(error.status, error.detail, [], error.headers);
        throw error;
      }
    });
  });
}

function expiredDetail(order: OrderRecord): string {
  return `The pack was deleted: packs are kept ${order.retentionDays} days after fulfilment (until ${order.packExpiresAt!.toISOString()}).`;
}

async function readCheckoutBody(request: GatewayRequest): Promise<{ sku?: unknown; coldkeys?: unknown }> {
  const declared = Number(request.ctx.requestHeaders.get('content-length') ?? '0');
  if (declared > MAX_CHECKOUT_BODY) throw new HttpError(413, 'The request body is too large for a checkout.');
  const text = await request.text();
  if (text.length > MAX_CHECKOUT_BODY)
    throw new HttpError(413, 'The request body is too large for a checkout.');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body must be JSON: {"sku": "uk-2025-26", "coldkeys": ["5…"]}.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object: {"sku": "…", "coldkeys": ["5…"]}.');
  }
  return body as { sku?: unknown; coldkeys?: unknown };
}
