import { HttpError } from '../http/http-errors.js';
import type { GatewayRequest } from '../request-context.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';

/** Snapshots change at most every five minutes (spec 8's polling guidance). */
const MAX_AGE_SECONDS = 300;

/**
 * The bytes of one published object, with a strong ETag and caching headers; 304 when the caller's
 * `If-None-Match` names the same bytes. `missing` is the 404 detail when the run has no such object.
 */
export function snapshotResponse(
  cache: SnapshotCache,
  request: GatewayRequest,
  path: string,
  nowMs: number,
  missing: string,
  extraHeaders: Record<string, string> = {},
): Response {
  requirePublished(cache);
  const object = cache.get(path, nowMs);
  if (!object) throw new HttpError(404, missing);
  return cachedResponse(request, object.etag, () => object.body, object.contentType, extraHeaders);
}

export function requirePublished(cache: SnapshotCache): void {
  if (!cache.manifest) {
    throw new HttpError(503, 'No data has been published yet; try again later.', { 'Retry-After': '60' });
  }
}

/**
 * A cacheable answer: `ETag`, `Cache-Control` (public for public callers, private otherwise) and 304
 * when `If-None-Match` names the same ETag; `body` is only produced for a 200. The request's
 * pre-decided headers (the allowance) are built in.
 */
export function cachedResponse(
  request: GatewayRequest,
  etag: string,
  body: () => Uint8Array | string,
  contentType: string,
  extraHeaders: Record<string, string> = {},
): Response {
  const scope = request.ctx.credential?.kind === 'public' ? 'public' : 'private';
  // One object, built once: these headers are set on every answer the gateway serves.
  const headers: Record<string, string> = Object.assign(
    {
      etag,
      'cache-control': `${scope}, max-age=${MAX_AGE_SECONDS}`,
      vary: 'Authorization, Cookie',
    },
    request.ctx.responseHeaders,
  );
  request.ctx.headersApplied = true;
  const conditional = request.ctx.requestHeaders.get('if-none-match');
  if (conditional && matchesEtag(conditional, etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers['content-type'] = contentType;
  Object.assign(headers, extraHeaders);
  return new Response(body(), { status: 200, headers });
}

/** `If-None-Match`: a list of entity tags, or `*`. */
function matchesEtag(header: string, etag: string): boolean {
  return header.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
}
