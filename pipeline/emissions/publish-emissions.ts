/**
 * Publishes the emissions run under its own manifest (`emissions/manifest.json`), all-or-nothing. The
 * watch is the only writer of that manifest, as `sbm publish` is of the burn manifest, so the two never
 * race and a sample never republishes the burn snapshots.
 */
import { EMISSIONS_NAMESPACE } from '../contract/snapshot-paths.js';
import { type Manifest, type ObjectStore, publishRun } from '../store/index.js';
import { formatUtcDay } from '../time/utc-day.js';
import { buildEmissionsRun } from './build-emissions-run.js';
import type { EmissionFacts } from './emission-facts.js';

export interface PublishEmissionsOptions {
  store: ObjectStore;
  baseUrl: string;
  keepRuns: number;
  now: Date;
}

export async function publishEmissions(
  facts: EmissionFacts,
  options: PublishEmissionsOptions,
): Promise<{ manifest: Manifest; objects: number }> {
  const objects = buildEmissionsRun(facts, {
    nowMs: options.now.getTime(),
    methodUrl: `${options.baseUrl}/api/v1/method`,
  });
  const { manifest } = await publishRun(options.store, {
    prefix: EMISSIONS_NAMESPACE,
    objects,
    now: options.now,
    keepRuns: options.keepRuns,
    meta: {
      // The gateway's freshness rule reads `checked_at`; `sbm publish` reads `latest_event_date`.
      checked_at: new Date(facts.latest.checkedAtMs).toISOString(),
      latest_event_date: facts.latestEventAtMs === null ? null : formatUtcDay(facts.latestEventAtMs),
      observed_block: facts.latest.block,
    },
  });
  return { manifest, objects: objects.length };
}
