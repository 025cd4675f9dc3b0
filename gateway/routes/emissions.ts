import type { RouterType } from 'itty-router';
import { emissionPaths } from '../../pipeline/contract/snapshot-paths.js';
import {
  DEFAULT_EMISSION_DAYS,
  EMISSION_EVENTS_PAGE_SIZE,
  EMISSION_WINDOWS,
  type EmissionWindow,
  PUBLIC_EMISSION_WINDOWS,
} from '../../pipeline/contract/windows.js';
import type { AccessGuard } from '../access-guard.js';
import type { AccessNeed } from '../auth/access.js';
import { HttpError } from '../http/http-errors.js';
import { ParamReader } from '../http/params.js';
import type { GatewayRequest } from '../request-context.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';
import { EmissionEventLists, eventsPage } from './emission-events-page.js';
import { cachedResponse, requirePublished } from './snapshot-response.js';
import { addSnapshotRoutes, type RouteQuery, type SnapshotRoute } from './snapshot-routes.js';

const SUBNET_NOT_FOUND = 'Subnet not found';
const PAID_WINDOWS = 'An emissions window of 90 or 365 days';

/** The `days` query parameter of the emissions windows (7, 90, 365; default 7). */
function windowDays(params: ParamReader, query: RouteQuery): EmissionWindow {
  return params.oneOf('query', 'days', query['days'], EMISSION_WINDOWS, DEFAULT_EMISSION_DAYS);
}

/** 7 days are public; longer windows need a key or a session. */
function windowNeed(days: number): AccessNeed {
  return PUBLIC_EMISSION_WINDOWS.includes(days) ? 'public' : 'paid';
}

/**
 * The emissions endpoints (`/api/v1/emissions...`): the watch's published run. The status and the history
 * windows are published objects, served by `addSnapshotRoutes` (on the router and the fast path alike); the
 * events list is paged per request, so it is a router handler that parses, admits and serves.
 */
export function emissionRoutes(
  router: RouterType<GatewayRequest>,
  deps: { emissions: SnapshotCache; guard: AccessGuard; now: () => Date },
): void {
  const { emissions, guard, now } = deps;
  const lists = new EmissionEventLists(emissions);
  const snapshots: SnapshotRoute[] = [
    {
      pattern: '/api/v1/emissions',
      target: () => ({
        need: 'public',
        what: 'The emissions status',
        cache: emissions,
        path: emissionPaths.status(),
        missing: 'No emissions status',
      }),
    },
    {
      pattern: '/api/v1/emissions/:netuid/history',
      target(pathParams, query) {
        const params = new ParamReader();
        const netuid = params.required('path', 'netuid', pathParams['netuid']);
        const days = windowDays(params, query);
        params.done();
        return {
          need: windowNeed(days),
          what: PAID_WINDOWS,
          cache: emissions,
          path: emissionPaths.history(netuid!, days),
          missing: SUBNET_NOT_FOUND,
        };
      },
    },
  ];
  addSnapshotRoutes(router, snapshots, deps);

  router.get('/api/v1/emissions/events', async (request) => {
    const params = new ParamReader();
    const netuid = params.nonNegative('query', 'netuid', request.query['netuid']);
    const days = windowDays(params, request.query as RouteQuery);
    const beforeBlock = params.nonNegative('query', 'before_block', request.query['before_block']);
    params.done();
    await guard.admit(request, windowNeed(days), PAID_WINDOWS);
    requirePublished(emissions);
    const nowMs = now().getTime();
    const list = lists.get(emissionPaths.events(days, netuid ?? null), nowMs);
    if (!list) throw new HttpError(404, SUBNET_NOT_FOUND);
    const freshness = emissions.freshnessAt(nowMs) ?? list.document.freshness;
    const etag = `"${list.sha256}-${beforeBlock ?? 'first'}-${freshness}"`;
    return cachedResponse(
      request,
      etag,
      () => {
        const page = eventsPage(list.document.events, beforeBlock, EMISSION_EVENTS_PAGE_SIZE);
        return JSON.stringify({
          ...list.document,
          freshness,
          page_size: EMISSION_EVENTS_PAGE_SIZE,
          next_before_block: page.nextBeforeBlock,
          events: page.events,
        });
      },
      'application/json; charset=utf-8',
      emissions.publicCacheControl(nowMs),
    );
  });
}
