/**
 * Routes that answer with a published object: the public and keyed `/api/v1` reads. Each is declared
 * once, as data, and registered in the itty-router table like any route; its handler is also recorded
 * here, so the fast path (`gateway/fast-path.ts`), walking the same table, knows which matches it may
 * answer itself. A route is therefore reachable on both paths or on neither, and both run the same
 * parsing, admission and answer code.
 */
import type { RouteEntry, RouterType } from 'itty-router';
import type { AccessGuard } from '../access-guard.js';
import type { AccessNeed } from '../auth/access.js';
import { type GatewayRequest, requestTime } from '../request-context.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';
import { type PlainAnswer, snapshotAnswer, toResponse } from './snapshot-response.js';

/** What a snapshot request asks for, once its parameters are parsed. */
export interface SnapshotTarget {
  need: AccessNeed;
  /** Names the resource in a 401/403 detail. */
  what: string;
  cache: SnapshotCache;
  /** The object's path inside the published run. */
  path: string;
  /** The 404 detail when the run has no such object. */
  missing: string;
  headers?: Record<string, string>;
}

export type RouteQuery = Record<string, string | string[] | undefined>;

export interface SnapshotRoute {
  /** An itty-router pattern, e.g. `/api/v1/subnets/:netuid/history`. */
  pattern: string;
  /**
   * Parses path and query parameters (throwing `ValidationFailure`, a 422) into the target. It must
   * depend on nothing else (no clock, no state): the fast path keeps the target per URL.
   */
  target(params: Record<string, string | undefined>, query: RouteQuery): SnapshotTarget;
}

/**
 * A matched snapshot route's two steps, which both paths run: `target` parses the request's parameters
 * (a pure function of them, so the fast path may keep its result per URL), `answer` admits the caller
 * (throws 401/403/429) and serves. A request admitted without waiting (see `AccessGuard.admit`) is
 * answered without a promise, and a refusal then is thrown, not returned as a rejected promise:
 * callers handle both.
 */
export interface SnapshotHandler {
  target(params: Record<string, string | undefined>, query: RouteQuery): SnapshotTarget;
  answer(request: GatewayRequest, target: SnapshotTarget): PlainAnswer | Promise<PlainAnswer>;
}

const handlers = new WeakMap<object, SnapshotHandler>();

export function addSnapshotRoutes(
  router: RouterType<GatewayRequest>,
  routes: readonly SnapshotRoute[],
  deps: { guard: AccessGuard; now: () => Date },
): void {
  for (const route of routes) {
    const serve = (request: GatewayRequest, target: SnapshotTarget): PlainAnswer =>
      snapshotAnswer(
        target.cache,
        request,
        target.path,
        requestTime(request, deps.now).getTime(),
        target.missing,
        target.headers,
      );
    const snapshot: SnapshotHandler = {
      target: (params, query) => route.target(params, query),
      answer(request, target) {
        const admitted = deps.guard.admit(request, target.need, target.what);
        return admitted ? admitted.then(() => serve(request, target)) : serve(request, target);
      },
    };
    const handler = async (request: GatewayRequest) =>
      toResponse(
        await snapshot.answer(request, snapshot.target(request.params, request.query as RouteQuery)),
      );
    handlers.set(handler, snapshot);
    router.get(route.pattern, handler);
  }
}

/** The snapshot handler behind a route table entry, or undefined when the entry is any other route. */
export function snapshotHandlerOf(entry: RouteEntry): SnapshotHandler | undefined {
  const registered = entry[2];
  return registered.length === 1 ? handlers.get(registered[0] as object) : undefined;
}
