/**
 * The points to check of the pack an order's link serves, read from its points.csv, for the order page: the
 * buyer sees each point with its action there, and marks an address as their own from its point. Read from
 * the pack itself, so the page says what the pack says; a pack without points.csv (made before it existed)
 * or one that cannot be read shows no list, never an error page.
 */
import JSZip from 'jszip';
import type { ObjectStore } from '../../pipeline/store/object-store.js';
import { type PointRow, readPointsCsv } from '../../pipeline/tax/products/pack/points-csv.js';

/** A point as the order page lists it. */
export type PagePoint = PointRow;

/** The points of the pack stored at `key`, in its order; null when it has none to show. */
export async function servedPackPoints(store: ObjectStore, key: string): Promise<PagePoint[] | null> {
  const bytes = await store.get(key);
  if (!bytes) return null;
  const zip = await JSZip.loadAsync(bytes);
  const file = zip.file('points.csv');
  if (!file) return null;
  return readPointsCsv(await file.async('string'));
}
