/**
 * Gate's account book (Wallet → Account statement / "Account Book" → Export, the spot account), one row per
 * change of one currency's balance: `no,time,action_desc,action_data,type,change_amount,amount,total`, where
 * `type` is the currency, `change_amount` the signed change and `action_data` the order or transfer the
 * row belongs to. `time` is written without a zone and read as UTC (BittyTax's converter reads it so); a time
 * with an offset is read with it.
 *
 * - `Order Filled` (`Order Fullfilled`, `Order Placed`) and `Trading Fees` (`Trade Fee`): the rows of one
 *   `action_data` are one trade, a currency received, one given and the fee. TAO against USDT, BTC or any
 *   other is booked at the day's TAO/GBP rate (`day-rate-records.ts`); against GBP for the pounds.
 * - `Deposits`, `Withdrawals` (`Deposit`, `withdraw`) of TAO: a deposit or withdrawal. Gate's book writes a
 *   withdrawal as one row, its fee not apart: the row is read as the withdrawal with its fee inside
 *   (`feeInside`), and what the chain received is the amount sent; the difference is the fee.
 * - `HODL Interest`, `Interest Income` (Gate's earn products) of TAO: staking income at the day's rate.
 * - Anything else (airdrops, referral rebates, dust swaps, margin, futures) is refused at its line, and so is
 *   every row of another token: the pack pools TAO and subnet alpha only.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import type { RecordRow } from '../record-row.js';
import {
  type Draft,
  isMoney,
  movement,
  otherToken,
  pooled,
  quotedTrade,
  reward,
  signedAmount,
  timeAt,
  withdrawalWithFeeInside,
} from './day-rate-records.js';
import type { ExchangeExport } from './exchange-reader.js';

const COLUMNS = [
  'no',
  'time',
  'action_desc',
  'action_data',
  'type',
  'change_amount',
  'amount',
  'total',
] as const;

const TRADE = new Set(['order filled', 'order fullfilled', 'order placed']);
const TRADE_FEE = new Set(['trading fees', 'trade fee']);
const DEPOSIT = new Set(['deposits', 'deposit']);
const WITHDRAWAL = new Set(['withdrawals', 'withdraw', 'withdrawal']);
const EARN = new Set(['hodl interest', 'interest income']);

export const GATE_ACCOUNT_BOOK: ExchangeExport = {
  format: 'gate',
  title: 'Gate account book',
  columns: COLUMNS,
  required: ['time', 'action_desc', 'action_data', 'type', 'change_amount'],
  numeric: new Set(['change_amount', 'amount', 'total']),
  read: readGateAccountBook,
};

interface Entry {
  row: RecordRow;
  at: Date;
  desc: string;
  code: string;
  change: Decimal;
}

function readGateAccountBook(rows: readonly RecordRow[], source: string): OwnRecord[] {
  const entries: Entry[] = [];
  for (const row of rows) {
    const at = timeAt(row, 'time', 'Z');
    const change = signedAmount(row, 'change_amount');
    const code = row.text('type').toUpperCase();
    if (code === '') row.problem('type', 'is empty: each row names its currency');
    if (at === undefined || change === undefined || row.failed) continue;
    entries.push({ row, at, desc: row.text('action_desc').toLowerCase(), code, change });
  }
  const orders = new Map<string, Entry[]>();
  for (const e of entries) {
    if (!TRADE.has(e.desc) && !TRADE_FEE.has(e.desc)) continue;
    const id = e.row.text('action_data');
    orders.set(id, [...(orders.get(id) ?? []), e]);
  }
  const records: OwnRecord[] = [];
  const done = new Set<Entry>();
  for (const e of entries) {
    if (done.has(e)) continue;
    const base = { source, line: e.row.line, at: e.at, wallet: 'Gate' };
    const add = (draft: Draft | undefined) => {
      if (draft) records.push({ ...base, ...draft });
    };
    if (TRADE.has(e.desc) || TRADE_FEE.has(e.desc)) {
      const group = orders.get(e.row.text('action_data'))!;
      for (const g of group) done.add(g);
      add(readTrade(group));
      continue;
    }
    const known = DEPOSIT.has(e.desc) || WITHDRAWAL.has(e.desc) || EARN.has(e.desc);
    if (!known) {
      e.row.problem(
        'action_desc',
        `"${e.row.text('action_desc').slice(0, 40)}" is not read: Gate account book rows read are Order Filled, Trading Fees, Deposits, Withdrawals, HODL Interest and Interest Income; give this one in a plain-format file if it moved TAO, and remove it here`,
      );
      continue;
    }
    if (pooled(e.code) === null) {
      // Pounds paid in or out move no token.
      if (isMoney(e.code) && !EARN.has(e.desc)) continue;
      e.row.problem('type', otherToken(e.code, 'Gate'));
      continue;
    }
    if (EARN.has(e.desc)) {
      if (!e.change.isPositive())
        e.row.problem(
          'change_amount',
          'an interest row that is not positive is not read: remove it, or give it in a plain-format file',
        );
      else add(reward(e.code, e.change));
      continue;
    }
    const out = WITHDRAWAL.has(e.desc);
    if (e.change.isZero() || e.change.isNegative() !== out) {
      e.row.problem(
        'change_amount',
        `a ${out ? 'withdrawal' : 'deposit'} whose change is ${out ? 'not negative' : 'not positive'} (a reversed one) is not read: remove it and its original row`,
      );
      continue;
    }
    add(
      out
        ? withdrawalWithFeeInside(e.code, e.change.abs())
        : movement('deposit', e.code, e.change.abs(), null),
    );
  }
  return records.sort((a, b) => a.line - b.line);
}

/** The rows of one order: one currency received, one given, and the fee in one currency. */
function readTrade(group: readonly Entry[]): Draft | undefined {
  const first = group[0]!.row;
  const id = first.text('action_data').slice(0, 30);
  const fees = group.filter((e) => TRADE_FEE.has(e.desc) && !e.change.isZero());
  const legs = group.filter((e) => !TRADE_FEE.has(e.desc) && !e.change.isZero());
  const received = legs.filter((e) => e.change.isPositive());
  const given = legs.filter((e) => e.change.isNegative());
  const one = (es: readonly Entry[]) => new Set(es.map((e) => e.code)).size === 1;
  if (!one(received) || !one(given) || (fees.length > 0 && !one(fees))) {
    first.problem(
      'action_data',
      `the rows of order ${id} do not show one currency received, one given and one fee: remove them and give the trade in a plain-format file`,
    );
    return undefined;
  }
  const sum = (es: readonly Entry[]) => es.reduce((s, e) => s.plus(e.change.abs()), new CgtDecimal(0));
  const bought = { asset: received[0]!.code, quantity: sum(received) };
  const sold = { asset: given[0]!.code, quantity: sum(given) };
  const fee = fees.length === 0 ? null : { asset: fees[0]!.code, quantity: sum(fees) };
  if (pooled(bought.asset) !== null) return quotedTrade('buy', bought, sold, fee);
  if (pooled(sold.asset) !== null) return quotedTrade('sell', sold, bought, fee);
  first.problem(
    'type',
    `order ${id} of ${sold.asset.slice(0, 12)} for ${bought.asset.slice(0, 12)}: ${otherToken(sold.asset, 'Gate')}`,
  );
  return undefined;
}
