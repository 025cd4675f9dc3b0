import { readCookie } from '../auth/cookie-header.js';
import { SESSION_COOKIE } from '../auth/sessions.js';
import { type ChosenEncoding, chooseEncoding } from '../http/accept-encoding.js';
import { HttpError } from '../http/http-errors.js';
import { type GatewayRequest, NO_RESPONSE_HEADERS } from '../request-context.js';
import { CREDENTIAL_CACHE_CONTROL } from '../snapshots/cache-policy.js';
import type { Representation, ServedObject, SnapshotCache } from '../snapshots/snapshot-cache.js';

const VARY_WITH_ENCODING = 'Accept-Encoding, Authorization, Cookie';

/**
 * An answer before it is a fetch `Response`: what the router wraps in one and what the fast path
 * (`gateway/fast-path.ts`) writes straight to Node's response, so both send the same status, headers
 * and bytes. Header names are lower-case.
 */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  /** null for a 304. */
  body: Uint8Array | string | null;
}

/**
 * The bytes of one published object in the representation the caller accepts best, with its strong
 * ETag and caching headers; 304 when `If-None-Match` names that representation. `missing` is the 404
 * detail when the run has no such object.
 */
export function snapshotAnswer(
  cache: SnapshotCache,
  request: GatewayRequest,
  path: string,
  nowMs: number,
  missing: string,
  extraHeaders: Record<string, string> = NO_EXTRA_HEADERS,
): PlainAnswer {
  requirePublished(cache);
  const object = cache.get(path, nowMs);
  if (!object) throw new HttpError(404, missing);
  return representationAnswer(request, object, cache.publicCacheControl(nowMs), extraHeaders);
}

export function snapshotResponse(
  cache: SnapshotCache,
  request: GatewayRequest,
  path: string,
  nowMs: number,
  missing: string,
  extraHeaders: Record<string, string> = NO_EXTRA_HEADERS,
): Response {
  return toResponse(snapshotAnswer(cache, request, path, nowMs, missing, extraHeaders));
}

export function requirePublished(cache: SnapshotCache): void {
  if (!cache.manifest) {
    throw new HttpError(503, 'No data has been published yet; try again later.', { 'Retry-After': '60' });
  }
}

/**
 * Picks the representation (`Accept-Encoding`) and answers with it: each has its own ETag, so a 304
 * confirms exactly the bytes the caller holds, and `Vary: Accept-Encoding` tells caches why.
 */
function representationAnswer(
  request: GatewayRequest,
  object: ServedObject,
  publicCacheControl: string,
  extraHeaders: Record<string, string>,
): PlainAnswer {
  const encoding = chooseEncoding(request.ctx.requestHeaders.get('accept-encoding'), object.encoded);
  const chosen = encoding === 'identity' ? object : object.encoded[encoding]!;
  if (
    request.ctx.responseHeaders === NO_RESPONSE_HEADERS &&
    extraHeaders === NO_EXTRA_HEADERS &&
    !request.ctx.requestHeaders.get('if-none-match') &&
    isPublicAnswer(request)
  ) {
    request.ctx.headersApplied = true;
    return {
      status: 200,
      headers: publicHeadersOf(chosen, object.contentType, encoding, publicCacheControl),
      body: chosen.body,
    };
  }
  const answer = cachedAnswer(
    request,
    chosen.etag,
    () => chosen.body,
    object.contentType,
    publicCacheControl,
    extraHeaders,
    true,
  );
  if (encoding !== 'identity') answer.headers['content-encoding'] = encoding;
  return answer;
}

const NO_EXTRA_HEADERS: Record<string, string> = Object.freeze({});

/**
 * The headers of a public 200 of one representation, built once per `Cache-Control` value: every public
 * answer of it within that value's time sends the same ones (the same names, order and values `cachedAnswer`
 * gives), so one frozen object serves them all and a public answer allocates no headers. Kept as long as the
 * representation is; rebuilt when the run's cache policy gives another value (at most once a second, usually
 * once every few minutes).
 */
const publicHeaders = new WeakMap<Representation, Record<string, string>>();

function publicHeadersOf(
  chosen: Representation,
  contentType: string,
  encoding: ChosenEncoding,
  cacheControl: string,
): Record<string, string> {
  let headers = publicHeaders.get(chosen);
  if (headers === undefined || headers['cache-control'] !== cacheControl) {
    const built: Record<string, string> = {
      etag: chosen.etag,
      'cache-control': cacheControl,
      vary: VARY_WITH_ENCODING,
      'content-type': contentType,
      'content-length': String(chosen.body.byteLength),
    };
    if (encoding !== 'identity') built['content-encoding'] = encoding;
    headers = Object.freeze(built);
    publicHeaders.set(chosen, headers);
  }
  return headers;
}

/**
 * A cacheable answer: `ETag`, `Cache-Control` and 304 when `If-None-Match` names the same ETag; `body`
 * is only produced for a 200. A caller without a credential gets `publicCacheControl` (the run's,
 * `snapshots/cache-policy.ts`); a key or a session, even one that turned out invalid or expired, gets
 * `private, no-cache`. The request's pre-decided headers (the allowance) are built in. A `Uint8Array`
 * body gets its `Content-Length`.
 */
export function cachedAnswer(
  request: GatewayRequest,
  etag: string,
  body: () => Uint8Array | string,
  contentType: string,
  publicCacheControl: string,
  extraHeaders: Record<string, string> = {},
  variesByEncoding = false,
): PlainAnswer {
  // One object, built once: these headers are set on every answer the gateway serves.
  const headers: Record<string, string> = Object.assign(
    {
      etag,
      'cache-control': isPublicAnswer(request) ? publicCacheControl : CREDENTIAL_CACHE_CONTROL,
      vary: variesByEncoding ? VARY_WITH_ENCODING : 'Authorization, Cookie',
    },
    request.ctx.responseHeaders,
  );
  request.ctx.headersApplied = true;
  const conditional = request.ctx.requestHeaders.get('if-none-match');
  if (conditional && matchesEtag(conditional, etag)) {
    return { status: 304, headers, body: null };
  }
  const bytes = body();
  headers['content-type'] = contentType;
  if (typeof bytes !== 'string') headers['content-length'] = String(bytes.byteLength);
  Object.assign(headers, extraHeaders);
  return { status: 200, headers, body: bytes };
}

export function cachedResponse(
  request: GatewayRequest,
  etag: string,
  body: () => Uint8Array | string,
  contentType: string,
  publicCacheControl: string,
  extraHeaders: Record<string, string> = {},
): Response {
  return toResponse(cachedAnswer(request, etag, body, contentType, publicCacheControl, extraHeaders));
}

/**
 * Whether a shared cache may keep this answer: the caller was admitted as public and presented no
 * credential at all (a bad or expired session cookie makes the caller public, but a browser that sends
 * one is a subscriber's: its answers stay private).
 */
function isPublicAnswer(request: GatewayRequest): boolean {
  if (request.ctx.credential?.kind !== 'public') return false;
  const cookie = request.ctx.requestHeaders.get('cookie');
  return !cookie || readCookie(cookie, SESSION_COOKIE) === undefined;
}

export function toResponse(answer: PlainAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** `If-None-Match`: a list of entity tags, or `*`. */
function matchesEtag(header: string, etag: string): boolean {
  return header.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
}
