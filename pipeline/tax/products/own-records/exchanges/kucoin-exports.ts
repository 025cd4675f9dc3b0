/**
 * KuCoin's exports (Orders → Export / "Download Center": a zip of one CSV per kind of history). KuCoin
 * gives no single statement that ties a trade's two sides together, so four of its files are read, each
 * recognised by its header:
 *
 * - Spot Orders_Filled Orders: `UID,Account Type,Order ID,…,Symbol,Side,…,Filled Amount,Filled Volume,
 *   Filled Volume (USDT),Filled Time(UTC+08:00),Fee,Fee Currency,…`: an order of TAO against USDT, BTC or
 *   another is a buy or a sell at the day's TAO/GBP rate (`day-rate-records.ts`), its fee in `Fee Currency`.
 * - Deposit_Withdrawal History, deposits (`UID,Account Type,Time(UTC+08:00),Coin,Amount,Fee,…,Transfer
 *   Network,Status,Remarks`) and withdrawals (the same with `Withdrawal Address/Account`): a TAO deposit or
 *   withdrawal of `Amount`, `Fee` its fee in TAO.
 * - Earn Orders_Profit History (`…,Earnings Coin,Earnings Type,Remarks,Amount,…`): TAO earned is staking
 *   income at the day's rate.
 *
 * The Account History (one row per balance change, a trade's two sides tied by nothing but their time) is
 * refused, naming these files.
 *
 * Clock: KuCoin writes its times in the time zone the account chose, and says which in the header
 * (`Filled Time(UTC+08:00)`, `Time(UTC)`): the header's offset is applied. A header without one (older
 * files) is KuCoin's own clock, UTC+08:00 (as BittyTax's converter reads it). A report with no rows holds
 * one row "No matching records found.", which books nothing. A deposit or withdrawal that did not complete
 * (failed, cancelled) books nothing, one still processing is refused; an order is read for what it filled,
 * whatever its status. Rows of other tokens are refused at their line.
 */
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import type { RecordRow } from '../record-row.js';
import {
  type Draft,
  isMoney,
  movement,
  otherToken,
  pooled,
  presentColumn,
  quantity,
  quotedTrade,
  reward,
  signedAmount,
  timeAt,
  zonedColumns,
} from './day-rate-records.js';
import type { ExchangeExport } from './exchange-reader.js';

/** KuCoin's own clock, for a header that names none. */
const KUCOIN_CLOCK = '+08:00';

export const KUCOIN_TRADES: ExchangeExport = {
  format: 'kucoin',
  title: 'KuCoin spot filled orders',
  columns: [
    'UID',
    'Account Type',
    'Order ID',
    'Symbol',
    'Side',
    'Order Type',
    'Order Price',
    'Order Amount',
    'Avg. Filled Price',
    'Filled Amount',
    'Filled Volume',
    'Filled Volume (USDT)',
    'Fee',
    'Fee Currency',
    'Tax',
    'Status',
  ],
  required: ['uid', 'order id', 'symbol', 'side', 'filled amount', 'filled volume', 'fee', 'fee currency'],
  numeric: new Set([
    'order price',
    'order amount',
    'avg. filled price',
    'filled amount',
    'filled volume',
    'filled volume (usdt)',
    'fee',
    'tax',
  ]),
  read: (rows, source) => readEach(rows, source, 'filled time', readTrade),
};

const MOVE_COLUMNS = [
  'UID',
  'Account Type',
  'Coin',
  'Amount',
  'Fee',
  'Hash',
  'Transfer Network',
  'Status',
  'Remarks',
];

export const KUCOIN_WITHDRAWALS: ExchangeExport = {
  format: 'kucoin',
  title: 'KuCoin withdrawal history',
  columns: [...MOVE_COLUMNS, 'Withdrawal Address/Account'],
  required: ['uid', 'account type', 'coin', 'amount', 'fee', 'withdrawal address/account', 'status'],
  numeric: new Set(['amount', 'fee']),
  read: (rows, source) => readEach(rows, source, 'time', (row) => readMove(row, 'withdrawal')),
};

export const KUCOIN_DEPOSITS: ExchangeExport = {
  format: 'kucoin',
  title: 'KuCoin deposit history',
  columns: [...MOVE_COLUMNS, 'Deposit Address'],
  required: ['uid', 'account type', 'coin', 'amount', 'fee', 'transfer network', 'status'],
  numeric: new Set(['amount', 'fee']),
  read: (rows, source) => readEach(rows, source, 'time', (row) => readMove(row, 'deposit')),
};

export const KUCOIN_EARN: ExchangeExport = {
  format: 'kucoin',
  title: 'KuCoin earn profit history',
  columns: [
    'UID',
    'Account Type',
    'Order ID',
    'Staked Coin',
    'Product Type',
    'Product Name',
    'Earnings Coin',
    'Earnings Type',
    'Remarks',
    'Amount',
    'Amount（USDT）',
    'Fee',
  ],
  required: ['uid', 'staked coin', 'product type', 'earnings coin', 'earnings type', 'amount', 'fee'],
  numeric: new Set(['amount', 'amount（usdt）', 'fee']),
  read: (rows, source) => readEach(rows, source, 'time', readEarning),
};

