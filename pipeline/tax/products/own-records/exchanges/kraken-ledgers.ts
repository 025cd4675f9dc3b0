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
 * - A trade of TAO against another currency or token (USD, EUR, USDT, BTC): Kraken gives no pounds for it,
 *   so its TAO leg is booked at the pack's TAO/GBP rate of its UK day (`valueAtDayRate`); a fee in the
 *   currency traded against is valued at the trade's own ratio.
 * - Anything else is refused at its line: a trade of alpha against another currency, other tokens' trades,
 *   margin and the rest.
 *
 * Kraken's ledger gives no value for a reward or a fee in tokens outside a trade: they too are valued at the
 * pack's TAO/GBP rate of their UK day, never at a trade's price in the same file. HMRC asks for one
 * consistent method where a receipt has no sterling value (CRYPTO23000); the daily rate is the one the
 * pack values the chain's staking income at, so a reward is worth the same whether it came on the chain or
 * on Kraken, and a day with a trade is not valued differently from a day without. A fee inside a trade
 * keeps that trade's own price: it is part of that transaction.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import { pooledAsset } from '../record-asset.js';
import type { RecordRow } from '../record-row.js';
import { type Draft, quotedTrade, signedAmount } from './day-rate-records.js';
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

/**
 * Kraken's own names of currencies (`ZGBP`) and of the tokens TAO is traded against (`XXBT`), as the ledger
 * writes them, and its suffixes of staked and earning balances (`TAO.S`).
 */
const KRAKEN_NAMES: Record<string, string> = {
  ZGBP: 'GBP',
  ZUSD: 'USD',
  ZEUR: 'EUR',
  ZCAD: 'CAD',
  ZAUD: 'AUD',
  XXBT: 'BTC',
  XBT: 'BTC',
  XETH: 'ETH',
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
      // A fee in TAO is a disposal: its pounds are the day's rate (the ledger gives none).
      if (entry.fee.isZero()) records.push(record);
      else records.push({ ...atDayRate(record, entry), fee: tokenFee(entry) });
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
      const reward: OwnRecord = {
        ...base,
        kind: 'income',
        asset: entry.asset,
        quantity: amount,
        gbp: null,
        fee: null,
      };
      records.push({ ...atDayRate(reward, entry), fee: entry.fee.isZero() ? null : tokenFee(entry) });
      continue;
    }
    row.problem(
      'type',
      `"${(subtype ? `${type} ${subtype}` : type).slice(0, 40)}" is not read: Kraken ledger rows read are trade, spend, receive, deposit, withdrawal, staking, earn (reward, and moves between Kraken's wallets) and transfer between Kraken's wallets; give this one in a plain-format file and remove it here`,
    );
  }
  return records.sort((a, b) => a.line - b.line);
}

/**
 * A reward or a fee in a token outside a trade: valued at the pack's TAO/GBP rate of its UK day. Only TAO
 * has that rate; alpha on Kraken is refused.
 */
function atDayRate(record: OwnRecord, entry: Entry): OwnRecord {
  if (record.asset !== 'TAO') {
    entry.row.problem(
      'asset',
      `${record.asset} has no value in pounds in Kraken's ledger, and only TAO is valued at the day's TAO/GBP rate: give this row in a plain-format file with its value and remove it here`,
    );
  }
  return { ...record, gbp: record.kind === 'income' ? new CgtDecimal(0) : record.gbp, valueAtDayRate: true };
}

/** The row's fee in its own token, its pounds set at the day's rate (`valueAtDayRate`). */
function tokenFee(entry: Entry): OwnRecord['fee'] {
  return { asset: entry.asset, quantity: entry.fee, gbp: new CgtDecimal(0) };
}

function readEntry(row: RecordRow): Entry | undefined {
  const at = row.time('time');
  const amount = signedAmount(row, 'amount');
  const fee = signedAmount(row, 'fee');
  const raw = row.text('asset').toUpperCase();
  if (raw === '') row.problem('asset', 'is empty: each ledger row names its asset');
  if (at === undefined || amount === undefined || fee === undefined || row.failed) return undefined;
  const name = KRAKEN_NAMES[raw] ?? raw.replace(BALANCE_SUFFIX, '');
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

function tokenOnly(entry: Entry): boolean {
  if (entry.pooled) return true;
  entry.row.problem(
    'asset',
    `${entry.asset.slice(0, 20)} is not read: the pack pools TAO and subnet alpha; remove the rows of other tokens`,
  );
  return false;
}

/** One trade (one `refid`): a token bought or sold for pounds, its fees in pounds or in that token. */
function readTrade(group: readonly Entry[]): Draft | undefined {
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
  // Against another currency or token, Kraken gives no pounds: the TAO leg takes the day's rate.
  const dayRate = money.asset !== 'GBP';
  if (dayRate && (token.asset !== 'TAO' || money.entry.pooled)) {
    money.entry.row.problem(
      'asset',
      `trade ${refid.slice(0, 30)} of ${token.asset} against ${money.asset.slice(0, 12)} is not read: Kraken's ledger gives no value in pounds for it, and only TAO traded against another currency is valued at the day's TAO/GBP rate; give it in a plain-format file with its value in GBP and remove its rows here`,
    );
    return undefined;
  }
  const fees = group.filter((e) => !e.fee.isZero());
  const feeAssets = new Set(fees.map((e) => e.asset));
  if (fees.some((e) => e.asset !== token.asset && e.asset !== money.asset) || feeAssets.size > 1) {
    fees[0]!.row.problem(
      'fee',
      `trade ${refid.slice(0, 30)} has fees in ${[...feeAssets].join(' and ')}: one fee, in ${money.asset.slice(0, 12)} or in ${token.asset}, is read; give it in a plain-format file and remove its rows here`,
    );
    return undefined;
  }
  const feeQuantity = fees.reduce((s, e) => s.plus(e.fee), new CgtDecimal(0));
  // Against GBP the pounds are the trade's value and a fee in the token is valued at the trade's own
  // price; against another currency the TAO leg takes the day's rate (pounds 0 until it is applied).
  return quotedTrade(
    token === bought ? 'buy' : 'sell',
    token,
    money,
    fees.length === 0 ? null : { asset: fees[0]!.asset, quantity: feeQuantity },
  );
}
