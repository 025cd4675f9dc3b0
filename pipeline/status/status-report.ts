/**
 * What `sbm status --json` prints: one object. Field names are snake_case like every JSON we publish;
 * times are ISO 8601 UTC, ages whole seconds. `attention` lists what needs an operator, in words; the
 * command exits 2 when it is not empty.
 */
import type { Freshness } from '../contract/envelope.js';
import type { DayGap } from '../warehouse/collected-range.js';
import type { RunKind, RunStatus } from '../warehouse/collection-runs.js';

export interface StatusReport {
  checked_at: string;
  ok: boolean;
  attention: string[];
  warehouse: WarehouseStatus;
  published: PublishedStatus;
  emissions: EmissionsStatus;
}

export interface WarehouseStatus {
  path: string;
  /** `locked`: a writer holds the file (a collection writing a day, `sbm prices`); try again. */
  state: 'ok' | 'missing' | 'locked' | 'unreadable';
  message: string | null;
  collected: CollectedStatus | null;
  /** When the last complete collection finished, as the next publication will stamp it. */
  burns_checked_at: string | null;
  /**
   * Collected days (read to their end) without a TAO/USD or TAO/GBP rate, as runs of consecutive days;
   * null when the warehouse was not read. Any day here needs attention: the pack cannot value it.
   */
  days_without_rate: { usd: DayGap[]; gbp: DayGap[] } | null;
  /** Newest first. */
  runs: RunEntry[];
}

export interface CollectedStatus {
  first_day: string;
  last_day: string;
  days: number;
  last_complete_day: string | null;
  partial_day: string | null;
  gaps: DayGap[];
  incomplete_days: string[];
}

export interface RunEntry {
  run_id: string;
  kind: RunKind | null;
  /** As recorded. A `running` row whose process is gone is still `running` until the next run marks it. */
  status: RunStatus;
  /** As it is now: `interrupted` also for a `running` row whose process is gone. */
  outcome: RunStatus;
  started_at: string;
  completed_at: string | null;
  pid: number | null;
  host: string | null;
  /** For `running` rows: whether the recorded process is still there (null for finished runs). */
  process_alive: boolean | null;
  error: string | null;
  interrupted_noticed_at: string | null;
}

export interface PublishedStatus {
  store: string;
  state: 'ok' | 'none' | 'unreadable';
  message: string | null;
  version: string | null;
  created_at: string | null;
  age_seconds: number | null;
  burns_checked_at: string | null;
  /** What the gateway would serve as `freshness` now; null when nothing is published. */
  freshness: Freshness | null;
}

export interface EmissionsStatus {
  /** `none`: the emissions watch has never published; not a problem on its own. */
  state: 'ok' | 'none' | 'unreadable';
  message: string | null;
  version: string | null;
  /** When the watch's latest sample was taken. */
  checked_at: string | null;
  age_seconds: number | null;
  freshness: Freshness | null;
}