export const KUCOIN_OTHER_EXPORTS = [
  {
    header: ['uid', 'account type', 'currency', 'side', 'amount', 'fee', 'remark'],
    reason:
      "this is KuCoin's Account History, which does not tie a trade's two sides together: download from Orders, Export the Spot Orders (Filled Orders), Deposit/Withdrawal History and Earn Profit History files instead, and give each of them",
  },
];

const EMPTY_REPORT = 'no matching records found.';
const NOT_DONE = /fail|cancel|reject/i;
const DONE = /^(success|succeeded|done|deal|filled)$/i;

function readEach(
  rows: readonly RecordRow[],
  source: string,
  timeBase: string,
  read: (row: RecordRow) => Draft | undefined,
): OwnRecord[] {
  const filled = rows.filter((row) => row.text('uid').toLowerCase() !== EMPTY_REPORT);
  const clock = presentColumn(filled, zonedColumns(timeBase, KUCOIN_CLOCK));
  const records: OwnRecord[] = [];
  for (const row of filled) {
    if (clock === null) {
      row.problem(
        null,
        `has no ${timeBase} column: the file's header names its time as "${timeBase}(UTC+08:00)"`,
      );
      continue;
    }
    const at = timeAt(row, clock.column, clock.offset);
    if (at === undefined) continue;
    const draft = read(row);
    if (draft && !row.failed) records.push({ source, line: row.line, at, wallet: 'KuCoin', ...draft });
  }
  return records;
}

/** True when the row is complete; false (nothing booked) when it did not complete; refused otherwise. */
function completed(row: RecordRow, what: string): boolean {
  const status = row.text('status');
  if (status === '' || DONE.test(status)) return true;
  if (!NOT_DONE.test(status))
    row.problem(
      'status',
      `"${status.slice(0, 30)}": only a completed ${what} is read; download the file again once it completes, or remove this row`,
    );
  return false;
}

function readTrade(row: RecordRow): Draft | undefined {
  // What was filled moved, whatever became of the rest of the order (a part-filled order cancelled after):
  // the status is not asked; an order with nothing filled moved nothing.
  const filled = signedAmount(row, 'filled amount');
  if (filled === undefined || filled.isZero()) return undefined;
  const [base = '', quote = ''] = row.text('symbol').toUpperCase().split('-');
  if (base === '' || quote === '') {
    row.problem('symbol', `"${row.text('symbol').slice(0, 20)}" is not a pair read here (TAO-USDT)`);
    return undefined;
  }
  if (pooled(base) === null) {
    row.problem('symbol', otherToken(base, 'KuCoin'));
    return undefined;
  }
  const side = row.text('side').toLowerCase();
  if (side !== 'buy' && side !== 'sell') {
    row.problem('side', `"${row.text('side').slice(0, 20)}" is not read: an order is BUY or SELL`);
    return undefined;
  }
  const amount = quantity(row, 'filled amount');
  const volume = quantity(row, 'filled volume');
  const fee = signedAmount(row, 'fee');
  if (amount === undefined || volume === undefined || fee === undefined) return undefined;
  const feeCode = row.text('fee currency').toUpperCase();
  if (!fee.isZero() && feeCode === '') {
    row.problem('fee currency', 'is empty: name the currency of the fee');
    return undefined;
  }
  const paid = fee.isZero() ? null : { asset: feeCode, quantity: fee.abs() };
  return quotedTrade(side, { asset: base, quantity: amount }, { asset: quote, quantity: volume }, paid);
}

function readMove(row: RecordRow, kind: 'deposit' | 'withdrawal'): Draft | undefined {
  if (!completed(row, kind)) return undefined;
  const code = row.text('coin').toUpperCase();
  if (pooled(code) === null) {
    if (!isMoney(code)) row.problem('coin', otherToken(code, 'KuCoin'));
    return undefined;
  }
  const amount = quantity(row, 'amount');
  const fee = signedAmount(row, 'fee');
  if (amount === undefined || fee === undefined) return undefined;
  return movement(kind, code, amount, fee.abs());
}

function readEarning(row: RecordRow): Draft | undefined {
  const code = row.text('earnings coin').toUpperCase();
  if (pooled(code) === null) {
    row.problem('earnings coin', otherToken(code, 'KuCoin'));
    return undefined;
  }
  const amount = quantity(row, 'amount');
  const fee = signedAmount(row, 'fee');
  if (amount === undefined || fee === undefined) return undefined;
  if (!fee.eq(new CgtDecimal(0))) {
    row.problem(
      'fee',
      `an earning with a fee (${fee.abs()}) is not read: give it in a plain-format file and remove it here`,
    );
    return undefined;
  }
  return reward(code, amount);
}
