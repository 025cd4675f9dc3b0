/**
 * Bybit's account change details (Account → Data Export → Transaction Log, "Account Change Details"), one
 * file per account, each recognised by its header:
 *
 * - the Funding account (`Uid,Date & Time(UTC),Coin,QTY,Type,Account Balance,Description`; older files
 *   without `Uid`), where deposits, withdrawals and Bybit Earn live: `Deposit` and `Withdrawal` of TAO are a
 *   deposit and a withdrawal of `QTY`; `Earn` rows whose description is an interest, yield or reward
 *   distribution are staking income at the day's TAO/GBP rate (`day-rate-records.ts`), and earn
 *   subscriptions and redemptions, like `Transfer` rows between the buyer's own Bybit accounts, book
 *   nothing.
 * - the Unified Trading account (`Uid,Currency,Contract,Type,Direction,Quantity,Position,Filled Price,
 *   Funding,Fee Paid,Cash Flow,Change,Wallet Balance,Action,Time(UTC)`; older files add `Fee Rate`, `Trade
 *   ID`, `Order ID`), where spot trades are: a `TRADE` of a spot pair (`TAOUSDT`) is written as one row per
 *   currency, tied by their contract, direction, quantity, price and time; `Cash Flow` is what entered or
 *   left that currency before the fee, `Fee Paid` the fee taken in it. TAO against USDT, BTC or any other is
 *   a buy or a sell at the day's TAO/GBP rate. `TRANSFER_IN`, `TRANSFER_OUT` (to and from the Funding
 *   account) book nothing; the funding account's own rows say what arrived or left Bybit.
 *
 * Anything else (derivatives, settlement, interest on borrowing, bonuses) and every row of another token is
 * refused at its line. Both files say their clock in their header: UTC.
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
} from './day-rate-records.js';
import type { ExchangeExport } from './exchange-reader.js';

export const BYBIT_FUNDING: ExchangeExport = {
  format: 'bybit',
  title: 'Bybit funding account change details',
  columns: ['Uid', 'Date & Time(UTC)', 'Coin', 'QTY', 'Type', 'Account Balance', 'Description'],
  required: ['date & time(utc)', 'coin', 'qty', 'type', 'account balance', 'description'],
  numeric: new Set(['qty', 'account balance']),
  read: readFunding,
};

export const BYBIT_TRADING: ExchangeExport = {
  format: 'bybit',
  title: 'Bybit unified trading account change details',
  columns: [
    'Uid',
    'Currency',
    'Contract',
    'Type',
    'Direction',
    'Quantity',
    'Position',
    'Filled Price',
    'Funding',
    'Fee Paid',
    'Cash Flow',
    'Change',
    'Wallet Balance',
    'Action',
    'Time(UTC)',
  ],
  required: [
    'currency',
    'contract',
    'type',
    'direction',
    'quantity',
    'filled price',
    'fee paid',
    'cash flow',
    'change',
  ],
  numeric: new Set([
    'quantity',
    'position',
    'filled price',
    'funding',
    'fee paid',
    'cash flow',
    'change',
    'wallet balance',
  ]),
  read: readTrading,
};

const EARN_INCOME = /interest|yield|reward|distribution/i;
const EARN_INTERNAL = /subscription|redemption|redeem|stake|unstake/i;

function readFunding(rows: readonly RecordRow[], source: string): OwnRecord[] {
  const records: OwnRecord[] = [];
  for (const row of rows) {
    const at = timeAt(row, 'date & time(utc)', 'Z');
    const draft = at === undefined ? undefined : readFundingRow(row);
    if (at !== undefined && draft && !row.failed)
      records.push({ source, line: row.line, at, wallet: 'Bybit', ...draft });
  }
  return records;
}

function readFundingRow(row: RecordRow): Draft | undefined {
  const type = row.text('type').toLowerCase();
  const description = row.text('description');
  if (
    type.includes('transfer') ||
    (type === 'earn' && EARN_INTERNAL.test(description) && !EARN_INCOME.test(description))
  )
    return undefined;
  const earned = type === 'earn' && EARN_INCOME.test(description);
  if (type !== 'deposit' && type !== 'withdrawal' && !earned) {
    row.problem(
      'type',
      `"${(description === row.text('type') ? description : `${row.text('type')} ${description}`).trim().slice(0, 60)}" is not read: Bybit funding rows read are Deposit, Withdrawal, Earn (interest or reward distributions, subscriptions and redemptions) and transfers between Bybit's own accounts; give this one in a plain-format file if it moved TAO, and remove it here`,
    );
    return undefined;
  }
  const code = row.text('coin').toUpperCase();
  const qty = signedAmount(row, 'qty');
  if (qty === undefined) return undefined;
  if (pooled(code) === null) {
    if (isMoney(code) && !earned) return undefined;
    row.problem('coin', otherToken(code, 'Bybit'));
    return undefined;
  }
  if (earned) {
    if (qty.isPositive()) return reward(code, qty);
    row.problem(
      'qty',
      'an earn distribution that is not positive is not read: remove it, or give it in a plain-format file',
    );
    return undefined;
  }
  const out = type === 'withdrawal';
  if (qty.isZero() || qty.isNegative() !== out) {
    row.problem(
      'qty',
      `a ${type} whose QTY is ${out ? 'not negative' : 'not positive'} (a reversed one) is not read: remove it and its original row`,
    );
    return undefined;
  }
  return movement(out ? 'withdrawal' : 'deposit', code, qty.abs(), null);
}

interface Leg {
  row: RecordRow;
  at: Date;
  code: string;
  cash: Decimal;
  fee: Decimal;
}

const INTERNAL_TYPES = new Set(['transfer_in', 'transfer_out', 'transferin', 'transferout']);

function readTrading(rows: readonly RecordRow[], source: string): OwnRecord[] {
  const fills = new Map<string, Leg[]>();
  // Older files name the column `Time`, in UTC too.
  const timeColumn = rows.some((row) => row.text('time(utc)') !== '') ? 'time(utc)' : 'time';
  for (const row of rows) {
    const type = row.text('type').toLowerCase();
    if (INTERNAL_TYPES.has(type)) continue;
    if (type !== 'trade') {
      row.problem(
        'type',
        `"${row.text('type').slice(0, 30)}" is not read: Bybit unified trading account rows read are TRADE (spot) and TRANSFER_IN/TRANSFER_OUT; give this one in a plain-format file if it moved TAO, and remove it here`,
      );
      continue;
    }
    const at = timeAt(row, timeColumn, 'Z');
    const cash = signedAmount(row, 'cash flow');
    const fee = signedAmount(row, 'fee paid');
    if (at === undefined || cash === undefined || fee === undefined) continue;
    const key = ['contract', 'direction', 'quantity', 'filled price'].map((c) => row.text(c)).join('\u0000');
    const fill = `${key}\u0000${at.toISOString()}`;
    fills.set(fill, [
      ...(fills.get(fill) ?? []),
      { row, at, code: row.text('currency').toUpperCase(), cash, fee: fee.abs() },
    ]);
  }
  const records: OwnRecord[] = [];
  for (const legs of fills.values()) {
    const first = legs[0]!;
    const draft = readFill(legs);
    if (draft) records.push({ source, line: first.row.line, at: first.at, wallet: 'Bybit', ...draft });
  }
  return records.sort((a, b) => a.line - b.line);
}

/** The rows of one spot fill: a currency received, one given, the fee in either. */
function readFill(legs: readonly Leg[]): Draft | undefined {
  const first = legs[0]!.row;
  const received = legs.filter((l) => l.cash.isPositive());
  const given = legs.filter((l) => l.cash.isNegative());
  const fees = legs.filter((l) => !l.fee.isZero());
  // Two fills alike in the same second are one group: their rows are summed by currency.
  const one = (ls: readonly Leg[]) => ls.length > 0 && new Set(ls.map((l) => l.code)).size === 1;
  if (!one(received) || !one(given) || new Set(fees.map((l) => l.code)).size > 1) {
    first.problem(
      'contract',
      `the rows of the ${first.text('contract').slice(0, 20)} trade at ${legs[0]!.at.toISOString().slice(0, 19)} do not show one currency received and one given: a derivatives trade is not read; give it in a plain-format file if it moved TAO, and remove its rows here`,
    );
    return undefined;
  }
  const sum = (ls: readonly Leg[], of: (l: Leg) => Decimal) =>
    ls.reduce((s, l) => s.plus(of(l)), new CgtDecimal(0));
  const bought = { asset: received[0]!.code, quantity: sum(received, (l) => l.cash) };
  const sold = { asset: given[0]!.code, quantity: sum(given, (l) => l.cash.abs()) };
  const fee = fees.length === 0 ? null : { asset: fees[0]!.code, quantity: sum(fees, (l) => l.fee) };
  if (pooled(bought.asset) !== null) return quotedTrade('buy', bought, sold, fee);
  if (pooled(sold.asset) !== null) return quotedTrade('sell', sold, bought, fee);
  first.problem('contract', otherToken(first.text('contract'), 'Bybit'));
  return undefined;
}
