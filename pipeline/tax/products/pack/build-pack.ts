import type { ChainReader } from '../../../chain/chain-reader.js';
import type { ObjectStore } from '../../../store/object-store.js';
import {
  computeTaxYearLedger,
  type LedgerProgress,
  PACK_READ_CONCURRENCY,
  type TaxYearLedger,
} from '../compute-tax-year.js';
import { type CustomerInputs, EMPTY_CUSTOMER_INPUTS } from '../own-records/customer-inputs.js';
import { bittytaxCsv } from './exports/bittytax-csv.js';
import { cgtInputCsv } from './exports/cgt-input-csv.js';
import { exportRecords } from './exports/export-records.js';
import { koinlyCsv } from './exports/koinly-csv.js';
import { incomeItems } from './income-sources.js';
import { liquidityCsv } from './liquidity-csv.js';
import {
  disposalsCsv,
  eventsCsv,
  incomeCsv,
  matchesCsv,
  poolsCsv,
  positionsCsv,
  reconciliationCsv,
} from './pack-csv.js';
import { type PackInputs, type PackOrder, readPackInputs } from './pack-inputs.js';
import { packPdf, reconciliationFigures } from './pack-pdf.js';
import { packPoints } from './pack-points.js';
import { incomeSummary, incomeTotalLines } from './pack-summary.js';
import { packReadme } from './pack-text.js';
import { PackZip } from './pack-zip.js';
import { pointsCsv } from './points-csv.js';

export type { PackOrder } from './pack-inputs.js';

export interface PackDeps {
  /** The object store the pipeline publishes to: the pack reads its tax objects. */
  store: ObjectStore;
  /** A reader on an archive node (stake at past blocks); opened by the caller, shared across packs. */
  chain: () => Promise<ChainReader>;
  /** Blocks read at once (default 32). */
  concurrency?: number;
  /** Told how far the build is (the fulfilment worker keeps its lease and shows it). */
  onProgress?: (progress: LedgerProgress) => void;
}

/** The files of a pack, in the order they are written into the zip. */
export const PACK_FILE_NAMES = [
  'summary.pdf',
  'income.csv',
  'events.csv',
  'disposals.csv',
  'matches.csv',
  'pools.csv',
  'positions.csv',
  'reconciliation.csv',
  'points.csv',
  'cgt-input.csv',
  'bittytax.csv',
  'koinly.csv',
  'liquidity.csv',
  'README.txt',
] as const;

/**
 * The order the files are rendered in: the big CSVs first, so that the last ones' deflating (on zlib's
 * threads) runs while the small files and the PDF are made, not after them. The zip keeps
 * `PACK_FILE_NAMES`' order.
 */
const RENDER_ORDER = [
  'income.csv',
  'reconciliation.csv',
  'bittytax.csv',
  'koinly.csv',
  'positions.csv',
  'events.csv',
  'cgt-input.csv',
  'disposals.csv',
  'summary.pdf',
  'matches.csv',
  'pools.csv',
  'points.csv',
  'liquidity.csv',
  'README.txt',
] as const satisfies readonly (typeof PACK_FILE_NAMES)[number][];

export interface BuiltPack {
  zip: Uint8Array;
  files: Map<(typeof PACK_FILE_NAMES)[number], Uint8Array>;
  inputs: PackInputs;
  ledger: TaxYearLedger;
}

/**
 * The tax pack of an order: a zip of the summary PDF, the ledgers as CSV and a README.
 *
 * Deterministic for the same published run and chain: every time inside (zip entry dates, PDF dates) is
 * the order's payment time, entries are added in a fixed order with fixed compression, rows are sorted,
 * and nothing random is written, so a rebuild gives the same bytes (the fulfilment job relies on it).
 */
export async function buildPack(
  order: PackOrder,
  deps: PackDeps,
  customer: CustomerInputs = EMPTY_CUSTOMER_INPUTS,
): Promise<Uint8Array> {
  return (await buildPackFiles(order, deps, customer)).zip;
}

/**
 * `customer`: the buyer's own records, addresses and opening pools (a revised pack); a record that the
 * chain record and the other records cannot hold (a sale of more than the pool) throws
 * `CustomerInputsRejected` naming its file and line.
 */
export async function buildPackFiles(
  order: PackOrder,
  deps: PackDeps,
  customer: CustomerInputs = EMPTY_CUSTOMER_INPUTS,
): Promise<BuiltPack> {
  if (!order.paidAt) throw new Error(`order ${order.id} is not paid; a pack is built for paid orders only`);
  // The published inputs and the chain's reader (a connection to open, its metadata to read) at once.
  const [inputs, reader] = await Promise.all([readPackInputs(deps.store, order), deps.chain()]);
  const ledger = await computeTaxYearLedger(
    inputs,
    inputs.coldkeys,
    reader,
    deps.concurrency ?? PACK_READ_CONCURRENCY,
    customer,
    deps.onProgress,
  );
  deps.onProgress?.({
    phase: 'writing-files',
    positions: ledger.positions.length,
    days: ledger.days.length + ledger.following.length,
    blocksRead: ledger.stakes.size,
    blocks: ledger.stakes.size,
  });
  const asOf = order.paidAt;
  const text = (value: string): Uint8Array => Buffer.from(value, 'utf8');
  const records = exportRecords(ledger.mapping.transactions, ledger.recordEvents, ledger.combined);
  const lastDay = ledger.days[ledger.days.length - 1] ?? ledger.opening;
  // One list for the PDF and points.csv, so that the two say the same.
  const points = packPoints(ledger);
  // Each file is rendered in turn and handed to the zip, which deflates it beside the next one's rendering;
  // between files the event loop has a turn (a fulfilment worker's heartbeat).
  const render: Record<(typeof PACK_FILE_NAMES)[number], () => Promise<Uint8Array> | Uint8Array> = {
    'summary.pdf': () => packPdf(order, inputs, ledger, asOf, points),
    'income.csv': () => text(incomeCsv(ledger, inputs.subnetNames)),
    'events.csv': () => text(eventsCsv(ledger)),
    'disposals.csv': () => text(disposalsCsv(ledger)),
    'matches.csv': () => text(matchesCsv(ledger)),
    'pools.csv': () => text(poolsCsv(ledger, lastDay.date)),
    'positions.csv': () => text(positionsCsv(ledger, inputs.subnetNames)),
    'reconciliation.csv': () => text(reconciliationCsv(ledger)),
    'points.csv': () => text(pointsCsv(points)),
    'cgt-input.csv': () => text(cgtInputCsv(ledger.chainTransactions, new Date(ledger.recordOpening.timeMs))),
    'bittytax.csv': () => text(bittytaxCsv(records, 'Bittensor')),
    'koinly.csv': () => text(koinlyCsv(records)),
    'liquidity.csv': () => text(liquidityCsv(ledger)),
    'README.txt': () =>
      text(
        packReadme(
          order.packName,
          order.id,
          inputs.taxYear.label,
          reconciliationFigures(ledger),
          incomeTotalLines(incomeSummary(incomeItems(ledger), inputs.taxYear.startYear, inputs.subnetNames)),
        ),
      ),
  };
  const rendered = new Map<(typeof PACK_FILE_NAMES)[number], Uint8Array>();
  const zip = new PackZip(asOf);
  for (const name of RENDER_ORDER) {
    const bytes = await render[name]();
    rendered.set(name, bytes);
    zip.add(name, bytes);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const bytes = await zip.bytes(PACK_FILE_NAMES);
  const files = new Map(PACK_FILE_NAMES.map((name) => [name, rendered.get(name)!]));
  return { zip: bytes, files, inputs, ledger };
}
