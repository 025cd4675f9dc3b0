/**
 * Kraken's ledger export (History → Export → Ledgers, CSV, all fields): one row per asset moved, with
 * `txid,refid,time,type,subtype,aclass,asset,wallet,amount,fee,balance` (older files lack `wallet` or add
 * `subclass` and `amountusd`; extra columns are ignored). `time` is UTC; `amount` is signed (what entered
 * or left the balance before the fee) and `fee` is the fee taken from that row's asset.
 *
 * - `trade`, `spend`, `receive`: the rows of one `refid` are one trade: what was received and what was
 *   given. TAO (or a subnet's alpha) against GBP is a buy or a sell for the pounds; the fees of its rows are
 *   its fee (a fee in TAO valued at the trade's own price).
 * - `deposit`, `withdrawal`: TAO arriving at or leaving Kraken, its fee taken in TAO; GBP paid in or out
 *   is money moving, not a token, and books nothing.
 * - `staking`, and `earn` with subtype `reward`: staking income.
 * - `transfer` and `earn` between Kraken's own wallets (spot, staking, earn, futures: the subtypes
 *   spottostaking, stakingfromspot, allocation, deallocation, migration and the like) move nothing out of
 *   the buyer's holdings and book nothing; nor does a row without a `txid` (not settled).
 * - Anything else is refused at its line: a trade against another currency (Kraken gives no pounds for it),
 *   another token, margin and the rest.
 *
 * Kraken's ledger gives no value for income or a fee in tokens: they take the price of that day's TAO/GBP
 * trades in the same file (`day-price.ts`), or are refused saying how to give it.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import { pooledAsset } from '../record-asset.js';
import type { RecordRow } from '../record-row.js';
import { readAmount } from '../record-values.js';
import { dayPrice, noDayPrice, pricedTrades } from './day-price.js';
import type { ExchangeExport } from './exchange-reader.js';

const COLUMNS = [
  'txid',
  'refid',
  'time',
  'type',
  'subtype',
  'aclass',
  'subclass',
  'asset',
  'wallet',
  'amount',
  'fee',
  'balance',
  'amountusd',
] as const;

/** Kraken's names of the currencies (`ZGBP`) and its suffixes of staked and earning balances (`TAO.S`). */
const FIAT_CODES: Record<string, string> = {
  ZGBP: 'GBP',
  ZUSD: 'USD',
  ZEUR: 'EUR',
  ZCAD: 'CAD',
  ZAUD: 'AUD',
};
const FIAT = new Set(['GBP', 'USD', 'EUR', 'CAD', 'AUD', 'CHF', 'JPY']);
const BALANCE_SUFFIX = /(\d{2})?\.(S|M|B|F|P|HOLD)$/;

/** Moves between Kraken's own wallets of one account: nothing leaves the buyer's holdings. */
const INTERNAL_SUBTYPES = new Set([
  'spottostaking',
  'stakingtospot',
  'spotfromstaking',
  'stakingfromspot',
  'spottofutures',
  'spotfromfutures',
  'allocation',
  'deallocation',
  'autoallocation',
  'migration',
]);

const TRADE_TYPES = new Set(['trade', 'spend', 'receive']);

interface Entry {
  row: RecordRow;
  at: Date;
  type: string;
  subtype: string;
  /** `TAO`, `SN12-ALPHA`, a fiat code, or Kraken's own name for anything else. */
  asset: string;
  pooled: boolean;
  fiat: boolean;
  amount: Decimal;
  fee: Decimal;
}

/** A record whose pounds come from the day's price, and the row it is refused on without one. */
interface Unvalued {
  record: OwnRecord;
  row: RecordRow;
  what: string;
  income: boolean;
}

export const KRAKEN_LEDGERS: ExchangeExport = {
  format: 'kraken-ledgers',
  title: 'Kraken ledgers',
  columns: COLUMNS,
  required: ['txid', 'refid', 'time', 'type', 'asset', 'amount', 'fee', 'balance'],
  numeric: new Set(['amount', 'fee', 'balance', 'amountusd']),
  read: readKrakenLedgers,
};

