import type { RouterType } from 'itty-router';
import { buildDataDocument } from '../../pipeline/contract/openapi/data-document.js';
import { buildTaxDocument } from '../../pipeline/contract/openapi/tax-document.js';
import type { Sku } from '../../pipeline/contract/sku.js';
import type { GatewayRequest } from '../request-context.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';
import { METHOD_HTML } from './method-page.js';

/** The machine-readable descriptions, the method page and a health check: public and unmetered. */
export function metaRoutes(
  router: RouterType<GatewayRequest>,
  deps: { baseUrl: string; burns: SnapshotCache; emissions: SnapshotCache; skus?: readonly Sku[] },
): void {
  const dataDocument = JSON.stringify(buildDataDocument(deps.baseUrl));
  const taxDocument = JSON.stringify(buildTaxDocument(deps.baseUrl, deps.skus));
  const json = (body: string) =>
    new Response(body, {
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600' },
    });

  router.get('/api/v1/openapi.json', () => json(dataDocument));
  router.get('/tax/openapi.json', () => json(taxDocument));
  router.get(
    '/api/v1/method',
    () =>
      new Response(METHOD_HTML, {
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=3600' },
      }),
  );
  router.get('/healthz', () => {
    const burns = deps.burns.manifest;
    const emissions = deps.emissions.manifest;
    const body = {
      status: burns ? 'ok' : 'no-data',
      burns_version: burns?.version ?? null,
      burns_checked_at: burns?.['burns_checked_at'] ?? null,
      emissions_version: emissions?.version ?? null,
    };
    return new Response(JSON.stringify(body), {
      status: burns ? 200 : 503,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
  });
}
