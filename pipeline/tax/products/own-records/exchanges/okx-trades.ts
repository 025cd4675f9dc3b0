/**
 * OKX's trading account history (Assets → Order center / Bills → Trading account → Download, "Trading
 * account history"): `id,Order id,Time,Trade Type,Symbol,Action,Amount,Trading Unit,Filled Price,PnL,Fee,
 * Fee Unit,Position Change,Position Balance,Balance Change,Balance,Balance Unit`, one row per currency an
 * order moved. The rows of one `Order id` with `Trade Type` `Spot` are one trade: the `Buy` row the currency
 * received, the `Sell` row the currency given, each `Balance Change` what entered or left that balance after
 * the fee, and `Fee` (negative) in `Fee Unit` the fee. TAO against USDT, BTC or any other is a buy or a sell
 * at the day's TAO/GBP rate (`day-rate-records.ts`). `Transfer` rows (to and from the funding account) book
 * nothing; derivatives and margin are refused at their line, and so are trades of other tokens.
 *
 * OKX writes above the header a line naming the account's time zone (`UID:…,Account Type:…,Time Zone:UTC+8`),
 * and its times in that zone without saying so again: the zone is taken from that line (`okxClock`), or from
 * the `Time` column's header where a buyer has named it there (`Time(UTC+08:00)`); with neither the file is
 * refused, since a wrong clock would move rows across UK days. The older form of this file, which names a `Unit` column twice, is refused by the upload's
 * CSV reader (a column named twice).
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import type { RecordRow } from '../record-row.js';
import { type Draft, otherToken, pooled, quotedTrade, signedAmount, timeAt } from './day-rate-records.js';
import type { ExchangeExport } from './exchange-reader.js';
import { okxClock } from './okx-funding.js';

export const OKX_TRADES: ExchangeExport = {
  format: 'okx',
  title: 'OKX trading account history',
  columns: [
    'id',
    'Order id',
    'Trade Type',
    'Symbol',
    'Action',
    'Amount',
    'Trading Unit',
    'Filled Price',
    'PnL',
    'Fee',
    'Fee Unit',
    'Position Change',
    'Position Balance',
    'Balance Change',
    'Balance',
    'Balance Unit',
  ],
  required: [
    'order id',
    'trade type',
    'symbol',
    'action',
    'fee',
    'fee unit',
    'balance change',
    'balance unit',
  ],
  numeric: new Set([
    'amount',
    'filled price',
    'pnl',
    'fee',
    'position change',
    'position balance',
    'balance change',
    'balance',
  ]),
  read: readOkxTrades,
};

interface Leg {
  row: RecordRow;
  at: Date;
  action: string;
  code: string;
  change: Decimal;
  fee: Decimal;
  feeCode: string;
}

function readOkxTrades(rows: readonly RecordRow[], source: string, titles: readonly string[]): OwnRecord[] {
  const clock = okxClock(rows, titles);
  if (clock === null) return [];
  const orders = new Map<string, Leg[]>();
  for (const row of rows) {
    const tradeType = row.text('trade type').toLowerCase();
    if (tradeType === 'transfer') continue;
    if (tradeType !== 'spot') {
      row.problem(
        'trade type',
        `"${row.text('trade type').slice(0, 30)}" is not read: OKX trading account rows read are Spot trades and Transfer; give this one in a plain-format file if it moved TAO, and remove it here`,
      );
      continue;
    }
    const at = timeAt(row, clock.column, clock.offset);
    const change = signedAmount(row, 'balance change');
    const fee = signedAmount(row, 'fee');
    if (at === undefined || change === undefined || fee === undefined) continue;
    const leg: Leg = {
      row,
      at,
      action: row.text('action').toLowerCase(),
      code: row.text('balance unit').toUpperCase(),
      change,
      fee: fee.abs(),
      feeCode: row.text('fee unit').toUpperCase(),
    };
    const id = row.text('order id');
    orders.set(id, [...(orders.get(id) ?? []), leg]);
  }
  const records: OwnRecord[] = [];
  for (const legs of orders.values()) {
    const draft = readOrder(legs);
    const first = legs[0]!;
    if (draft) records.push({ source, line: first.row.line, at: first.at, wallet: 'OKX', ...draft });
  }
  return records.sort((a, b) => a.line - b.line);
}

/** One order's rows: the currency received (`Buy`), the one given (`Sell`), the fee in one of them. */
function readOrder(legs: readonly Leg[]): Draft | undefined {
  const first = legs[0]!.row;
  const received = legs.filter((l) => l.action === 'buy');
  const given = legs.filter((l) => l.action === 'sell');
  const fees = legs.filter((l) => !l.fee.isZero());
  const one = (ls: readonly Leg[]) => ls.length > 0 && new Set(ls.map((l) => l.code)).size === 1;
  if (
    !one(received) ||
    !one(given) ||
    received.length + given.length !== legs.length ||
    new Set(fees.map((l) => l.feeCode)).size > 1
  ) {
    first.problem(
      'order id',
      `the rows of order ${first.text('order id').slice(0, 30)} do not show one currency bought (Buy) and one sold (Sell): remove them and give the trade in a plain-format file`,
    );
    return undefined;
  }
  // Balance Change is after the fee: what was received is its change plus a fee taken from it, what was
  // given its change less a fee taken from it.
  const feeCode = fees[0]?.feeCode ?? '';
  const feeTotal = fees.reduce((sum, l) => sum.plus(l.fee), new CgtDecimal(0));
  const moved = (ls: readonly Leg[]) => ls.reduce((sum, l) => sum.plus(l.change.abs()), new CgtDecimal(0));
  const bought = {
    asset: received[0]!.code,
    quantity: moved(received).plus(feeCode === received[0]!.code ? feeTotal : 0),
  };
  const sold = {
    asset: given[0]!.code,
    quantity: moved(given).minus(feeCode === given[0]!.code ? feeTotal : 0),
  };
  const fee = fees.length === 0 ? null : { asset: feeCode, quantity: feeTotal };
  if (pooled(bought.asset) !== null) return quotedTrade('buy', bought, sold, fee);
  if (pooled(sold.asset) !== null) return quotedTrade('sell', sold, bought, fee);
  first.problem('symbol', otherToken(first.text('symbol'), 'OKX'));
  return undefined;
}