function readKrakenLedgers(rows: readonly RecordRow[], source: string): OwnRecord[] {
  const entries: Entry[] = [];
  for (const row of rows) {
    if (row.text('txid') === '') continue;
    const entry = readEntry(row);
    if (entry) entries.push(entry);
  }
  const records: OwnRecord[] = [];
  const unvalued: Unvalued[] = [];
  const byRef = new Map<string, Entry[]>();
  for (const entry of entries) {
    if (!TRADE_TYPES.has(entry.type)) continue;
    const ref = entry.row.text('refid');
    byRef.set(ref, [...(byRef.get(ref) ?? []), entry]);
  }
  const done = new Set<Entry>();
  for (const entry of entries) {
    if (done.has(entry)) continue;
    const base = { source, line: entry.row.line, at: entry.at, wallet: 'Kraken' };
    if (TRADE_TYPES.has(entry.type)) {
      const group = byRef.get(entry.row.text('refid'))!;
      for (const e of group) done.add(e);
      const trade = readTrade(group);
      if (trade) records.push({ ...base, ...trade });
      continue;
    }
    const { row, type, subtype, amount } = entry;
    if ((type === 'transfer' || type === 'earn') && INTERNAL_SUBTYPES.has(subtype)) continue;
    if (type === 'earn' && subtype === '' && entry.fee.isZero()) continue;
    if (type === 'deposit' || type === 'withdrawal') {
      if (entry.fiat) continue;
      if (!tokenOnly(entry)) continue;
      const out = type === 'withdrawal';
      if (amount.isNegative() !== out) {
        row.problem(
          'amount',
          `a ${type} with a ${out ? 'positive' : 'negative'} amount (a reversed ${type}) is not read: remove it and its original row`,
        );
        continue;
      }
      const record: OwnRecord = {
        ...base,
        kind: out ? 'withdrawal' : 'deposit',
        asset: entry.asset,
        quantity: amount.abs(),
        gbp: null,
        fee: null,
      };
      if (entry.fee.isZero()) records.push(record);
      else
        unvalued.push({
          record,
          row,
          what: `the ${type}'s fee of ${entry.fee} ${entry.asset}`,
          income: false,
        });
      continue;
    }
    if (type === 'staking' || (type === 'earn' && (subtype === 'reward' || subtype === ''))) {
      if (!tokenOnly(entry)) continue;
      if (!amount.isPositive()) {
        row.problem(
          'amount',
          `a negative ${type} row is not read: remove it, or give it in a plain-format file`,
        );
        continue;
      }
      unvalued.push({
        record: { ...base, kind: 'income', asset: entry.asset, quantity: amount, gbp: null, fee: null },
        row,
        what: `this reward of ${amount} ${entry.asset}`,
        income: true,
      });
      continue;
    }
    row.problem(
      'type',
      `"${(subtype ? `${type} ${subtype}` : type).slice(0, 40)}" is not read: Kraken ledger rows read are trade, spend, receive, deposit, withdrawal, staking, earn (reward, and moves between Kraken's wallets) and transfer between Kraken's wallets; give this one in a plain-format file and remove it here`,
    );
  }
  // Pounds for income and token fees from the file's own trades of that UK day.
  const trades = pricedTrades(records);
  for (const { record, row, what, income } of unvalued) {
    const price = dayPrice(trades, record.asset, record.at);
    if (price === null) {
      row.problem(income ? 'amount' : 'fee', noDayPrice(what, record.asset, record.at, 'Kraken ledger'));
      continue;
    }
    const feeQuantity = new CgtDecimal(row.text('fee') || '0').abs();
    if (income) record.gbp = record.quantity.times(price);
    if (feeQuantity.gt(0)) {
      record.fee = { asset: record.asset, quantity: feeQuantity, gbp: feeQuantity.times(price) };
    }
    records.push(record);
  }
  return records.sort((a, b) => a.line - b.line);
}

function readEntry(row: RecordRow): Entry | undefined {
  const at = row.time('time');
  const amount = signed(row, 'amount');
  const fee = signed(row, 'fee');
  const raw = row.text('asset').toUpperCase();
  if (raw === '') row.problem('asset', 'is empty: each ledger row names its asset');
  if (at === undefined || amount === undefined || fee === undefined || row.failed) return undefined;
  const name = FIAT_CODES[raw] ?? raw.replace(BALANCE_SUFFIX, '');
  const pooled = pooledAsset(name);
  return {
    row,
    at,
    type: row.text('type').toLowerCase(),
    subtype: row.text('subtype').toLowerCase(),
    asset: pooled ?? name,
    pooled: pooled !== null,
    fiat: FIAT.has(name),
    amount,
    fee: fee.abs(),
  };
}

