/**
 * MEXC's exports (Orders → Spot Orders → Trade History → Export, and Wallets → Deposit / Withdrawal
 * history → Export): MEXC gives no single statement of the account, so three files are read, each
 * recognised by its header:
 *
 * - Trade History, `UID,Pairs,Time,Side,Filled Price,Executed Amount,Total,Fee,Role` (older files without
 *   `UID`): one row per fill. A fill of TAO against USDT, BTC or another is a buy or a sell at the day's
 *   TAO/GBP rate (`day-rate-records.ts`); `Fee` is written with its currency (`0.0042USDT`), or a bare
 *   number in older files, in the pair's quote currency.
 * - Deposit History, `UID,Status,Time,Crypto,Network,Deposit Amount,TxID,Progress`: a TAO deposit.
 * - Withdrawal History, `UID,Status,Time,Crypto,Network,Request Amount,Withdrawal Address,memo,TxID,
 *   Trading Fee,Settlement Amount,Withdrawal Descriptions`: a TAO withdrawal of the `Settlement Amount`
 *   (what reaches the chain, and so what pairs with the chain's transfer), `Trading Fee` its fee in TAO.
 *
 * The Order History export has no fees and is refused, naming the Trade History. Rewards from MEXC's earn
 * products are in none of these files: give them in a plain-format file.
 *
 * `Time` is written without a zone; it is read as UTC, as BittyTax's converter reads it (a time with an
 * offset is read with it). Rows of other tokens are refused at their line; a deposit or withdrawal that did
 * not complete (its status failed, cancelled or rejected) moved nothing and books nothing; one still pending
 * is refused until it completes.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import type { RecordRow } from '../record-row.js';
import { readAmount } from '../record-values.js';
import {
  type Draft,
  movement,
  otherToken,
  pooled,
  quantity,
  quotedTrade,
  timeAt,
} from './day-rate-records.js';
import type { ExchangeExport } from './exchange-reader.js';

/** MEXC's quote currencies, for a pair written without a separator (`TAOUSDT`). */
const QUOTES = ['USDT', 'USDC', 'USDE', 'USD1', 'BTC', 'ETH', 'EUR', 'BRL'];

export const MEXC_TRADES: ExchangeExport = {
  format: 'mexc',
  title: 'MEXC trade history',
  columns: ['UID', 'Pairs', 'Time', 'Side', 'Filled Price', 'Executed Amount', 'Total', 'Fee', 'Role'],
  required: ['pairs', 'time', 'side', 'filled price', 'executed amount', 'total', 'fee', 'role'],
  numeric: new Set(['filled price', 'executed amount', 'total']),
  rowIds: false,
  read: (rows, source) => readEach(rows, source, readTrade),
};

export const MEXC_DEPOSITS: ExchangeExport = {
  format: 'mexc',
  title: 'MEXC deposit history',
  columns: ['UID', 'Status', 'Time', 'Crypto', 'Network', 'Deposit Amount', 'TxID', 'Progress'],
  required: ['status', 'time', 'crypto', 'network', 'deposit amount', 'txid'],
  numeric: new Set(['deposit amount']),
  read: (rows, source) => readEach(rows, source, (row) => readMove(row, 'deposit')),
};

export const MEXC_WITHDRAWALS: ExchangeExport = {
  format: 'mexc',
  title: 'MEXC withdrawal history',
  columns: [
    'UID',
    'Status',
    'Time',
    'Crypto',
    'Network',
    'Request Amount',
    'Withdrawal Address',
    'memo',
    'TxID',
    'Trading Fee',
    'Settlement Amount',
    'Withdrawal Descriptions',
  ],
  required: ['status', 'time', 'crypto', 'request amount', 'trading fee', 'settlement amount'],
  numeric: new Set(['request amount', 'trading fee', 'settlement amount']),
  read: (rows, source) => readEach(rows, source, (row) => readMove(row, 'withdrawal')),
};

/** MEXC's Order History: no fees. */
export const MEXC_OTHER_EXPORTS = [
  {
    header: ['pairs', 'time', 'type', 'direction', 'average filled price', 'filled quantity', 'order amount'],
    reason:
      "this is MEXC's Order History, which has no fees: download the Trade History instead (Orders, Spot Orders, Trade History, Export), with the Deposit and Withdrawal histories (Wallets, History, Export)",
  },
];

