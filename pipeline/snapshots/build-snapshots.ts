/**
 * Warehouse facts → the contract's data resources (the rules in docs/api.md, Method, made exact). Amounts are
 * ExactDecimal so that JSON keeps every RAO.
 */
import type { z } from 'zod';
import { changePercent } from '../amounts/change-percent.js';
import type { ExactDecimal } from '../amounts/exact-json.js';
import { priceToDecimal, valueInTaoRao } from '../amounts/pool-price.js';
import { raoToDecimal } from '../amounts/rao.js';
import { BURNS_STALE_AFTER_MS, freshnessOf } from '../contract/freshness.js';
import { SubnetDetail, SubnetHistory, SubnetList } from '../contract/index.js';
import { snapshotPaths } from '../contract/snapshot-paths.js';
import { HISTORY_WINDOWS } from '../contract/windows.js';
import { daysEnding } from '../time/utc-day.js';
import type { DayBurns, SnapshotFacts, SubnetAtPanel } from '../warehouse/snapshot-queries.js';

export interface SnapshotSettings {
  version: string;
  nowMs: number;
  methodUrl: string;
  valuation: string;
  /** Date of the latest verified emissions event, when the emissions watch has one. */
  alertsDate: string | null;
}

export interface SnapshotDocument {
  path: string;
  schema: z.ZodType;
  value: Record<string, unknown>;
}

export interface HistoryTable {
  path: string;
  rows: HistoryRowValue[];
}

export interface HistoryRowValue {
  date: string;
  alpha: ExactDecimal;
  burns: number;
  tao: ExactDecimal | null;
  unpriced_burns: number;
  partial_day: boolean;
}

export const DEFAULT_VALUATION =
  'Alpha valued in TAO at the subnet pool price (SubnetTAO / SubnetAlphaIn) at a UTC day’s panel block: ' +
  'summaries at the latest panel, daily history at each day’s own. Not an execution price or revenue.';

/** The longest window any resource looks back over: what the builder must read from the warehouse. */
export const LONGEST_WINDOW_DAYS = Math.max(...HISTORY_WINDOWS);

export function buildSnapshots(
  facts: SnapshotFacts,
  settings: SnapshotSettings,
): { documents: SnapshotDocument[]; csv: HistoryTable[] } {
  const envelope = {
    as_of: new Date(facts.asOfMs).toISOString(),
    freshness: freshnessOf(facts.burnsCheckedAtMs, settings.nowMs, BURNS_STALE_AFTER_MS),
    burns_checked_at: facts.burnsCheckedAtMs === null ? null : new Date(facts.burnsCheckedAtMs).toISOString(),
    valuation: settings.valuation,
    method_url: settings.methodUrl,
  };
  const rows = facts.subnets.map((subnet) => subnetRow(facts, subnet));
  const documents: SnapshotDocument[] = [
    {
      path: snapshotPaths.subnetList(),
      schema: SubnetList,
      value: {
        ...envelope,
        version: settings.version,
        panel_date: facts.panelDay,
        alerts_date: settings.alertsDate,
        rows,
        trend: trend(facts),
      },
    },
  ];
  const csv: HistoryTable[] = [];
  facts.subnets.forEach((subnet, index) => {
    documents.push({
      path: snapshotPaths.subnetDetail(subnet.netuid),
      schema: SubnetDetail,
      value: { ...envelope, subnet: rows[index] },
    });
    for (const days of HISTORY_WINDOWS) {
      const window = daysEnding(facts.asOfDay, days);
      const historyRows = window.map((day) => historyDay(facts, subnet, day));
      const coverage = window.every((day) => facts.collectedDays.has(day)) ? 'complete' : 'partial';
      documents.push({
        path: snapshotPaths.history(subnet.netuid, days),
        schema: SubnetHistory,
        value: { ...envelope, netuid: subnet.netuid, days, coverage, rows: historyRows },
      });
      csv.push({ path: snapshotPaths.historyCsv(subnet.netuid, days), rows: historyRows });
    }
  });
  return { documents, csv };
}

