/**
 * The pack's files for other tools and for a later revision: `cgt-input.csv` (the chain record's
 * transactions), `bittytax.csv` and `koinly.csv` (the records of every transaction, `exportRecords`). They
 * need the record's transactions only, not the gains: a big pack renders them on a thread of its own while
 * the gains are computed and the other files rendered (`export-thread.ts`); the bytes are the same either way.
 */
import type { CgtTransaction } from '../../../uk-rules/cgt/cgt-types.js';
import { bittytaxCsv } from './bittytax-csv.js';
import { cgtInputCsv } from './cgt-input-csv.js';
import { type ExportCustomer, type ExportEvent, exportRecords } from './export-records.js';
import { koinlyCsv } from './koinly-csv.js';

export const EXPORT_FILE_NAMES = ['cgt-input.csv', 'bittytax.csv', 'koinly.csv'] as const;
export type ExportFileName = (typeof EXPORT_FILE_NAMES)[number];
export type ExportFiles = Record<ExportFileName, Uint8Array>;

export interface ExportFilesInput {
  /** The record's transactions with the buyer's own records combined in (what the gains are computed from). */
  transactions: readonly CgtTransaction[];
  /** The chain record's transactions alone, before the buyer's inputs. */
  chainTransactions: readonly CgtTransaction[];
  /** Every event of the record with the transactions it made. */
  events: readonly ExportEvent[];
  customer: ExportCustomer;
  /** The instant the record opens (a buyer's opening pools stand there). */
  openingAt: Date;
}

/** The wallet the exports name for the order's own coldkeys. */
const COLDKEYS_WALLET = 'Bittensor';

export function renderExportFiles(input: ExportFilesInput): ExportFiles {
  return Object.fromEntries(exportFilesOneByOne(input)) as ExportFiles;
}

/**
 * Each export file as soon as it is rendered, the biggest first: a thread hands each over before rendering the
 * next, so that it is deflated meanwhile. Each has its own buffer (not a slice of Node's shared pool), so that a
 * worker can hand it over.
 */
export function* exportFilesOneByOne(input: ExportFilesInput): Generator<[ExportFileName, Uint8Array]> {
  const records = exportRecords(input.transactions, input.events, input.customer);
  const encoder = new TextEncoder();
  yield ['bittytax.csv', encoder.encode(bittytaxCsv(records, COLDKEYS_WALLET))];
  yield ['koinly.csv', encoder.encode(koinlyCsv(records))];
  yield ['cgt-input.csv', encoder.encode(cgtInputCsv(input.chainTransactions, input.openingAt))];
}
