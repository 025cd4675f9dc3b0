/**
 * The fast path for snapshot reads. A snapshot answer is bytes computed once; building a fetch
 * `Request`, its `Headers` and a `Response` around them (and @hono/node-server's conversions both
 * ways) cost more than the answer itself. Here a request is matched against the router's own table
 * (`router.routes`, in its order, by its rules); when the first route that matches is a snapshot route
 * (`routes/snapshot-routes.ts`), it is answered from Node's request and response objects by the same
 * parse, admit and answer code the router runs; every other request returns false and goes through
 * the router as before. Whatever the path, each request ends in `finish` (the allowance settled, the
 * limit headers, one request-log entry): the one place to hook per-request counters.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RouteEntry } from 'itty-router';
import { resolveClientIp } from './auth/client-ip.js';
import type { HeaderSource } from './auth/resolve-credential.js';
import { atEndOfTurn } from './http/end-of-turn.js';
import { type GatewayRequest, NO_RESPONSE_HEADERS, type RequestContext } from './request-context.js';
import type { PlainAnswer } from './routes/snapshot-response.js';
import { type SnapshotHandler, type SnapshotTarget, snapshotHandlerOf } from './routes/snapshot-routes.js';

/** What the fast path reads of Node's `IncomingMessage` (HTTP/1 and HTTP/2 compatibility alike). */
export interface NodeRequestLike {
  method?: string | undefined;
  url?: string | undefined;
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string | undefined };
}

/** What it uses of Node's `ServerResponse`. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: Uint8Array | string): unknown;
}

export interface FastPathDeps {
  routes: readonly RouteEntry[];
  trustProxy: number;
  /** Maps a thrown error to the router's error answer (same status, headers and body). */
  errorAnswer(error: unknown): PlainAnswer;
  /**
   * Settles the allowance, sets limit headers into `headers`, logs the request; the router's finally
   * does the same. Undefined when it is done without waiting (no reservation to settle).
   */
  finish(request: GatewayRequest, status: number, headers: Record<string, string>): Promise<void> | undefined;
}

/** Paths the fast path takes as they are; anything else (`%`, `..`, `//`, odd bytes) goes to the router, which normalises it. */
const PLAIN_PATH = /^\/[A-Za-z0-9._~\-/]*$/;

export type FastPath = (incoming: NodeRequestLike, outgoing: NodeResponseLike) => boolean;

/** A URL resolved against the route table: the snapshot route it reaches, parsed. */
interface ResolvedUrl {
  handler: SnapshotHandler;
  /** The route's pattern, for the request log. */
  route: string | undefined;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  /** The parsed target, or, when parsing refused the parameters, the error to answer with. */
  target: SnapshotTarget | null;
  failure: unknown;
}

/**
 * URLs resolved before, by method; null marks a URL that is not a snapshot read. Clients poll the same
 * few URLs, and matching the table, splitting the query and checking the parameters were a third of a
 * public answer's JavaScript. A URL whose parameters were refused is not kept (its error is
 * made again per request); at most this many are kept per method (then the map starts again empty). The
 * route table never changes after start.
 */
const MAX_KNOWN_URLS = 4_096;

export function createFastPath(deps: FastPathDeps): FastPath {
  // Answers are written at the end of the turn that decided them (see `atEndOfTurn`); `call` must not
  // throw, or the rest of its turn's answers would be lost.
  const send = atEndOfTurn((outgoing: NodeResponseLike, answer: PlainAnswer, head: boolean) => {
    try {
      write(outgoing, answer, head);
    } catch (error) {
      writeError(deps, outgoing, error, head);
    }
  });
  const known = { GET: new Map<string, ResolvedUrl | null>(), HEAD: new Map<string, ResolvedUrl | null>() };
  return (incoming, outgoing) => {
    const method = incoming.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = incoming.url ?? '';
    const urls = known[method];
    let resolved = urls.get(url);
    if (resolved === undefined) {
      resolved = resolveUrl(deps.routes, method, url);
      if (resolved === null || resolved.target !== null) {
        if (urls.size >= MAX_KNOWN_URLS) urls.clear();
        urls.set(url, resolved);
      }
    }
    if (resolved === null) return false;
    const headers = new NodeHeaders(incoming.headers);
    const request = {
      method,
      url,
      route: resolved.route,
      params: resolved.params,
      query: resolved.query,
      ctx: {
        startedAt: performance.now(),
        ip: resolveClientIp(incoming.socket.remoteAddress, headers, deps.trustProxy),
        requestHeaders: headers,
        credential: null,
        ticket: null,
        responseHeaders: NO_RESPONSE_HEADERS,
        headersApplied: false,
        at: null,
      } satisfies RequestContext,
    } as unknown as GatewayRequest;
    const head = method === 'HEAD';
    // A request admitted without waiting is answered here, inside Node's request event, as the bare
    // server answers: no promise between the parsed request and the written answer.
    let answer: PlainAnswer | Promise<PlainAnswer>;
    try {
      answer =
        resolved.target === null
          ? deps.errorAnswer(resolved.failure)
          : resolved.handler.answer(request, resolved.target);
    } catch (error) {
      answer = deps.errorAnswer(error);
    }
    if (answer instanceof Promise) {
      answer.then(
        (settled) => respond(deps, send, request, outgoing, settled, head),
        (error: unknown) => respond(deps, send, request, outgoing, deps.errorAnswer(error), head),
      );
    } else {
      respond(deps, send, request, outgoing, answer, head);
    }
    return true;
  };
}

