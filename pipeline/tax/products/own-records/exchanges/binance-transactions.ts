/**
 * Binance's transaction history (Wallet → Transaction History → Export, "Transaction History" as CSV; the
 * older "Account Statement"): one row per balance change, `User_ID,UTC_Time,Account,Operation,Coin,Change,
 * Remark` (some files lack `User_ID`). `UTC_Time` is UTC; `Change` is signed.
 *
 * - A trade is its rows of the trade operations (`Transaction Buy`, `Transaction Spend`, `Transaction Fee`,
 *   `Transaction Sold`, `Transaction Revenue`, the older `Buy`, `Sell`, `Fee`, `Transaction Related`, and
 *   `Binance Convert`) at one time: Binance writes the fills of one order in the same second (or the next,
 *   as BittyTax also allows). One asset received, one given, a fee in one of them (or in pounds). Against
 *   GBP the pounds are its value; against USDT, BTC or any other token, both are tokens: a disposal of one
 *   and an acquisition of the other at one value, the daily GBP rate of the side that values it
 *   (`valueAtDayRate`), a fee in either at the trade's own price.
 * - `Deposit`, `Withdraw` (and `Send`) of a token: arriving at and leaving Binance. Binance's history gives a
 *   TAO withdrawal's fee inside its amount, not on its own row (`feeInside`: the chain's arrival is the
 *   amount sent, and the difference is the fee). Deposits and withdrawals of pounds (`Fiat Deposit`,
 *   `Fiat Withdraw`, or GBP) are money moving and book nothing.
 * - Staking and Simple Earn rewards: income, at the day's rate of their token.
 * - Moves between Binance's own wallets (Spot, Funding, Earn: subscriptions, redemptions, transfers) book
 *   nothing.
 * - Anything else is refused at its line: margin and futures accounts, operations not listed here, a trade
 *   whose rows do not make one trade, a fee in BNB (it has no pounds in the file).
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import type { RecordRow } from '../record-row.js';
import { type Draft, pooled, quotedTrade, signedAmount } from './day-rate-records.js';
import type { ExchangeExport } from './exchange-reader.js';

const COLUMNS = ['User_ID', 'UTC_Time', 'Account', 'Operation', 'Coin', 'Change', 'Remark'] as const;

const ACCOUNTS = new Set(['spot', 'funding', 'earn', 'savings', 'pool']);
const FIAT = new Set(['GBP', 'EUR', 'USD', 'AUD', 'BRL', 'TRY']);

const TRADE = new Set([
  'transaction buy',
  'transaction spend',
  'transaction fee',
  'transaction sold',
  'transaction revenue',
  'transaction related',
  'buy',
  'sell',
  'fee',
  'binance convert',
]);
const FEE = new Set(['fee', 'transaction fee']);
const DEPOSIT = new Set(['deposit', 'fiat deposit']);
const WITHDRAWAL = new Set(['withdraw', 'send', 'fiat withdraw', 'fiat withdrawal']);
const REWARD = new Set([
  'staking rewards',
  'simple earn flexible interest',
  'simple earn locked rewards',
  'pos savings interest',
  'savings interest',
  'savings distribution',
]);
/** Between Binance's own wallets of one account: nothing leaves the buyer's holdings. */
const INTERNAL = new Set([
  'transfer_in',
  'transfer_out',
  'transfer between main and funding wallet',
  'simple earn flexible subscription',
  'simple earn flexible redemption',
  'simple earn locked subscription',
  'simple earn locked redemption',
  'staking purchase',
  'staking redemption',
  'pos savings purchase',
  'pos savings redemption',
  'savings purchase',
  'savings principal redemption',
]);

/** Rows of one trade: Binance writes an order's rows in one second, or across into the next. */
const TRADE_WINDOW_MS = 1_000;

interface Entry {
  row: RecordRow;
  at: Date;
  operation: string;
  /** `TAO`, or the coin as Binance names it. */
  coin: string;
  pooled: boolean;
  change: Decimal;
}

export const BINANCE_TRANSACTIONS: ExchangeExport = {
  format: 'binance-transactions',
  title: 'Binance transaction history',
  columns: COLUMNS,
  required: ['utc_time', 'account', 'operation', 'coin', 'change'],
  numeric: new Set(['change']),
  read: readBinanceTransactions,
};

