import type { RouterType } from 'itty-router';
import { snapshotPaths } from '../../pipeline/contract/snapshot-paths.js';
import {
  DEFAULT_HISTORY_CSV_DAYS,
  DEFAULT_HISTORY_DAYS,
  HISTORY_WINDOWS,
  PUBLIC_HISTORY_WINDOWS,
} from '../../pipeline/contract/windows.js';
import type { AccessGuard } from '../access-guard.js';
import { ParamReader } from '../http/params.js';
import type { GatewayRequest } from '../request-context.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';
import { snapshotResponse } from './snapshot-response.js';

const SUBNET_NOT_FOUND = 'Subnet not found';

/** Spec 4.1: the burn snapshots. Each handler parses, admits, and serves published bytes. */
export function dataRoutes(
  router: RouterType<GatewayRequest>,
  deps: { burns: SnapshotCache; guard: AccessGuard; now: () => Date },
): void {
  const { burns, guard, now } = deps;

  router.get('/api/v1/subnets', async (request) => {
    await guard.admit(request, 'public', 'The subnet list');
    return snapshotResponse(burns, request, snapshotPaths.subnetList(), now().getTime(), SUBNET_NOT_FOUND);
  });

  router.get('/api/v1/subnets/:netuid', async (request) => {
    const params = new ParamReader();
    const netuid = params.required('path', 'netuid', request.params['netuid']);
    params.done();
    await guard.admit(request, 'public', 'Subnet detail');
    return snapshotResponse(
      burns,
      request,
      snapshotPaths.subnetDetail(netuid!),
      now().getTime(),
      SUBNET_NOT_FOUND,
    );
  });

  router.get('/api/v1/subnets/:netuid/history', async (request) => {
    const params = new ParamReader();
    const netuid = params.required('path', 'netuid', request.params['netuid']);
    const days = params.oneOf('query', 'days', request.query['days'], HISTORY_WINDOWS, DEFAULT_HISTORY_DAYS);
    params.done();
    const need = PUBLIC_HISTORY_WINDOWS.includes(days) ? 'public' : 'paid';
    await guard.admit(request, need, 'A history window of 90 or 365 days');
    return snapshotResponse(
      burns,
      request,
      snapshotPaths.history(netuid!, days),
      now().getTime(),
      SUBNET_NOT_FOUND,
    );
  });

  router.get('/api/v1/subnets/:netuid/history.csv', async (request) => {
    const params = new ParamReader();
    const netuid = params.required('path', 'netuid', request.params['netuid']);
    const days = params.oneOf(
      'query',
      'days',
      request.query['days'],
      HISTORY_WINDOWS,
      DEFAULT_HISTORY_CSV_DAYS,
    );
    params.done();
    await guard.admit(request, 'paid', 'CSV export');
    return snapshotResponse(
      burns,
      request,
      snapshotPaths.historyCsv(netuid!, days),
      now().getTime(),
      SUBNET_NOT_FOUND,
      { 'content-disposition': `attachment; filename="subnet-${netuid}-history-${days}d.csv"` },
    );
  });
}
