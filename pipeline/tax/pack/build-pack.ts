import JSZip from 'jszip';
import type { ObjectStore } from '../../store/object-store.js';
import { eventsCsv, figuresCsv } from './pack-csv.js';
import { coldkeyFigures } from './pack-figures.js';
import { type PackOrder, readPackInputs } from './pack-inputs.js';
import { packPdf } from './pack-pdf.js';

export type { PackOrder } from './pack-inputs.js';

export interface PackDeps {
  /** The object store the pipeline publishes to: the pack reads its tax objects. */
  store: ObjectStore;
}

/**
 * The tax pack of an order: a zip of `summary.pdf`, `figures.csv` and `events.csv`. This is the
 * placeholder the orders issue ships; the next issue replaces the contents behind this one function.
 *
 * Deterministic for the same published run: every time inside (zip entry dates, PDF dates) is the
 * order's payment time, entries are added in a fixed order with fixed compression, and nothing random
 * is written, so a rebuild from the same inputs gives the same bytes.
 */
export async function buildPack(order: PackOrder, deps: PackDeps): Promise<Uint8Array> {
  if (!order.paidAt) throw new Error(`order ${order.id} is not paid; a pack is built for paid orders only`);
  const inputs = await readPackInputs(deps.store, order);
  const figures = coldkeyFigures(inputs);
  const asOf = order.paidAt;
  const zip = new JSZip();
  // JSZip writes the UTC fields of the date into the DOS date and time: the same bytes in any time zone.
  const date = asOf;
  const options = { date, createFolders: false } as const;
  zip.file('summary.pdf', await packPdf(order, inputs, figures, asOf), options);
  zip.file('figures.csv', figuresCsv(inputs, figures), options);
  zip.file('events.csv', eventsCsv(inputs), options);
  return zip.generateAsync({
    type: 'uint8array',
    compression: 'DEFLATE',
    compressionOptions: { level: 6 },
    platform: 'UNIX',
  });
}
