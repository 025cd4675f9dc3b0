/**
 * Emission facts → the contract documents of one emissions run: the current status, the events of every
 * window (all subnets and per netuid, the whole newest-first list: the gateway slices pages), and each
 * netuid's sampled history. Every document is validated against its schema before anything is written.
 */
import type { z } from 'zod';
import { type ExactDecimal, encodeValidJson } from '../amounts/exact-json.js';
import { raoToDecimal } from '../amounts/rao.js';
import { EmissionEvents, EmissionHistory, EmissionsSnapshot } from '../contract/emissions.js';
import { EMISSIONS_STALE_AFTER_MS, freshnessOf } from '../contract/freshness.js';
import { emissionPaths } from '../contract/snapshot-paths.js';
import { EMISSION_EVENTS_PAGE_SIZE, EMISSION_WINDOWS } from '../contract/windows.js';
import type { RunObject } from '../store/index.js';
import { DAY_MS } from '../time/utc-day.js';
import { windowCoverage } from './coverage.js';
import type { EmissionFacts, SampleRow } from './emission-facts.js';
import { EmissionsSnapshotInvalidError } from './emissions-errors.js';
import type { EmissionEvent } from './transition-rule.js';

/** Hourly samples up to this window length, daily beyond. */
const HOURLY_UP_TO_DAYS = 7;

export interface BuildEmissionsOptions {
  nowMs: number;
  methodUrl: string;
}

interface Document {
  path: string;
  schema: z.ZodType;
  value: unknown;
}

export function buildEmissionsRun(facts: EmissionFacts, options: BuildEmissionsOptions): RunObject[] {
  const envelope = {
    as_of: iso(facts.latest.timeMs),
    freshness: freshnessOf(facts.latest.checkedAtMs, options.nowMs, EMISSIONS_STALE_AFTER_MS),
    checked_at: iso(facts.latest.checkedAtMs),
    method_url: options.methodUrl,
  };
  const documents: Document[] = [
    {
      path: emissionPaths.status(),
      schema: EmissionsSnapshot,
      value: {
        ...envelope,
        observed_block: facts.latest.block,
        rows: facts.current.map((r) => statusRow(r, facts)),
      },
    },
  ];
  const netuids = [
    ...new Set([...facts.current, ...facts.daily, ...facts.events].map((row) => row.netuid)),
  ].sort((a, b) => a - b);
  for (const days of EMISSION_WINDOWS) {
    const startMs = facts.latest.timeMs - days * DAY_MS;
    const coverage = windowCoverage(
      { startMs, endMs: facts.latest.timeMs },
      facts.collectionBeganMs,
      facts.gaps,
    );
    const inWindow = facts.events.filter((event) => event.detectedAtMs >= startMs);
    for (const netuid of [null, ...netuids]) {
      documents.push({
        path: emissionPaths.events(days, netuid),
        schema: EmissionEvents,
        value: {
          ...envelope,
          ...coverage,
          days,
          netuid,
          page_size: EMISSION_EVENTS_PAGE_SIZE,
          // The published list is whole; the gateway cuts it into pages and sets the cursor.
          next_before_block: null,
          events: inWindow.filter((e) => netuid === null || e.netuid === netuid).map(eventBody),
        },
      });
    }
    const hourly = days <= HOURLY_UP_TO_DAYS;
    const samples = (hourly ? facts.hourly : facts.daily).filter((row) => row.timeMs >= startMs);
    for (const netuid of netuids) {
      documents.push({
        path: emissionPaths.history(netuid, days),
        schema: EmissionHistory,
        value: {
          ...envelope,
          ...coverage,
          netuid,
          days,
          resolution: hourly ? 'hourly' : 'daily',
          rows: currentRegistration(samples, netuid, facts).map(historyRow),
        },
      });
    }
  }
  return documents.map(render);
}

/**
 * A netuid's history is that of the subnet registered under it now (or last): a netuid reused after
 * deregistration is another subnet, and its predecessor's samples are not its history.
 */
function currentRegistration(samples: SampleRow[], netuid: number, facts: EmissionFacts): SampleRow[] {
  const mine = samples.filter((row) => row.netuid === netuid);
  const registeredAt =
    facts.current.find((row) => row.netuid === netuid)?.registeredAt ??
    Math.max(-1, ...facts.daily.filter((row) => row.netuid === netuid).map((row) => row.registeredAt));
  return mine.filter((row) => row.registeredAt === registeredAt);
}

function statusRow(row: SampleRow, facts: EmissionFacts): Record<string, unknown> {
  const event = facts.latestEventBySubnet.get(`${row.netuid}/${row.registeredAt}`);
  const setsStatus = event !== undefined && statusAfter(event) === row.status;
  return {
    netuid: row.netuid,
    name: row.name,
    registered_at: row.registeredAt,
    status: row.status,
    emission_enabled: row.enabled,
    ...amounts(row),
    since_block: setsStatus ? event.verifiedBlock : null,
  };
}

function historyRow(row: SampleRow): Record<string, unknown> {
  return { block: row.block, time: iso(row.timeMs), status: row.status, ...amounts(row) };
}

function amounts(
  row: SampleRow,
): Record<'tao_in_emission' | 'alpha_in_emission' | 'alpha_out_emission', ExactDecimal> {
  return {
    tao_in_emission: raoToDecimal(row.taoInRao),
    alpha_in_emission: raoToDecimal(row.alphaInRao),
    alpha_out_emission: raoToDecimal(row.alphaOutRao),
  };
}

function eventBody(event: EmissionEvent): Record<string, unknown> {
  return {
    netuid: event.netuid,
    registered_at: event.registeredAt,
    kind: event.kind,
    from_block: event.fromBlock,
    to_block: event.toBlock,
    detected_block: event.toBlock,
    detected_at: iso(event.detectedAtMs),
    verified_block: event.verifiedBlock,
    verified_at: iso(event.verifiedAtMs),
  };
}

function statusAfter(event: EmissionEvent): SampleRow['status'] {
  return event.kind === 'suspended' ? 'suspended' : 'flowing';
}

function render(document: Document): RunObject {
  const json = encodeValidJson(document.schema, document.value);
  if (!json.ok) {
    throw new EmissionsSnapshotInvalidError(`${document.path} breaks the contract: ${json.problem}`);
  }
  return { path: document.path, body: json.bytes, contentType: 'application/json; charset=utf-8' };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
