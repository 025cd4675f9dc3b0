import type { RouterType } from 'itty-router';
import { ACCOUNT_COOKIE } from '../auth/account-sessions.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import { readCookie } from '../auth/cookie-header.js';
import { SESSION_COOKIE, verifySession } from '../auth/sessions.js';
import type { GatewayRequest } from '../request-context.js';
import type { ExplorerSource } from '../web/explorer-loader.js';
import { escapeHtml } from '../web/html-text.js';
import { ASSET_CACHE_CONTROL, htmlHeaders } from '../web/page-headers.js';
import { type Access, type ExplorerPage, messagePage, renderShell } from '../web/page-shell.js';

export interface ExplorerRouteDeps {
  /** The built bundle; null when it could not be built or loaded (the pages then say so, 503). */
  explorer: ExplorerSource;
  auth: AuthDeps;
  /** Every page says it shows the sandbox's synthetic world (`SBM_SANDBOX=1`). */
  sandbox?: boolean;
}

/**
 * The explorer (README "The explorer"): `/`, `/subnets/{netuid}` and `/tax` for people, and the
 * bundle under `/assets/`. The pages sit beside the API routes, never in their place: every API path
 * answers exactly as before. Pages are not metered; the data requests their script makes are.
 */
export function explorerRoutes(router: RouterType<GatewayRequest>, deps: ExplorerRouteDeps): void {
  const page = async (
    request: GatewayRequest,
    what: { page: ExplorerPage; title: string; heading: string; netuid?: number },
  ): Promise<Response> => {
    const access = await accessOf(deps.auth, request);
    const manifest = (await deps.explorer())?.manifest;
    const sandbox = deps.sandbox ?? false;
    if (!manifest) return notBuilt(access, sandbox);
    const body = `<h1>${escapeHtml(what.heading)}</h1>\n<div id="app" aria-live="polite"><p class="loading">Loading…</p></div>\n<noscript><p>This page needs JavaScript to draw its tables and charts. The same data is at <a href="/api/v1/subnets">/api/v1/subnets</a>.</p></noscript>`;
    const account = readCookie(request.ctx.requestHeaders.get('cookie'), ACCOUNT_COOKIE)
      ? 'signed-in'
      : 'signed-out';
    const html = renderShell({ ...what, manifest, access, body, account, sandbox });
    return new Response(html, { headers: htmlHeaders() });
  };

  router.get('/', (request) => page(request, { page: 'subnets', title: 'Subnets', heading: 'Subnet burns' }));

  router.get('/subnets/:netuid', async (request) => {
    const raw = String(request.params['netuid'] ?? '');
    if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65_535) {
      const access = await accessOf(deps.auth, request);
      const manifest = (await deps.explorer())?.manifest ?? null;
      return new Response(
        messagePage({
          title: 'No such subnet',
          paragraphs: [
            `“${escapeHtml(raw.slice(0, 40))}” is not a subnet number. <a href="/">See every subnet</a>.`,
          ],
          manifest,
          access,
          sandbox: deps.sandbox ?? false,
        }),
        { status: 404, headers: htmlHeaders() },
      );
    }
    const netuid = Number(raw);
    return page(request, { page: 'subnet', title: `Subnet ${netuid}`, heading: `Subnet ${netuid}`, netuid });
  });

  router.get('/tax', (request) =>
    page(request, { page: 'tax', title: 'Tax check', heading: 'UK staking income: a free estimate' }),
  );

  router.get('/assets/:file', async (request) => {
    const asset = (await deps.explorer())?.files.get(String(request.params['file'] ?? ''));
    if (!asset) {
      return new Response('Not Found\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
    }
    const gzip = /\bgzip\b/.test(request.ctx.requestHeaders.get('accept-encoding') ?? '');
    return new Response(gzip ? asset.gzip : asset.body, {
      headers: {
        'content-type': asset.contentType,
        'cache-control': ASSET_CACHE_CONTROL,
        'x-content-type-options': 'nosniff',
        vary: 'Accept-Encoding',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      },
    });
  });
}

/** Whether the reader holds a valid subscriber session: the page shows the locked windows accordingly. */
export async function accessOf(auth: AuthDeps, request: GatewayRequest): Promise<Access> {
  const cookie = readCookie(request.ctx.requestHeaders.get('cookie'), SESSION_COOKIE);
  if (!cookie) return 'public';
  return (await verifySession(auth, cookie)).ok ? 'subscriber' : 'public';
}

function notBuilt(access: Access, sandbox: boolean): Response {
  return new Response(
    messagePage({
      title: 'The explorer is not built',
      paragraphs: [
        'This gateway has no explorer bundle. Its operator runs <code>make web</code> (or restarts the gateway, which builds it).',
        'The data interface works all the same: <a href="/api/v1/subnets">/api/v1/subnets</a>.',
      ],
      manifest: null,
      access,
      sandbox,
    }),
    { status: 503, headers: { ...htmlHeaders(), 'retry-after': '60' } },
  );
}
