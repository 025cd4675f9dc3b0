import { EMISSIONS_NAMESPACE } from '../contract/snapshot-paths.js';
import { TaxCalendar, taxPaths } from '../contract/tax-published.js';
import { newRunVersion, type ObjectStore, type RunWriter, readManifest, startRun } from '../store/index.js';
import { openWarehouse } from '../warehouse/open-warehouse.js';
import { readSnapshotFacts } from '../warehouse/snapshot-queries.js';
import { buildSnapshots, DEFAULT_VALUATION, LONGEST_WINDOW_DAYS } from './build-snapshots.js';
import { renderRun } from './render-run.js';
import { buildTaxCalendar, type CalendarChain, readCollectedUtcDays } from './tax-calendar.js';
import { encodeTaxObject, type TaxObjectsSummary, writeTaxObjects } from './tax-objects.js';

/**
 * DuckDB's memory for the publish's read-only session. Its default is 80 % of the machine's RAM, and the
 * coldkey shards' query sorts every staking event (mainnet: millions of rows) by shard: capped, DuckDB
 * sorts in pieces spilled to `<warehouse>.tmp` beside the file (removed at close) instead of holding them.
 * 256 MB was too little for a 2.5-million-row warehouse (an operator that cannot spill ran out).
 */
const WAREHOUSE_MEMORY_LIMIT = '1GB';

export interface PublishSnapshotsOptions {
  warehousePath: string;
  store: ObjectStore;
  baseUrl: string;
  keepRuns: number;
  now?: () => Date;
  /**
   * Store the served objects' brotli and gzip forms beside them (default true). False only to measure
   * what precompression costs (the publish bench's baseline, in the same run).
   */
  precompress?: boolean;
  /**
   * The node `tax/calendar.json` reads summer UK day ends from (`sbm daily` passes its chain). Without it,
   * summer days not in the previous run's calendar are left out.
   */
  chain?: CalendarChain;
  /** Where a calendar warning goes (no chain reachable); the run is still published. */
  warn?: (message: string) => void;
}

export interface PublishSummary {
  version: string;
  as_of: string;
  burns_checked_at: string | null;
  subnets: number;
  /** Coldkeys with staking events in the run's `tax/coldkeys/` shards, and those shards. */
  /** `calendar_days`: UK days in `tax/calendar.json`. */
  tax: { coldkeys: number; shards: number; calendar_days: number };
  objects: number;
  bytes: number;
  pruned: string[];
  duration_ms: number;
}

/**
 * `sbm publish`: reads the warehouse (read-only, held only while reading), builds and validates every
 * snapshot and the tax objects (`tax/`: yields, fiat prices, coldkey shards), and publishes them as one
 * run. Objects are written to the run's prefix as they are built (the coldkey shards while their events
 * stream), so memory does not grow with the history; the manifest is written last. Any failure before
 * that switch leaves the last good run served, and what was written of this run is listed nowhere (a
 * later run prunes it).
 */
export async function publishSnapshots(options: PublishSnapshotsOptions): Promise<PublishSummary> {
  const clock = options.now ?? (() => new Date());
  const started = clock();
  const version = newRunVersion(started);
  const run = startRun(options.store, { prefix: '', version, now: started, keepRuns: options.keepRuns });
  try {
    return await publishInto(run, options, started, clock);
  } catch (error) {
    await run.abandon();
    throw error;
  }
}

async function publishInto(
  run: RunWriter,
  options: PublishSnapshotsOptions,
  started: Date,
  clock: () => Date,
): Promise<PublishSummary> {
  const warehouse = await openWarehouse(options.warehousePath, { readOnly: true });
  let facts: Awaited<ReturnType<typeof readSnapshotFacts>>;
  let tax: TaxObjectsSummary;
  let collectedDays: Awaited<ReturnType<typeof readCollectedUtcDays>>;
  try {
    await warehouse.connection.run(`SET memory_limit = '${WAREHOUSE_MEMORY_LIMIT}'`);
    facts = await readSnapshotFacts(warehouse, LONGEST_WINDOW_DAYS);
    // The shards are written while their events stream, so this read-only session also lasts the shard
    // writes (the run writer lets the stream run on while fewer than its concurrency are in flight, so
    // only a store slower than the reading stretches it). Reading and encoding the rows dominate, and they
    // took this session before too, when every shard was held until the end. A writer waits for the file
    // (`collect` up to 30 s per day's write; see docs/analysts.md, "Reading while the pipeline writes"), and
    // `daily` runs its steps one after the other. Holding the bytes instead would hold the whole history.
    tax = await writeTaxObjects(warehouse, started, (object) => run.add(object));
    collectedDays = await readCollectedUtcDays(warehouse);
  } finally {
    warehouse.close();
  }
  // After the warehouse is let go: the calendar may read the chain.
  const calendar = await buildTaxCalendar(collectedDays, options.store, options.chain ?? null);
  if (calendar.warning) options.warn?.(calendar.warning);
  const emissions = await readManifest(options.store, EMISSIONS_NAMESPACE).catch(() => null);
  const alertsDate =
    typeof emissions?.['latest_event_date'] === 'string' ? emissions['latest_event_date'] : null;
  const { documents, csv } = buildSnapshots(facts, {
    version: run.version,
    nowMs: started.getTime(),
    methodUrl: `${options.baseUrl}/api/v1/method`,
    valuation: DEFAULT_VALUATION,
    alertsDate,
  });
  const rendered = renderRun(documents, csv);
  const objects = [
    ...(options.precompress === false ? rendered.map((o) => ({ ...o, precompress: false })) : rendered),
    encodeTaxObject(taxPaths.calendar(), TaxCalendar, calendar.calendar),
  ];
  for (const object of objects) await run.add(object);
  const asOf = new Date(facts.asOfMs).toISOString();
  const burnsCheckedAt =
    facts.burnsCheckedAtMs === null ? null : new Date(facts.burnsCheckedAtMs).toISOString();
  const { manifest, pruned } = await run.commit({
    as_of: asOf,
    burns_checked_at: burnsCheckedAt,
    panel_date: facts.panelDay,
  });
  return {
    version: manifest.version,
    as_of: asOf,
    burns_checked_at: burnsCheckedAt,
    subnets: facts.subnets.length,
    tax: { coldkeys: tax.coldkeys, shards: tax.shards, calendar_days: calendar.calendar.days.length },
    objects: manifest.objects.length,
    bytes: manifest.objects.reduce((sum, entry) => sum + entry.bytes, 0),
    pruned,
    duration_ms: clock().getTime() - started.getTime(),
  };
}