function subnetRow(facts: SnapshotFacts, subnet: SubnetAtPanel): Record<string, unknown> {
  const totals = facts.windows.get(subnet.netuid);
  const alpha24h = totals?.alpha24h ?? 0n;
  const alpha7d = totals?.alpha7d ?? 0n;
  const alpha30d = totals?.alpha30d ?? 0n;
  const tao = (alphaRao: bigint) => nullableRao(valueInTaoRao(alphaRao, subnet.price));
  const claim = facts.claims.get(subnet.netuid);
  const daily = facts.daily.get(subnet.netuid);
  return {
    netuid: subnet.netuid,
    name: subnet.name,
    price_tao: priceToDecimal(subnet.price),
    panel_date: facts.panelDay,
    alpha_24h: raoToDecimal(alpha24h),
    alpha_7d: raoToDecimal(alpha7d),
    alpha_30d: raoToDecimal(alpha30d),
    tao_24h: tao(alpha24h),
    tao_7d: tao(alpha7d),
    tao_30d: tao(alpha30d),
    change_7d_pct: changePercent(alpha7d, totals?.alphaPrev7d ?? 0n),
    last_burn: isoOrNull(totals?.lastBurnMs ?? null),
    claim: claim
      ? {
          text: claim.text,
          name_at_source: claim.nameAtSource,
          source: claim.source,
          reviewed: claim.reviewed,
        }
      : null,
    first_burn: isoOrNull(totals?.firstBurnMs ?? null),
    observed_burns: totals?.observedBurns ?? 0,
    alpha_observed_total: raoToDecimal(totals?.alphaObservedTotal ?? 0n),
    spark7: daysEnding(facts.asOfDay, 7).map((day) => raoToDecimal(daily?.get(day)?.alphaRao ?? 0n)),
  };
}

function historyDay(facts: SnapshotFacts, subnet: SubnetAtPanel, day: string): HistoryRowValue {
  const burns: DayBurns | undefined = facts.daily.get(subnet.netuid)?.get(day);
  return {
    date: day,
    alpha: raoToDecimal(burns?.alphaRao ?? 0n),
    burns: burns?.burns ?? 0,
    tao: dayValue(burns),
    unpriced_burns: burns?.unpricedBurns ?? 0,
    partial_day: facts.collectedDays.get(day)?.partial ?? false,
  };
}

/** A day with no burns is worth 0; a day whose burns all lack a price is null, never 0. */
function dayValue(burns: DayBurns | undefined): ExactDecimal | null {
  if (burns === undefined || burns.burns === 0) return raoToDecimal(0n);
  return nullableRao(burns.taoRao);
}

function trend(facts: SnapshotFacts): Record<string, unknown> {
  let alpha7d = 0n;
  let alphaPrev7d = 0n;
  let tao7d: bigint | null = null;
  let burning = 0;
  const prices = new Map(facts.subnets.map((subnet) => [subnet.netuid, subnet.price]));
  for (const [netuid, totals] of facts.windows) {
    alpha7d += totals.alpha7d;
    alphaPrev7d += totals.alphaPrev7d;
    if (totals.alpha7d > 0n) burning += 1;
    const value = valueInTaoRao(totals.alpha7d, prices.get(netuid) ?? null);
    if (value !== null) tao7d = (tao7d ?? 0n) + value;
  }
  const daily = daysEnding(facts.asOfDay, 30).map((day) => {
    let alpha = 0n;
    let count = 0;
    let tao: bigint | null = null;
    for (const days of facts.daily.values()) {
      const burns = days.get(day);
      if (!burns) continue;
      alpha += burns.alphaRao;
      count += burns.burns;
      if (burns.taoRao !== null) tao = (tao ?? 0n) + burns.taoRao;
    }
    return {
      date: day,
      alpha: raoToDecimal(alpha),
      tao: count === 0 ? raoToDecimal(0n) : nullableRao(tao),
      burns: count,
    };
  });
  return {
    alpha_7d: raoToDecimal(alpha7d),
    tao_7d: nullableRao(tao7d),
    alpha_prev_7d: raoToDecimal(alphaPrev7d),
    change_7d_pct: changePercent(alpha7d, alphaPrev7d),
    subnets_burning_7d: burning,
    daily,
    collection_began: facts.firstCollectedDay,
  };
}

function nullableRao(rao: bigint | null): ExactDecimal | null {
  return rao === null ? null : raoToDecimal(rao);
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
