/**
 * Allowed window lengths. The spec's machine-readable description lists 7, 90, 365 and its usage
 * description adds 30 (public, like 7); we accept 30 on both the JSON and the CSV history.
 */
export const HISTORY_WINDOWS = [7, 30, 90, 365] as const;
export type HistoryWindow = (typeof HISTORY_WINDOWS)[number];
export const PUBLIC_HISTORY_WINDOWS: readonly number[] = [7, 30];
export const DEFAULT_HISTORY_DAYS: HistoryWindow = 7;
export const DEFAULT_HISTORY_CSV_DAYS: HistoryWindow = 90;

/** Emissions windows: 7 days public, 90 and 365 paid. */
export const EMISSION_WINDOWS = [7, 90, 365] as const;
export type EmissionWindow = (typeof EMISSION_WINDOWS)[number];
export const PUBLIC_EMISSION_WINDOWS: readonly number[] = [7];
export const DEFAULT_EMISSION_DAYS: EmissionWindow = 7;
/** Events per page of /api/v1/emissions/events. */
export const EMISSION_EVENTS_PAGE_SIZE = 100;
