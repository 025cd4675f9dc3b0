/**
 * What needs an operator, in words. Each rule is a situation the daily job does not mend by itself, or
 * that users of the API would see: data served as stale, days missing, a collection that died.
 * A warehouse held by a writer is not one of them (a collection is at work); the freshness of what is
 * published will say so if that writer never finishes.
 */
import { BURNS_STALE_AFTER_MS, EMISSIONS_STALE_AFTER_MS } from '../contract/freshness.js';
import { describeSpans } from '../prices/missing-rates.js';
import { HOUR_MS } from '../time/utc-day.js';
import type { EmissionsStatus, PublishedStatus, WarehouseStatus } from './status-report.js';

export function attentionOf(
  warehouse: WarehouseStatus,
  published: PublishedStatus,
  emissions: EmissionsStatus,
): string[] {
  return [
    ...warehouseAttention(warehouse),
    ...publishedAttention(published),
    ...emissionsAttention(emissions),
  ];
}

function warehouseAttention(warehouse: WarehouseStatus): string[] {
  if (warehouse.state === 'missing' || warehouse.state === 'unreadable') {
    return [`warehouse: ${warehouse.message}`];
  }
  if (warehouse.state === 'locked') return [];
  const out: string[] = [];
  const collected = warehouse.collected;
  if (collected === null) out.push('warehouse: nothing collected yet');
  else {
    const missing = collected.gaps.reduce((n, gap) => n + gap.days, 0);
    if (missing > 0) {
      const spans = collected.gaps.map((gap) => (gap.from === gap.to ? gap.from : `${gap.from}..${gap.to}`));
      out.push(`warehouse: ${missing} day(s) missing inside the collected range: ${spans.join(', ')}`);
    }
    if (collected.incomplete_days.length > 0) {
      out.push(`warehouse: day(s) left partial before the last: ${collected.incomplete_days.join(', ')}`);
    }
  }
  for (const [currency, label] of [
    ['gbp', 'TAO/GBP'],
    ['usd', 'TAO/USD'],
  ] as const) {
    const spans = warehouse.days_without_rate?.[currency] ?? [];
    const days = spans.reduce((n, span) => n + span.days, 0);
    if (days > 0) {
      out.push(
        `warehouse: ${days} collected day(s) have no ${label} rate: ${describeSpans(spans)} ` +
          `(sbm daily or sbm prices fetch fetches them)`,
      );
    }
  }
  const last = warehouse.runs[0];
  if (last?.outcome === 'failed')
    out.push(`last collection ${last.run_id} failed: ${last.error ?? 'no error recorded'}`);
  if (last?.outcome === 'interrupted') {
    out.push(`last collection ${last.run_id} was interrupted: ${last.error ?? 'its process is gone'}`);
  }
  return out;
}

function publishedAttention(published: PublishedStatus): string[] {
  if (published.state !== 'ok') return [`published: ${published.message}`];
  if (published.freshness === 'stale') {
    return [
      `published: burn data is stale (burns_checked_at ${published.burns_checked_at}, stale after ${hours(BURNS_STALE_AFTER_MS)})`,
    ];
  }
  if (published.freshness === 'unknown') {
    return [
      'published: freshness is unknown (the live run has no burns_checked_at: no collection had completed)',
    ];
  }
  return [];
}

/** The watch is optional: only a watch that has published and then stopped sampling needs attention. */
function emissionsAttention(emissions: EmissionsStatus): string[] {
  if (emissions.state === 'none') return [];
  if (emissions.state === 'unreadable') return [`emissions: ${emissions.message}`];
  if (emissions.freshness === 'current') return [];
  if (emissions.freshness === 'unknown') return ["emissions: the watch's manifest carries no checked_at"];
  return [
    `emissions: the watch's last sample (${emissions.checked_at}) is older than ${minutes(EMISSIONS_STALE_AFTER_MS)}`,
  ];
}

function hours(ms: number): string {
  return `${ms / HOUR_MS} h`;
}

function minutes(ms: number): string {
  return `${ms / 60_000} min`;
}
