import { EMISSIONS_NAMESPACE } from '../contract/snapshot-paths.js';
import { newRunVersion, type ObjectStore, publishRun, readManifest } from '../store/index.js';
import { openWarehouse } from '../warehouse/open-warehouse.js';
import { readSnapshotFacts } from '../warehouse/snapshot-queries.js';
import { buildSnapshots, DEFAULT_VALUATION, LONGEST_WINDOW_DAYS } from './build-snapshots.js';
import { renderRun } from './render-run.js';
import { buildTaxObjects, type TaxObjectsSummary } from './tax-objects.js';

export interface PublishSnapshotsOptions {
  warehousePath: string;
  store: ObjectStore;
  baseUrl: string;
  keepRuns: number;
  now?: () => Date;
}

export interface PublishSummary {
  version: string;
  as_of: string;
  burns_checked_at: string | null;
  subnets: number;
  /** Coldkeys with staking events in the run's `tax/coldkeys/` shards, and those shards. */
  tax: { coldkeys: number; shards: number };
  objects: number;
  bytes: number;
  pruned: string[];
  duration_ms: number;
}

/**
 * `sbm publish`: reads the warehouse (read-only, held only while reading), builds and validates every
 * snapshot and the tax objects (`tax/`: yields, fiat prices, coldkey shards), and publishes them as one
 * run. Any failure before the manifest switch leaves the last good run served.
 */
export async function publishSnapshots(options: PublishSnapshotsOptions): Promise<PublishSummary> {
  const clock = options.now ?? (() => new Date());
  const started = clock();
  const warehouse = await openWarehouse(options.warehousePath, { readOnly: true });
  let facts: Awaited<ReturnType<typeof readSnapshotFacts>>;
  let tax: TaxObjectsSummary;
  try {
    facts = await readSnapshotFacts(warehouse, LONGEST_WINDOW_DAYS);
    tax = await buildTaxObjects(warehouse, started);
  } finally {
    warehouse.close();
  }
  const emissions = await readManifest(options.store, EMISSIONS_NAMESPACE).catch(() => null);
  const alertsDate =
    typeof emissions?.['latest_event_date'] === 'string' ? emissions['latest_event_date'] : null;
  const version = newRunVersion(started);
  const { documents, csv } = buildSnapshots(facts, {
    version,
    nowMs: started.getTime(),
    methodUrl: `${options.baseUrl}/api/v1/method`,
    valuation: DEFAULT_VALUATION,
    alertsDate,
  });
  const objects = [...renderRun(documents, csv), ...tax.objects];
  const asOf = new Date(facts.asOfMs).toISOString();
  const burnsCheckedAt =
    facts.burnsCheckedAtMs === null ? null : new Date(facts.burnsCheckedAtMs).toISOString();
  const { manifest, pruned } = await publishRun(options.store, {
    prefix: '',
    version,
    now: started,
    objects,
    keepRuns: options.keepRuns,
    meta: { as_of: asOf, burns_checked_at: burnsCheckedAt, panel_date: facts.panelDay },
  });
  return {
    version: manifest.version,
    as_of: asOf,
    burns_checked_at: burnsCheckedAt,
    subnets: facts.subnets.length,
    tax: { coldkeys: tax.coldkeys, shards: tax.shards },
    objects: manifest.objects.length,
    bytes: manifest.objects.reduce((sum, entry) => sum + entry.bytes, 0),
    pruned,
    duration_ms: clock().getTime() - started.getTime(),
  };
}