/**
 * The router's own matching: the first entry for this method (or ALL) whose pattern matches; null when
 * that entry is not a snapshot route, or the path is one the router must normalise first.
 */
function resolveUrl(routes: readonly RouteEntry[], method: string, url: string): ResolvedUrl | null {
  const mark = url.indexOf('?');
  const pathname = mark === -1 ? url : url.slice(0, mark);
  if (!PLAIN_PATH.test(pathname) || pathname.includes('//') || pathname.includes('/.') || url.includes('#'))
    return null;
  for (const entry of routes) {
    if (entry[0] !== method && entry[0] !== 'ALL') continue;
    const match = pathname.match(entry[1]);
    if (!match) continue;
    const handler = snapshotHandlerOf(entry);
    if (!handler) return null;
    // Shared by every request for this URL: frozen, so no handler can change what the next one reads.
    const params = Object.freeze(match.groups ?? {});
    const query = Object.freeze(mark === -1 ? {} : queryOf(url.slice(mark + 1)));
    try {
      return {
        handler,
        route: entry[3],
        params,
        query,
        target: handler.target(params, query),
        failure: null,
      };
    } catch (failure) {
      return { handler, route: entry[3], params, query, target: null, failure };
    }
  }
  return null;
}

type Send = (outgoing: NodeResponseLike, answer: PlainAnswer, head: boolean) => void;

/** Ends the request (`finish`) and sends its answer, or the error answer when finishing fails. */
function respond(
  deps: FastPathDeps,
  send: Send,
  request: GatewayRequest,
  outgoing: NodeResponseLike,
  answer: PlainAnswer,
  head: boolean,
): void {
  try {
    const finished = deps.finish(request, answer.status, answer.headers);
    if (finished) {
      finished.then(
        () => send(outgoing, answer, head),
        (error: unknown) => writeError(deps, outgoing, error, head),
      );
      return;
    }
    send(outgoing, answer, head);
  } catch (error) {
    writeError(deps, outgoing, error, head);
  }
}

/** Only a failure in finish or write lands here; answer if nothing was sent yet. */
function writeError(deps: FastPathDeps, outgoing: NodeResponseLike, error: unknown, head: boolean): void {
  try {
    write(outgoing, deps.errorAnswer(error), head);
  } catch {
    // The connection is gone, or the answer was already sent; nothing to answer.
  }
}

function write(outgoing: NodeResponseLike, answer: PlainAnswer, head: boolean): void {
  const { body, headers } = answer;
  if (body !== null && headers['content-length'] === undefined) {
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  }
  outgoing.writeHead(answer.status, headers);
  if (head || body === null) outgoing.end();
  else outgoing.end(body);
}

/**
 * itty-router's query object, built by its rule exactly (an empty first value is replaced, not
 * joined, by a repeated name), so both paths parse a query string alike.
 */
function queryOf(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  // Without `%` or `+` nothing needs decoding: split as URLSearchParams splits (empty pairs skipped,
  // a name without `=` has the value ''), without building one per request.
  if (!ENCODED.test(search)) {
    for (const pair of search.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      if (eq === -1) addQueryValue(query, pair, '');
      else addQueryValue(query, pair.slice(0, eq), pair.slice(eq + 1));
    }
    return query;
  }
  for (const [name, value] of new URLSearchParams(search)) addQueryValue(query, name, value);
  return query;
}

/** A module-level function, not a closure per request (tsx names each closure as it is made). */
function addQueryValue(query: Record<string, string | string[]>, name: string, value: string): void {
  const seen = query[name];
  query[name] = seen ? ([] as string[]).concat(seen, value) : value;
}

const ENCODED = /[%+]/;

/** Node's parsed headers (names lower-cased; repeated values joined as Node joins them). */
export class NodeHeaders implements HeaderSource {
  constructor(private readonly headers: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? null);
  }
}
