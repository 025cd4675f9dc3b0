/**
 * An exchange's own export, as the exchange lets a customer download it, recognised by its header and read
 * as a whole: an exchange writes one trade as several rows (Kraken's ledger: one row per asset moved, tied
 * by a reference), so its reader sees every row at once, not one row at a time as the tools' formats are
 * read. Each reader gives the same records as the other formats (`OwnRecord`), and reports every row it
 * does not understand at its line and column; none is left out unsaid.
 */
import type { OwnRecord } from '../customer-inputs.js';
import type { ReportNote, ReportProblem } from '../input-problems.js';
import { RecordRow } from '../record-row.js';
import { checkCells, duplicatesKept, refuseDuplicates, type UploadTable } from '../upload-table.js';
import { BINANCE_TRANSACTIONS } from './binance-transactions.js';
import { BYBIT_FUNDING, BYBIT_TRADING } from './bybit-exports.js';
import { COINBASE_TRANSACTIONS } from './coinbase-transactions.js';
import type { ExchangeFormat } from './exchange-format.js';
import type { ExchangeExport } from './exchange-reader.js';
import { GATE_ACCOUNT_BOOK } from './gate-account-book.js';
import { KRAKEN_LEDGERS } from './kraken-ledgers.js';
import {
  KUCOIN_DEPOSITS,
  KUCOIN_EARN,
  KUCOIN_OTHER_EXPORTS,
  KUCOIN_TRADES,
  KUCOIN_WITHDRAWALS,
} from './kucoin-exports.js';
import { MEXC_DEPOSITS, MEXC_OTHER_EXPORTS, MEXC_TRADES, MEXC_WITHDRAWALS } from './mexc-exports.js';
import { OKX_FUNDING } from './okx-funding.js';
import { OKX_TRADES } from './okx-trades.js';

const EXPORTS: readonly ExchangeExport[] = [
  KRAKEN_LEDGERS,
  BINANCE_TRANSACTIONS,
  COINBASE_TRANSACTIONS,
  GATE_ACCOUNT_BOOK,
  MEXC_TRADES,
  MEXC_DEPOSITS,
  MEXC_WITHDRAWALS,
  OKX_FUNDING,
  OKX_TRADES,
  KUCOIN_TRADES,
  KUCOIN_WITHDRAWALS,
  KUCOIN_DEPOSITS,
  KUCOIN_EARN,
  BYBIT_FUNDING,
  BYBIT_TRADING,
];

/** An exchange's other exports, which lack what the pack needs: the buyer is told which one to download. */
const OTHER_EXPORTS = [
  {
    header: ['txid', 'ordertxid', 'pair', 'vol', 'cost'],
    reason:
      "this is Kraken's Trades export, which has no deposits, withdrawals or rewards: download the Ledgers export instead (History, Export, Ledgers, all fields)",
  },
  ...MEXC_OTHER_EXPORTS,
  ...KUCOIN_OTHER_EXPORTS,
  ...[
    ['date(utc)', 'pair', 'side', 'executed', 'amount', 'fee'],
    ['date(utc)', 'market', 'type', 'amount', 'total', 'fee coin'],
  ].map((header) => ({
    header,
    reason:
      "this is Binance's trade history, which has no deposits, withdrawals or rewards: download the Transaction History instead (Wallet, Transaction History, Export, Transaction History)",
  })),
  {
    header: ['date(utc+0)', 'coin', 'network', 'amount', 'txid', 'status'],
    reason:
      "this is Binance's deposit or withdrawal history, which has no trades or rewards: download the Transaction History instead (Wallet, Transaction History, Export, Transaction History)",
  },
];

/**
 * The records of an exchange export; null when its rows have problems (reported); undefined when the
 * header is not an exchange export's (the tools' formats are tried next).
 */
export function readExchangeExport(
  source: string,
  table: UploadTable,
  report: ReportProblem,
  note: ReportNote,
): { format: ExchangeFormat; records: OwnRecord[] } | null | undefined {
  const found = EXPORTS.find((e) => e.required.every((name) => table.header.includes(name)));
  if (found === undefined) {
    const other = OTHER_EXPORTS.find((e) => e.header.every((name) => table.header.includes(name)));
    if (other === undefined) return undefined;
    report(1, null, other.reason);
    return null;
  }
  const names = new Map(found.columns.map((name) => [name.toLowerCase(), name]));
  const display = (column: string) => names.get(column) ?? column;
  if (!checkCells(table, found.numeric, display, report, found.money)) return null;
  if (found.rowIds === false) duplicatesKept(table, [], note, report);
  else if (!refuseDuplicates(table, report)) return null;
  const rows = table.rows.map((row) => new RecordRow(row, display, report));
  const records = found.read(rows, source, table.titles);
  return rows.some((row) => row.failed) ? null : { format: found.format, records };
}

/** The exchange exports read, for a message that lists the formats. */
export function exchangeExportTitles(): string[] {
  return EXPORTS.map((e) => e.title);
}