function readBinanceTransactions(rows: readonly RecordRow[], source: string): OwnRecord[] {
  const entries: Entry[] = [];
  for (const row of rows) {
    const entry = readEntry(row);
    if (entry) entries.push(entry);
  }
  const records: OwnRecord[] = [];
  const trades = entries.filter((e) => TRADE.has(e.operation));
  const done = new Set<Entry>();
  for (const entry of entries) {
    if (done.has(entry)) continue;
    const { row, operation, coin, change } = entry;
    const base = { source, line: row.line, at: entry.at, wallet: 'Binance' };
    if (TRADE.has(operation)) {
      const group = trades.filter(
        (e) => !done.has(e) && e.at.getTime() - entry.at.getTime() <= TRADE_WINDOW_MS && e.at >= entry.at,
      );
      for (const e of group) done.add(e);
      const trade = readTrade(group);
      if (trade) records.push({ ...base, ...trade });
      continue;
    }
    if (INTERNAL.has(operation)) continue;
    const fiat = FIAT.has(coin);
    if (DEPOSIT.has(operation) || WITHDRAWAL.has(operation)) {
      if (fiat) continue;
      if (!tokenOnly(entry)) continue;
      const out = WITHDRAWAL.has(operation);
      if (change.isNegative() !== out || change.isZero()) {
        row.problem(
          'change',
          `a ${out ? 'withdrawal' : 'deposit'} whose change is ${change.isZero() ? 'zero' : out ? 'positive' : 'negative'} is not read: remove it, or give it in a plain-format file`,
        );
        continue;
      }
      records.push({
        ...base,
        kind: out ? 'withdrawal' : 'deposit',
        asset: entry.coin,
        quantity: change.abs(),
        gbp: null,
        fee: null,
        // The fee inside a withdrawal shows only against the chain's arrival: TAO's and alpha's.
        ...(out && entry.coin === 'TAO' ? { feeInside: true as const, valueAtDayRate: true as const } : {}),
      });
      continue;
    }
    if (REWARD.has(operation)) {
      if (!tokenOnly(entry)) continue;
      if (!change.isPositive()) {
        row.problem(
          'change',
          'a reward that is not positive is not read: remove it, or give it in a plain-format file',
        );
        continue;
      }
      records.push({
        ...base,
        kind: 'income',
        asset: entry.coin,
        quantity: change,
        gbp: new CgtDecimal(0),
        fee: null,
        valueAtDayRate: true,
      });
      continue;
    }
    row.problem(
      'operation',
      `"${row.text('operation').slice(0, 40)}" is not read: the operations read are trades (Transaction Buy, Spend, Fee, Sold, Revenue; Buy, Sell, Fee; Binance Convert), Deposit, Withdraw, staking and Simple Earn rewards, and moves between Binance's own wallets; give this one in a plain-format file and remove it here`,
    );
  }
  return records.sort((a, b) => a.line - b.line);
}

function readEntry(row: RecordRow): Entry | undefined {
  const at = row.time('utc_time');
  const change = signedAmount(row, 'change', 'is empty: each row gives the change of its coin');
  const account = row.text('account');
  if (!ACCOUNTS.has(account.toLowerCase())) {
    row.problem(
      'account',
      `rows of Binance's "${account.slice(0, 30)}" account are not read (margin and futures are outside the pack's pools): remove them, and give what they did to TAO in a plain-format file`,
    );
  }
  const coin = row.text('coin').toUpperCase();
  if (coin === '') row.problem('coin', 'is empty: each row names its coin');
  if (at === undefined || change === undefined || row.failed) return undefined;
  const token = pooled(coin);
  return {
    row,
    at,
    operation: row.text('operation').toLowerCase(),
    coin: token ?? coin,
    pooled: token !== null,
    change,
  };
}

function tokenOnly(entry: Entry): boolean {
  if (entry.pooled) return true;
  entry.row.problem(
    'coin',
    `${entry.coin.slice(0, 20)} is not read: it is neither a token's code nor a currency; remove its rows, or give them in a plain-format file`,
  );
  return false;
}

/** One trade: the rows of the trade operations at one time. */
function readTrade(group: readonly Entry[]): Draft | undefined {
  const first = group[0]!.row;
  const fees = group.filter((e) => FEE.has(e.operation) && !e.change.isZero());
  const legs = group.filter((e) => !FEE.has(e.operation) && !e.change.isZero());
  const received = legs.filter((e) => e.change.isPositive());
  const given = legs.filter((e) => e.change.isNegative());
  const one = (es: readonly Entry[]) => es.length > 0 && new Set(es.map((e) => e.coin)).size === 1;
  if (!one(received) || !one(given)) {
    first.problem(
      'operation',
      `the trade rows at ${first.text('utc_time').slice(0, 25)} do not show one coin received and one given: remove them and give the trade in a plain-format file`,
    );
    return undefined;
  }
  const sum = (es: readonly Entry[]) => es.reduce((s, e) => s.plus(e.change.abs()), new CgtDecimal(0));
  const bought = { coin: received[0]!.coin, quantity: sum(received), entry: received[0]! };
  const sold = { coin: given[0]!.coin, quantity: sum(given), entry: given[0]! };
  const token = bought.entry.pooled ? bought : sold.entry.pooled ? sold : null;
  if (token === null) {
    first.problem(
      'coin',
      `the trade of ${sold.coin.slice(0, 12)} for ${bought.coin.slice(0, 12)} at ${first.text('utc_time').slice(0, 25)} is not read: it exchanges money for money, no token; remove its rows`,
    );
    return undefined;
  }
  const money = token === bought ? sold : bought;
  const feeCoins = new Set(fees.map((e) => e.coin));
  if (feeCoins.size > 1 || fees.some((e) => e.coin !== token.coin && e.coin !== money.coin)) {
    fees[0]!.row.problem(
      'coin',
      `the trade's fee in ${[...feeCoins].join(' and ').slice(0, 30)} is not read: a fee in ${token.coin} or ${money.coin.slice(0, 12)} is (a fee in BNB has no value in pounds here); give the trade in a plain-format file with its fee in pounds and remove its rows`,
    );
    return undefined;
  }
  const feeQuantity = sum(fees);
  return quotedTrade(
    token === bought ? 'buy' : 'sell',
    { asset: token.coin, quantity: token.quantity },
    { asset: money.coin, quantity: money.quantity },
    fees.length === 0 ? null : { asset: fees[0]!.coin, quantity: feeQuantity },
  );
}
