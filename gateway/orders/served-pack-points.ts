/**
 * The points to check of the pack an order's link serves, read from its points.csv, for the order page: the
 * buyer sees each point with its action there, and marks an address as their own from its point. Read from
 * the pack itself, so the page says what the pack says; a pack without points.csv (made before it existed)
 * or one that cannot be read shows no list, never an error page.
 */
import JSZip from 'jszip';
import { readCsv } from '../../pipeline/csv/read-csv.js';
import type { ObjectStore } from '../../pipeline/store/object-store.js';

export interface PagePoint {
  rank: number;
  kind: string;
  counterparty: string;
  label: string;
  count: number;
  firstDate: string;
  lastDate: string;
  /** Pounds at stake as points.csv gives them (8 places); '' when the point has no single figure. */
  gbp: string;
  point: string;
  action: string;
}

const COLUMNS = ['rank', 'kind', 'counterparty', 'count', 'gbp', 'point', 'action'] as const;

/** The points of the pack stored at `key`, in its order; null when it has none to show. */
export async function servedPackPoints(store: ObjectStore, key: string): Promise<PagePoint[] | null> {
  const bytes = await store.get(key);
  if (!bytes) return null;
  const zip = await JSZip.loadAsync(bytes);
  const file = zip.file('points.csv');
  if (!file) return null;
  const table = readCsv(await file.async('string'), COLUMNS);
  if (table.problems.length > 0) return null;
  return table.records.map(({ values }) => ({
    rank: Number(values['rank']),
    kind: values['kind'] ?? '',
    counterparty: values['counterparty'] ?? '',
    label: values['label'] ?? '',
    count: Number(values['count']),
    firstDate: values['first_date'] ?? '',
    lastDate: values['last_date'] ?? '',
    gbp: values['gbp'] ?? '',
    point: values['point'] ?? '',
    action: values['action'] ?? '',
  }));
}