/** A signed plain decimal (an empty cell is 0). */
function signed(row: RecordRow, column: string): Decimal | undefined {
  const text = row.text(column);
  const negative = text.startsWith('-');
  const read = readAmount(negative ? text.slice(1) : text, false);
  if (!read.ok) {
    row.problem(column, read.reason);
    return undefined;
  }
  const value = read.value ?? new CgtDecimal(0);
  return negative ? value.negated() : value;
}

function tokenOnly(entry: Entry): boolean {
  if (entry.pooled) return true;
  entry.row.problem(
    'asset',
    `${entry.asset.slice(0, 20)} is not read: the pack pools TAO and subnet alpha; remove the rows of other tokens`,
  );
  return false;
}

type TradeDraft = Pick<OwnRecord, 'kind' | 'asset' | 'quantity' | 'gbp' | 'fee'>;

/** One trade (one `refid`): a token bought or sold for pounds, its fees in pounds or in that token. */
function readTrade(group: readonly Entry[]): TradeDraft | undefined {
  const first = group[0]!.row;
  const legs = group.filter((e) => !e.amount.isZero());
  const received = legs.filter((e) => e.amount.isPositive());
  const given = legs.filter((e) => e.amount.isNegative());
  const refid = first.text('refid');
  if (
    received.length === 0 ||
    given.length === 0 ||
    new Set(received.map((e) => e.asset)).size > 1 ||
    new Set(given.map((e) => e.asset)).size > 1
  ) {
    first.problem(
      'refid',
      `the rows of trade ${refid.slice(0, 30)} do not show one asset received and one given: remove them and give the trade in a plain-format file`,
    );
    return undefined;
  }
  const sum = (es: readonly Entry[]) => es.reduce((s, e) => s.plus(e.amount.abs()), new CgtDecimal(0));
  const bought = { asset: received[0]!.asset, quantity: sum(received), entry: received[0]! };
  const sold = { asset: given[0]!.asset, quantity: sum(given), entry: given[0]! };
  const token = bought.entry.pooled ? bought : sold.entry.pooled ? sold : null;
  const money = token === bought ? sold : bought;
  if (token === null) {
    first.problem(
      'asset',
      `trade ${refid.slice(0, 30)} of ${sold.asset.slice(0, 12)} for ${bought.asset.slice(0, 12)} is not read: the pack pools TAO and subnet alpha; remove the rows of other tokens' trades`,
    );
    return undefined;
  }
  if (money.asset !== 'GBP') {
    money.entry.row.problem(
      'asset',
      `trade ${refid.slice(0, 30)} of ${token.asset} against ${money.asset.slice(0, 12)} is not read: Kraken's ledger gives no value in pounds for it and the pack converts no currency; give it in a plain-format file with its value in GBP and remove its rows here`,
    );
    return undefined;
  }
  const fees = group.filter((e) => !e.fee.isZero());
  const feeAssets = new Set(fees.map((e) => e.asset));
  if (fees.some((e) => e.asset !== token.asset && e.asset !== 'GBP') || feeAssets.size > 1) {
    fees[0]!.row.problem(
      'fee',
      `trade ${refid.slice(0, 30)} has fees in ${[...feeAssets].join(' and ')}: one fee, in GBP or in ${token.asset}, is read; give it in a plain-format file and remove its rows here`,
    );
    return undefined;
  }
  const feeQuantity = fees.reduce((s, e) => s.plus(e.fee), new CgtDecimal(0));
  const fee =
    fees.length === 0
      ? null
      : fees[0]!.asset === 'GBP'
        ? { asset: 'GBP', quantity: feeQuantity, gbp: feeQuantity }
        : {
            asset: token.asset,
            quantity: feeQuantity,
            gbp: feeQuantity.times(money.quantity).div(token.quantity),
          };
  return {
    kind: token === bought ? 'buy' : 'sell',
    asset: token.asset,
    quantity: token.quantity,
    gbp: money.quantity,
    fee,
  };
}
