import { type ChosenEncoding, chooseEncoding } from '../http/accept-encoding.js';
import { HttpError } from '../http/http-errors.js';
import { type GatewayRequest, NO_RESPONSE_HEADERS } from '../request-context.js';
import type { Representation, ServedObject, SnapshotCache } from '../snapshots/snapshot-cache.js';

/** Snapshots change at most every five minutes (spec 8's polling guidance). */
const MAX_AGE_SECONDS = 300;
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
  return representationAnswer(request, object, extraHeaders);
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
  extraHeaders: Record<string, string>,
): PlainAnswer {
  const encoding = chooseEncoding(request.ctx.requestHeaders.get('accept-encoding'), object.encoded);
  const chosen = encoding === 'identity' ? object : object.encoded[encoding]!;
  if (
    request.ctx.credential?.kind === 'public' &&
    request.ctx.responseHeaders === NO_RESPONSE_HEADERS &&
    extraHeaders === NO_EXTRA_HEADERS &&
    !request.ctx.requestHeaders.get('if-none-match')
  ) {
    request.ctx.headersApplied = true;
    return { status: 200, headers: publicHeadersOf(chosen, object.contentType, encoding), body: chosen.body };
  }
  const answer = cachedAnswer(
    request,
    chosen.etag,
    () => chosen.body,
    object.contentType,
    extraHeaders,
    true,
  );
  if (encoding !== 'identity') answer.headers['content-encoding'] = encoding;
  return answer;
}

const NO_EXTRA_HEADERS: Record<string, string> = Object.freeze({});

/**
 * The headers of a public 200 of one representation, built once: every public answer of it sends the
 * same ones (the same names, order and values `cachedAnswer` gives), so one frozen object serves them all
 * and a public answer allocates no headers (issue 28). Kept as long as the representation is.
 */
const publicHeaders = new WeakMap<Representation, Record<string, string>>();

function publicHeadersOf(
  chosen: Representation,
  contentType: string,
  encoding: ChosenEncoding,
): Record<string, string> {
  let headers = publicHeaders.get(chosen);
  if (headers === undefined) {
    const built: Record<string, string> = {
      etag: chosen.etag,
      'cache-control': `public, max-age=${MAX_AGE_SECONDS}`,
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
 * A cacheable answer: `ETag`, `Cache-Control` (public for public callers, private otherwise) and 304
 * when `If-None-Match` names the same ETag; `body` is only produced for a 200. The request's
 * pre-decided headers (the allowance) are built in. A `Uint8Array` body gets its `Content-Length`.
 */
export function cachedAnswer(
  request: GatewayRequest,
  etag: string,
  body: () => Uint8Array | string,
  contentType: string,
  extraHeaders: Record<string, string> = {},
  variesByEncoding = false,
): PlainAnswer {
  const scope = request.ctx.credential?.kind === 'public' ? 'public' : 'private';
  // One object, built once: these headers are set on every answer the gateway serves.
  const headers: Record<string, string> = Object.assign(
    {
      etag,
      'cache-control': `${scope}, max-age=${MAX_AGE_SECONDS}`,
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
  extraHeaders: Record<string, string> = {},
): Response {
  return toResponse(cachedAnswer(request, etag, body, contentType, extraHeaders));
}

export function toResponse(answer: PlainAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** `If-None-Match`: a list of entity tags, or `*`. */
function matchesEtag(header: string, etag: string): boolean {
  return header.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
}
