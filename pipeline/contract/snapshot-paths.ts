import type { HistoryWindow } from './windows.js';

/**
 * Where each data resource lives inside a published run. The pipeline writes these paths and the
 * gateway resolves request paths to them through the manifest; this is the one definition both share.
 */
export const snapshotPaths = {
  subnetList: () => 'subnets.json',
  subnetDetail: (netuid: number) => `subnets/${netuid}.json`,
  history: (netuid: number, days: HistoryWindow) => `subnets/${netuid}/history-${days}.json`,
  historyCsv: (netuid: number, days: HistoryWindow) => `subnets/${netuid}/history-${days}.csv`,
} as const;

/** The emissions watch's run (its own manifest under this namespace). */
export const EMISSIONS_NAMESPACE = 'emissions/';
export const emissionPaths = {
  status: () => 'emissions.json',
  events: (days: number, netuid: number | null) => `events/${netuid ?? 'all'}-${days}.json`,
  history: (netuid: number, days: number) => `history/${netuid}-${days}.json`,
} as const;
