import type { ChainReader } from '../../../chain/chain-reader.js';
import type { ObjectStore } from '../../../store/object-store.js';
import { warmBlockHeads } from '../../chain-record/stake-at-blocks.js';
import type { TreatedBlock } from '../../uk-rules/cgt/cgt-transactions.js';
import type { IncomeRow } from '../../uk-rules/income-ledger.js';
import {
  computeTaxYearLedger,
  type FinalTransactions,
  gainsHere,
  type LedgerProgress,
  PACK_READ_CONCURRENCY,
  type RecordRead,
  type TaxYearLedger,
} from '../compute-tax-year.js';
import { type CustomerInputs, EMPTY_CUSTOMER_INPUTS } from '../own-records/customer-inputs.js';
import {
  EXPORT_FILE_NAMES,
  type ExportFiles,
  type ExportFilesInput,
  renderExportFiles,
} from './exports/export-files.js';
import { incomeItems } from './income-sources.js';
import { liquidityCsv } from './liquidity-csv.js';
import {
  disposalsCsv,
  EventLines,
  eventsCsv,
  IncomeLines,
  incomeCsv,
  matchesCsv,
  poolsCsv,
  positionDaysOf,
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
import { calendarBlocksOfRecord } from './record-days.js';
import { PackThread } from './thread/pack-thread.js';

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
  /**
   * A record of at least this many position-days (positions × days read) has its gains, exports and
   * positions.csv made on a second thread (`thread/pack-thread.ts`; default `THREAD_FROM_POSITION_DAYS`).
   */
  threadFromPositionDays?: number;
}

/**
 * A record of a year of a few positions or more has its gains, exports and positions.csv made on the pack's
 * thread, which is kept between builds: in a run of several orders, each pack after the first finds its code
 * loaded and compiled. A small pack gains little from it (its crossing costs about what the thread saves it)
 * but keeps that code compiled for the big ones, whose work after their last read it cuts by about a fifth.
 * Below this, a record's whole tax work takes less than starting the thread.
 */
export const THREAD_FROM_POSITION_DAYS = 2_000;

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
 * The order the build's thread renders the files in (the exports are rendered first, or on a thread of their
 * own): the big CSVs first, so that the last ones' deflating (on zlib's threads) runs while the small files
 * and the PDF are made, not after them. The zip keeps `PACK_FILE_NAMES`' order.
 */
const RENDER_ORDER = [
  'income.csv',
  'reconciliation.csv',
  'positions.csv',
  'events.csv',
  'disposals.csv',
  'summary.pdf',
  'matches.csv',
  'pools.csv',
  'points.csv',
  'liquidity.csv',
  'README.txt',
] as const satisfies readonly Exclude<(typeof PACK_FILE_NAMES)[number], (typeof EXPORT_FILE_NAMES)[number]>[];

export interface BuiltPack {
  zip: Uint8Array;
  /** Whether a second thread made the gains, the exports and positions.csv (`pack-thread.ts`). */
  secondThread: boolean;
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
  // The published inputs and the chain's reader (a connection to open, its metadata to read) at once; the
  // calendar's days' heads are asked for while the events are read and checked (tenths of a second for a
  // big record, when the node would have nothing to do).
  const opening = deps.chain();
  const [inputs, reader] = await Promise.all([
    readPackInputs(deps.store, order, (calendar, taxYear) => {
      opening
        .then((chain) => warmBlockHeads(chain, calendarBlocksOfRecord(calendar, taxYear)))
        .catch(() => undefined);
    }),
    opening,
  ]);
  // The record's gains, exports and positions.csv are made on the pack's thread, leased as soon as the reads
  // show the record's size (a thread not yet running loads its code meanwhile); a tiny record's here.
  const threadFrom = deps.threadFromPositionDays ?? THREAD_FROM_POSITION_DAYS;
  let thread: PackThread | undefined;
  const onProgress = (progress: LedgerProgress) => {
    if (!thread && progress.phase === 'reading-chain' && progress.positions * progress.days >= threadFrom)
      thread = new PackThread();
    deps.onProgress?.(progress);
  };
  let exports: Promise<ExportFiles> | ExportFiles | undefined;
  // The zip, which deflates each file as it is added: the thread's exports go in as they come.
  const zip = new PackZip(order.paidAt);
  const zipped = new Map<(typeof PACK_FILE_NAMES)[number], Uint8Array>();
  const addToZip = (name: (typeof PACK_FILE_NAMES)[number], bytes: Uint8Array) => {
    if (zipped.has(name)) return;
    zipped.set(name, bytes);
    zip.add(name, bytes);
  };
  // positions.csv, rendered on the thread as soon as the chain is read.
  let positions: Promise<Uint8Array> | undefined;
  const onThread = { gains: false, exports: false, positions: false };
  // income.csv's lines of each UK day of the year, made as the day is worked out while the chain is read.
  const incomeLines = new IncomeLines(inputs.subnetNames);
  const onIncomeDay = (date: string, rows: readonly IncomeRow[]) => {
    if (date >= inputs.taxYear.firstDay && date <= inputs.taxYear.lastDay) incomeLines.prepareDay(date, rows);
  };
  // events.csv's lines of each block of the year treated while the chain is read.
  const eventLines = new EventLines();
  const onBlockTreated = (block: TreatedBlock) => {
    const date = block.events[0]?.date;
    if (date !== undefined && date >= inputs.taxYear.firstDay && date <= inputs.taxYear.lastDay)
      eventLines.prepareBlock(block.events);
  };
  const onRecordRead = (record: RecordRead) => {
    if (!thread) return;
    positions = thread.positions(positionDaysOf(record), inputs.subnetNames).then((made) => {
      onThread.positions = made.onThread;
      return made.bytes;
    });
    // A build that fails before rendering its files never awaits them.
    positions.catch(() => undefined);
  };
  const gainsOf = async (final: FinalTransactions) => {
    const input: ExportFilesInput = {
      transactions: final.transactions,
      chainTransactions: final.chainTransactions,
      events: final.recordEvents,
      customer: final.combined,
      openingAt: new Date(final.recordOpening.timeMs),
    };
    if (!thread) {
      exports = renderExportFiles(input);
      return gainsHere(final);
    }
    const work = thread.work(input, addToZip);
    exports = work.exports.then((made) => {
      onThread.exports = made.onThread;
      return made.files;
    });
    // A build that fails before rendering its files never awaits them.
    exports.catch(() => undefined);
    const gains = await work.gains;
    onThread.gains = gains.onThread;
    return gains.report;
  };
  try {
    const ledger = await computeTaxYearLedger(
      inputs,
      inputs.coldkeys,
      reader,
      deps.concurrency ?? PACK_READ_CONCURRENCY,
      customer,
      onProgress,
      { gainsOf, onRecordRead, onIncomeDay, onBlockTreated },
    );
    const built = await packFiles(
      order,
      order.paidAt,
      inputs,
      ledger,
      { exports: exports!, positions, incomeLines, eventLines, zip, addToZip, zipped },
      deps,
    );
    return { ...built, secondThread: onThread.gains && onThread.exports && onThread.positions };
  } finally {
    thread?.close();
  }
}

