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
): Response {
  if (!cache.manifest)
    throw new HttpError(503, 'No data has been published yet; try again later.', { 'Retry-After': '60' });
  const object = cache.get(path, nowMs);
  if (!object) throw new HttpError(404, missing);
  const scope = request.ctx.credential?.kind === 'public' ? 'public' : 'private';
  const headers = {
    etag: object.etag,
    'cache-control': `${scope}, max-age=${MAX_AGE_SECONDS}`,
    vary: 'Authorization, Cookie',
  };
  const conditional = request.headers.get('if-none-match');
  if (conditional && conditional.split(',').some((tag) => tag.trim() === object.etag || tag.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(object.body, {
    status: 200,
    headers: { ...headers, 'content-type': object.contentType },
  });
}
