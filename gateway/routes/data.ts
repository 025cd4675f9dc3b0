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
import { addSnapshotRoutes, type SnapshotRoute } from './snapshot-routes.js';

const SUBNET_NOT_FOUND = 'Subnet not found';

/**
 * The data interface's burn snapshots (`/api/v1/subnets...`). Each route parses its parameters into the
 * published object it serves and the access it needs; `addSnapshotRoutes` admits and serves (on the router
 * and the fast path).
 */
export function dataRoutes(
  router: RouterType<GatewayRequest>,
  deps: { burns: SnapshotCache; guard: AccessGuard; now: () => Date },
): void {
  const { burns } = deps;
  const routes: SnapshotRoute[] = [
    {
      pattern: '/api/v1/subnets',
      target: () => ({
        need: 'public',
        what: 'The subnet list',
        cache: burns,
        path: snapshotPaths.subnetList(),
        missing: SUBNET_NOT_FOUND,
      }),
    },
    {
      pattern: '/api/v1/subnets/:netuid',
      target(pathParams) {
        const params = new ParamReader();
        const netuid = params.required('path', 'netuid', pathParams['netuid']);
        params.done();
        return {
          need: 'public',
          what: 'Subnet detail',
          cache: burns,
          path: snapshotPaths.subnetDetail(netuid!),
          missing: SUBNET_NOT_FOUND,
        };
      },
    },
    {
      pattern: '/api/v1/subnets/:netuid/history',
      target(pathParams, query) {
        const params = new ParamReader();
        const netuid = params.required('path', 'netuid', pathParams['netuid']);
        const days = params.oneOf('query', 'days', query['days'], HISTORY_WINDOWS, DEFAULT_HISTORY_DAYS);
        params.done();
        return {
          need: PUBLIC_HISTORY_WINDOWS.includes(days) ? 'public' : 'paid',
          what: 'A history window of 90 or 365 days',
          cache: burns,
          path: snapshotPaths.history(netuid!, days),
          missing: SUBNET_NOT_FOUND,
        };
      },
    },
    {
      pattern: '/api/v1/subnets/:netuid/history.csv',
      target(pathParams, query) {
        const params = new ParamReader();
        const netuid = params.required('path', 'netuid', pathParams['netuid']);
        const days = params.oneOf('query', 'days', query['days'], HISTORY_WINDOWS, DEFAULT_HISTORY_CSV_DAYS);
        params.done();
        return {
          need: 'paid',
          what: 'CSV export',
          cache: burns,
          path: snapshotPaths.historyCsv(netuid!, days),
          missing: SUBNET_NOT_FOUND,
          headers: { 'content-disposition': `attachment; filename="subnet-${netuid}-history-${days}d.csv"` },
        };
      },
    },
  ];
  addSnapshotRoutes(router, routes, deps);
}