/**
 * The pack's files rendered from the ledger (the exports given, or under way on their thread; positions.csv
 * too when the thread renders it) and zipped.
 */
async function packFiles(
  order: PackOrder,
  asOf: Date,
  inputs: PackInputs,
  ledger: TaxYearLedger,
  made: {
    exports: ExportFiles | Promise<ExportFiles>;
    positions: Promise<Uint8Array> | undefined;
    incomeLines: IncomeLines;
    eventLines: EventLines;
    /** The zip, the files added to it so far (each once) and the way to add one. */
    zip: PackZip;
    zipped: ReadonlyMap<(typeof PACK_FILE_NAMES)[number], Uint8Array>;
    addToZip: (name: (typeof PACK_FILE_NAMES)[number], bytes: Uint8Array) => void;
  },
  deps: PackDeps,
): Promise<Omit<BuiltPack, 'secondThread'>> {
  const { exports } = made;
  deps.onProgress?.({
    phase: 'writing-files',
    positions: ledger.positions.length,
    days: ledger.days.length + ledger.following.length,
    blocksRead: ledger.stakes.size,
    blocks: ledger.stakes.size,
  });
  const text = (value: string): Uint8Array => Buffer.from(value, 'utf8');
  const lastDay = ledger.days[ledger.days.length - 1] ?? ledger.opening;
  // One list for the PDF and points.csv, so that the two say the same.
  const points = packPoints(ledger);
  // Each file is rendered in turn and handed to the zip, which deflates it beside the next one's rendering;
  // between files the event loop has a turn (a fulfilment worker's heartbeat).
  const render: Record<(typeof RENDER_ORDER)[number], () => Promise<Uint8Array> | Uint8Array> = {
    'summary.pdf': () => packPdf(order, inputs, ledger, asOf, points),
    'income.csv': () => text(incomeCsv(ledger, inputs.subnetNames, made.incomeLines)),
    'events.csv': () => text(eventsCsv(ledger, made.eventLines)),
    'disposals.csv': () => text(disposalsCsv(ledger)),
    'matches.csv': () => text(matchesCsv(ledger)),
    'pools.csv': () => text(poolsCsv(ledger, lastDay.date)),
    'positions.csv': () => made.positions ?? text(positionsCsv(ledger, inputs.subnetNames)),
    'reconciliation.csv': () => text(reconciliationCsv(ledger)),
    'points.csv': () => text(pointsCsv(points)),
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
  const { zip, zipped, addToZip } = made;
  // The exports go to the zip as soon as they are there (the thread's each as it comes), to be deflated beside
  // the files still rendered.
  const exportsAdded = Promise.resolve(exports).then((files) => {
    for (const name of EXPORT_FILE_NAMES) addToZip(name, files[name]);
  });
  exportsAdded.catch(() => undefined);
  for (const name of RENDER_ORDER) {
    addToZip(name, await render[name]());
    await new Promise((resolve) => setImmediate(resolve));
  }
  await exportsAdded;
  const bytes = await zip.bytes(PACK_FILE_NAMES);
  const files = new Map(PACK_FILE_NAMES.map((name) => [name, zipped.get(name)!]));
  return { zip: bytes, files, inputs, ledger };
}
