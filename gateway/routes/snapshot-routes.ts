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
import type { GatewayRequest } from '../request-context.js';
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
  /** Parses path and query parameters (throwing `ValidationFailure`, a 422) into the target. */
  target(params: Record<string, string | undefined>, query: RouteQuery): SnapshotTarget;
}

/**
 * Answers one matched snapshot request: parse, admit (throws 401/403/429), serve. A request admitted
 * without waiting (a public caller, see `AccessGuard.admit`) is answered without a promise, and a
 * refusal then is thrown, not returned as a rejected promise: callers handle both.
 */
export type SnapshotAnswerer = (request: GatewayRequest) => PlainAnswer | Promise<PlainAnswer>;

const answerers = new WeakMap<object, SnapshotAnswerer>();

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
        deps.now().getTime(),
        target.missing,
        target.headers,
      );
    const answer: SnapshotAnswerer = (request) => {
      const target = route.target(request.params, request.query as RouteQuery);
      const admitted = deps.guard.admit(request, target.need, target.what);
      return admitted ? admitted.then(() => serve(request, target)) : serve(request, target);
    };
    const handler = async (request: GatewayRequest) => toResponse(await answer(request));
    answerers.set(handler, answer);
    router.get(route.pattern, handler);
  }
}

/** The snapshot answerer behind a route table entry, or undefined when the entry is any other route. */
export function snapshotAnswererOf(entry: RouteEntry): SnapshotAnswerer | undefined {
  const handlers = entry[2];
  return handlers.length === 1 ? answerers.get(handlers[0] as object) : undefined;
}
