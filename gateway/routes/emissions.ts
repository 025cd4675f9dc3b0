import type { RouterType } from 'itty-router';
import { emissionPaths } from '../../pipeline/contract/snapshot-paths.js';
import {
  DEFAULT_EMISSION_DAYS,
  EMISSION_EVENTS_PAGE_SIZE,
  EMISSION_WINDOWS,
  PUBLIC_EMISSION_WINDOWS,
} from '../../pipeline/contract/windows.js';
import type { AccessGuard } from '../access-guard.js';
import { HttpError } from '../http/http-errors.js';
import { ParamReader } from '../http/params.js';
import type { GatewayRequest } from '../request-context.js';
import { emissionsFreshnessRule } from '../snapshots/freshness-rules.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';
import { EmissionEventLists, eventsPage } from './emission-events-page.js';
import { snapshotResponse } from './snapshot-response.js';

const SUBNET_NOT_FOUND = 'Subnet not found';
const PAID_WINDOWS = 'Emissions windows of 90 and 365 days';
/** As for the snapshots: the data changes at most every five minutes. */
const MAX_AGE_SECONDS = 300;

/** Spec 4.2: the emissions watch's published run. Handlers parse, admit, and serve. */
export function emissionRoutes(
  router: RouterType<GatewayRequest>,
  deps: { emissions: SnapshotCache; guard: AccessGuard; now: () => Date },
): void {
  const { emissions, guard, now } = deps;
  const lists = new EmissionEventLists(emissions);

  router.get('/api/v1/emissions', async (request) => {
    await guard.admit(request, 'public', 'The emissions status');
    return snapshotResponse(
      emissions,
      request,
      emissionPaths.status(),
      now().getTime(),
      'No emissions status',
    );
  });

  router.get('/api/v1/emissions/events', async (request) => {
    const params = new ParamReader();
    const netuid = params.nonNegative('query', 'netuid', request.query['netuid']);
    const days = params.oneOf(
      'query',
      'days',
      request.query['days'],
      EMISSION_WINDOWS,
      DEFAULT_EMISSION_DAYS,
    );
    const beforeBlock = params.nonNegative('query', 'before_block', request.query['before_block']);
    params.done();
    await guard.admit(request, PUBLIC_EMISSION_WINDOWS.includes(days) ? 'public' : 'paid', PAID_WINDOWS);
    if (!emissions.manifest)
      throw new HttpError(503, 'No data has been published yet; try again later.', { 'Retry-After': '60' });
    const nowMs = now().getTime();
    const list = lists.get(emissionPaths.events(days, netuid ?? null), nowMs);
    if (!list) throw new HttpError(404, SUBNET_NOT_FOUND);
    const freshness = emissionsFreshnessRule(emissions.manifest, nowMs) ?? list.document.freshness;
    const page = eventsPage(list.document.events, beforeBlock, EMISSION_EVENTS_PAGE_SIZE);
    const headers = {
      etag: `"${list.sha256}-${beforeBlock ?? 'first'}-${freshness}"`,
      'cache-control': `${request.ctx.credential?.kind === 'public' ? 'public' : 'private'}, max-age=${MAX_AGE_SECONDS}`,
      vary: 'Authorization, Cookie',
    };
    const conditional = request.headers.get('if-none-match');
    if (conditional?.split(',').some((tag) => tag.trim() === headers.etag || tag.trim() === '*')) {
      return new Response(null, { status: 304, headers });
    }
    const body = {
      ...list.document,
      freshness,
      page_size: EMISSION_EVENTS_PAGE_SIZE,
      next_before_block: page.nextBeforeBlock,
      events: page.events,
    };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    });
  });

  router.get('/api/v1/emissions/:netuid/history', async (request) => {
    const params = new ParamReader();
    const netuid = params.required('path', 'netuid', request.params['netuid']);
    const days = params.oneOf(
      'query',
      'days',
      request.query['days'],
      EMISSION_WINDOWS,
      DEFAULT_EMISSION_DAYS,
    );
    params.done();
    await guard.admit(request, PUBLIC_EMISSION_WINDOWS.includes(days) ? 'public' : 'paid', PAID_WINDOWS);
    return snapshotResponse(
      emissions,
      request,
      emissionPaths.history(netuid!, days),
      now().getTime(),
      SUBNET_NOT_FOUND,
    );
  });
}
