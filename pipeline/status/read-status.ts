/** `sbm status`: the warehouse and the store read side by side, and what of it needs attention. */
import type { ObjectStore } from '../store/index.js';
import { attentionOf } from './attention.js';
import { readEmissionsStatus, readPublishedStatus } from './published-status.js';
import type { StatusReport } from './status-report.js';
import { readWarehouseStatus } from './warehouse-status.js';

export interface ReadStatusOptions {
  warehousePath: string;
  store: ObjectStore;
  now: Date;
  /** How many of the latest collection runs to list (default 5). */
  runs?: number;
  /** How long to wait for a writer to release the warehouse (default 3 s). */
  lockWaitMs?: number;
}

export async function readStatus(options: ReadStatusOptions): Promise<StatusReport> {
  const nowMs = options.now.getTime();
  const [warehouse, published, emissions] = await Promise.all([
    readWarehouseStatus(options.warehousePath, {
      runs: options.runs ?? 5,
      lockWaitMs: options.lockWaitMs ?? 3_000,
    }),
    readPublishedStatus(options.store, nowMs),
    readEmissionsStatus(options.store, nowMs),
  ]);
  const attention = attentionOf(warehouse, published, emissions);
  return {
    checked_at: options.now.toISOString(),
    ok: attention.length === 0,
    attention,
    warehouse,
    published,
    emissions,
  };
}
