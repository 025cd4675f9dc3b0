/**
 * Everything one emissions publication needs, read from the emissions database in a few queries. The
 * reductions (first sample per hour or day, gaps, latest event per subnet) run in DuckDB so that a year
 * of five-minute samples never travels into JS.
 */

import { DAY_MS, HOUR_MS } from '../time/utc-day.js';
import { gapThresholdMs, type SampleGap } from './coverage.js';
import type { EmissionStatus } from './emission-status.js';
import type { EmissionsDb } from './emissions-db.js';
import type { EmissionEvent, EventKind } from './transition-rule.js';

export interface SampleRow {
  netuid: number;
  registeredAt: number;
  name: string;
  block: number;
  timeMs: number;
  enabled: boolean | null;
  taoInRao: bigint;
  alphaInRao: bigint;
  alphaOutRao: bigint;
  status: EmissionStatus;
}

export interface EmissionFacts {
  latest: { block: number; timeMs: number; checkedAtMs: number };
  collectionBeganMs: number;
  /** Gaps overlapping the longest window, oldest first. */
  gaps: SampleGap[];
  /** Every subnet at the latest sample. */
  current: SampleRow[];
  /** Events detected within the longest window, newest first: (to_block desc, netuid desc). */
  events: EmissionEvent[];
  /** Detection time of the newest event ever, for the subnet list's `alerts_date`. */
  latestEventAtMs: number | null;
  /** Latest event of each subnet, keyed `netuid/registered_at`. */
  latestEventBySubnet: Map<string, EmissionEvent>;
  /** First sample of each UTC hour of the short window, per subnet, oldest first. */
  hourly: SampleRow[];
  /** First sample of each UTC day of the longest window, per subnet, oldest first. */
  daily: SampleRow[];
}

const SAMPLE_COLUMNS = `netuid, registered_at, name, block, block_time_ms, emission_enabled,
  tao_in_rao, alpha_in_rao, alpha_out_rao, status`;

/** Null when nothing has been sampled yet. */
export async function readEmissionFacts(
  db: EmissionsDb,
  options: { intervalMs: number; shortWindowDays: number; longWindowDays: number },
): Promise<EmissionFacts | null> {
  const [head] = await db.rows(
    `SELECT block, block_time_ms, checked_at_ms, (SELECT min(block_time_ms) FROM emission_sweeps) AS began
     FROM emission_sweeps ORDER BY block DESC LIMIT 1`,
  );
  if (!head) return null;
  const latest = {
    block: Number(head['block']),
    timeMs: Number(head['block_time_ms']),
    checkedAtMs: Number(head['checked_at_ms']),
  };
  const longStart = latest.timeMs - options.longWindowDays * DAY_MS;
  const shortStart = latest.timeMs - options.shortWindowDays * DAY_MS;

  const gapRows = await db.rows(
    `SELECT * FROM (
       SELECT block AS to_block, block_time_ms AS to_ms,
              lag(block) OVER (ORDER BY block) AS from_block,
              lag(block_time_ms) OVER (ORDER BY block) AS from_ms
       FROM emission_sweeps)
     WHERE from_ms IS NOT NULL AND to_ms - from_ms > $threshold AND to_ms > $since
     ORDER BY to_block`,
    { threshold: gapThresholdMs(options.intervalMs), since: longStart },
  );
  const current = await db.rows(
    `SELECT ${SAMPLE_COLUMNS} FROM emission_samples WHERE block = $block ORDER BY netuid`,
    { block: latest.block },
  );
  const events = await db.rows(
    `SELECT * FROM emission_events WHERE detected_at_ms >= $since ORDER BY to_block DESC, netuid DESC`,
    { since: longStart },
  );
  const latestEvents = await db.rows(
    `SELECT * FROM emission_events
     QUALIFY row_number() OVER (PARTITION BY netuid, registered_at ORDER BY to_block DESC) = 1`,
  );
  const firstPer = (bucketMs: number, since: number) =>
    db.rows(
      `SELECT ${SAMPLE_COLUMNS} FROM emission_samples
       WHERE block_time_ms >= $since
       QUALIFY row_number() OVER (
         PARTITION BY netuid, registered_at, block_time_ms // $bucket ORDER BY block) = 1
       ORDER BY netuid, registered_at, block`,
      { since, bucket: bucketMs },
    );
  const eventRows = events.map(eventRow);
  const latestEventBySubnet = new Map<string, EmissionEvent>();
  let latestEventAtMs: number | null = null;
  for (const event of latestEvents.map(eventRow)) {
    latestEventBySubnet.set(`${event.netuid}/${event.registeredAt}`, event);
    latestEventAtMs = Math.max(latestEventAtMs ?? event.detectedAtMs, event.detectedAtMs);
  }
  return {
    latest,
    collectionBeganMs: Number(head['began']),
    gaps: gapRows.map((row) => ({
      fromMs: Number(row['from_ms']),
      toMs: Number(row['to_ms']),
      fromBlock: Number(row['from_block']),
      toBlock: Number(row['to_block']),
    })),
    current: current.map(sampleRow),
    events: eventRows,
    latestEventAtMs,
    latestEventBySubnet,
    hourly: (await firstPer(HOUR_MS, shortStart)).map(sampleRow),
    daily: (await firstPer(DAY_MS, longStart)).map(sampleRow),
  };
}

function sampleRow(row: Record<string, unknown>): SampleRow {
  return {
    netuid: Number(row['netuid']),
    registeredAt: Number(row['registered_at']),
    name: String(row['name']),
    block: Number(row['block']),
    timeMs: Number(row['block_time_ms']),
    enabled: row['emission_enabled'] == null ? null : Boolean(row['emission_enabled']),
    taoInRao: BigInt(row['tao_in_rao'] as bigint),
    alphaInRao: BigInt(row['alpha_in_rao'] as bigint),
    alphaOutRao: BigInt(row['alpha_out_rao'] as bigint),
    status: row['status'] as EmissionStatus,
  };
}

function eventRow(row: Record<string, unknown>): EmissionEvent {
  return {
    netuid: Number(row['netuid']),
    registeredAt: Number(row['registered_at']),
    kind: row['kind'] as EventKind,
    fromBlock: Number(row['from_block']),
    toBlock: Number(row['to_block']),
    detectedAtMs: Number(row['detected_at_ms']),
    verifiedBlock: Number(row['verified_block']),
    verifiedAtMs: Number(row['verified_at_ms']),
  };
}
