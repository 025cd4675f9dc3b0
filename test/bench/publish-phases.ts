/**
 * Where publishing time goes: the steps of `publishSnapshots` timed one by one with the same pipeline
 * functions it calls (read the warehouse, build and validate, render bytes, write the run). The sum is
 * close to, not exactly, one publish: the manifest read and pruning are left out as negligible.
 */
import {
  buildSnapshots,
  DEFAULT_VALUATION,
  LONGEST_WINDOW_DAYS,
} from '../../pipeline/snapshots/build-snapshots.js';
import { renderRun } from '../../pipeline/snapshots/render-run.js';
import { newRunVersion, type ObjectStore, publishRun } from '../../pipeline/store/index.js';
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';
import { readSnapshotFacts } from '../../pipeline/warehouse/snapshot-queries.js';

export interface PublishPhases {
  readMs: number;
  buildMs: number;
  renderMs: number;
  writeMs: number;
}

export async function timePublishPhases(
  warehousePath: string,
  store: ObjectStore,
  now: Date,
): Promise<PublishPhases> {
  let mark = performance.now();
  const lap = () => {
    const previous = mark;
    mark = performance.now();
    return mark - previous;
  };
  const warehouse = await openWarehouse(warehousePath, { readOnly: true });
  let facts: Awaited<ReturnType<typeof readSnapshotFacts>>;
  try {
    facts = await readSnapshotFacts(warehouse, LONGEST_WINDOW_DAYS);
  } finally {
    warehouse.close();
  }
  const readMs = lap();
  const version = newRunVersion(now);
  const { documents, csv } = buildSnapshots(facts, {
    version,
    nowMs: now.getTime(),
    methodUrl: 'https://sbm.example/api/v1/method',
    valuation: DEFAULT_VALUATION,
    alertsDate: null,
  });
  const buildMs = lap();
  const objects = renderRun(documents, csv);
  const renderMs = lap();
  await publishRun(store, { prefix: '', version, now, objects, keepRuns: 3 });
  const writeMs = lap();
  return { readMs, buildMs, renderMs, writeMs };
}