function readEach(
  rows: readonly RecordRow[],
  source: string,
  read: (row: RecordRow) => Draft | undefined,
): OwnRecord[] {
  const records: OwnRecord[] = [];
  for (const row of rows) {
    const at = timeAt(row, 'time', 'Z');
    if (at === undefined) continue;
    const draft = read(row);
    if (draft && !row.failed) records.push({ source, line: row.line, at, wallet: 'MEXC', ...draft });
  }
  return records;
}

function readTrade(row: RecordRow): Draft | undefined {
  const pair = splitPair(row.text('pairs'));
  if (pair === null) {
    row.problem('pairs', `"${row.text('pairs').slice(0, 20)}" is not a pair read here (TAO_USDT, TAOUSDT)`);
    return undefined;
  }
  const [base, quote] = pair;
  if (pooled(base) === null) {
    row.problem('pairs', otherToken(base, 'MEXC'));
    return undefined;
  }
  const side = row.text('side').toLowerCase();
  if (side !== 'buy' && side !== 'sell') {
    row.problem('side', `"${row.text('side').slice(0, 20)}" is not read: a fill is BUY or SELL`);
    return undefined;
  }
  const amount = quantity(row, 'executed amount');
  const total = quantity(row, 'total');
  const fee = readFee(row, quote);
  if (amount === undefined || total === undefined || fee === undefined) return undefined;
  return quotedTrade(side, { asset: base, quantity: amount }, { asset: quote, quantity: total }, fee);
}

/** `0.0042USDT`, or a bare number in the quote currency; null when none. */
function readFee(row: RecordRow, quote: string): { asset: string; quantity: Decimal } | null | undefined {
  const text = row.text('fee');
  const match = /^(\d+(?:\.\d+)?)\s*([A-Za-z][A-Za-z0-9]*)?$/.exec(text);
  if (text === '') return null;
  const read = match ? readAmount(match[1]!, false) : null;
  if (!match || !read?.ok) {
    row.problem(
      'fee',
      `"${text.slice(0, 30)}" is not a fee read here: an amount and its currency (0.0042USDT)`,
    );
    return undefined;
  }
  const value = read.value ?? new CgtDecimal(0);
  return value.isZero() ? null : { asset: (match[2] ?? quote).toUpperCase(), quantity: value };
}

function splitPair(text: string): [string, string] | null {
  const pair = text.toUpperCase();
  if (pair.includes('_')) {
    const [base, quote] = pair.split('_', 2);
    return base && quote ? [base, quote] : null;
  }
  const quote = QUOTES.find((q) => pair.endsWith(q) && pair.length > q.length);
  return quote ? [pair.slice(0, -quote.length), quote] : null;
}

const NOT_DONE = /fail|cancel|reject/i;
const DONE = /success|credited|complete/i;

function readMove(row: RecordRow, kind: 'deposit' | 'withdrawal'): Draft | undefined {
  const status = row.text('status');
  if (NOT_DONE.test(status)) return undefined;
  if (!DONE.test(status)) {
    row.problem(
      'status',
      `"${status.slice(0, 30)}": only a completed ${kind} is read; download the history again once it completes, or remove this row`,
    );
    return undefined;
  }
  const code = row.text('crypto').toUpperCase();
  if (pooled(code) === null) {
    row.problem('crypto', otherToken(code, 'MEXC'));
    return undefined;
  }
  if (kind === 'deposit') {
    const amount = quantity(row, 'deposit amount');
    return amount === undefined ? undefined : movement('deposit', code, amount, null);
  }
  const requested = quantity(row, 'request amount');
  const fee = readAmount(row.text('trading fee'), false);
  if (!fee.ok) row.problem('trading fee', fee.reason);
  if (requested === undefined || !fee.ok) return undefined;
  const paid = fee.value ?? new CgtDecimal(0);
  // What reached the chain: the settlement, or the request less the fee when the file leaves it empty.
  const settled =
    row.text('settlement amount') === '' ? requested.minus(paid) : quantity(row, 'settlement amount');
  if (settled === undefined) return undefined;
  if (!settled.plus(paid).eq(requested)) {
    row.problem(
      'settlement amount',
      `${settled} sent and ${paid} fee do not make the ${requested} requested: give this withdrawal in a plain-format file and remove it here`,
    );
    return undefined;
  }
  return movement('withdrawal', code, settled, paid);
}
