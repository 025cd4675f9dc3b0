/**
 * Coinbase's transaction export (Profile → Statements → Transaction history, CSV: "Generate report"): title
 * lines (`Transactions`, `User,<name>,<id>`) above the header
 * `ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,
 * Total (inclusive of fees and/or spread),Fees and/or Spread,Notes` (`upload-table.ts` finds the header
 * below them). `Timestamp` is UTC; the amounts are in `Price Currency` with its sign (`£1,500.00`); a
 * quantity may be negative (what left the account).
 *
 * - `Buy`, `Sell`: against the account's currency. In pounds, `Subtotal` is what was paid or received and
 *   `Fees and/or Spread` the fee. In another currency its TAO is valued at the pack's TAO/GBP rate of its
 *   UK day (`valueAtDayRate`), the fee in that currency at the trade's own ratio.
 * - `Advanced Trade Buy`, `Advanced Trade Sell`: against the pair's quote (`Bought 2 TAO for 641.28 USDC on
 *   TAO-USDC at 320 USDC/TAO`): against GBP as a Buy or Sell; against anything else at the day's rate, the
 *   quote's amount the quantity times the price and its fee what the total holds beyond it.
 * - `Convert` (`Converted 1 TAO to 500 USDC`): TAO against the other token, at the day's rate. Coinbase's
 *   spread on a conversion is inside its amounts.
 * - `Send`, `Receive`: TAO leaving and arriving (a Receive that Coinbase notes as a reward is income).
 *   Coinbase gives a Send's network fee in pounds only.
 * - `Staking Income`, `Rewards Income`, `Inflation Reward`: staking income, at the day's rate: Coinbase's own
 *   pounds for it are its spot estimate, and the pack values every reward by one rate (CRYPTO23000).
 * - Pounds paid in or out (`Deposit`, `Withdrawal` of GBP) and moves inside Coinbase (staking and vault
 *   transfers) book nothing. Anything else is refused at its line.
 *
 * Coinbase's own value in pounds of a trade against another token (its `Subtotal` there) is its estimate,
 * not what was paid: the pack uses its daily rate for those, as for every row that has no sterling price.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import { pooledAsset } from '../record-asset.js';
import type { RecordRow } from '../record-row.js';
import { readAmount } from '../record-values.js';
import { signedAmount } from './day-rate-records.js';
import type { ExchangeExport } from './exchange-reader.js';

const COLUMNS = [
  'ID',
  'Timestamp',
  'Transaction Type',
  'Asset',
  'Quantity Transacted',
  'Price Currency',
  'Price at Transaction',
  'Subtotal',
  'Total (inclusive of fees and/or spread)',
  'Fees and/or Spread',
  'Notes',
] as const;

const SUBTOTAL = 'subtotal';
const FEES = 'fees and/or spread';
const MONEY_COLUMNS = new Set([
  'price at transaction',
  SUBTOTAL,
  'total (inclusive of fees and/or spread)',
  FEES,
]);
const FIAT = new Set(['GBP', 'EUR', 'USD']);

const BUY = new Set(['buy', 'advanced trade buy']);
const SELL = new Set(['sell', 'advanced trade sell']);
const REWARD = new Set([
  'staking income',
  'rewards income',
  'reward income',
  'inflation reward',
  'coinbase earn',
  'learning reward',
]);
/** Inside Coinbase: between its own wallets and its staking. */
const INTERNAL = new Set([
  'retail staking transfer',
  'retail unstaking transfer',
  'vault withdrawal',
  'transfer',
]);

/** `Bought 2 TAO for 641.28 USDC on TAO-USDC at 320 USDC/TAO` (the part from `on` on: Advanced Trade only). */
const TRADE_NOTE =
  /^(?:Bought|Sold) ([\d,]*\.?\d+) (\w+) for [£$€]?([\d,]*\.?\d+) (\w+)(?: on (\w+)-(\w+) at ([\d,]*\.?\d+) \w+\/\w+)?/;
/** `Converted 1 TAO to 500 USDC`. */
const CONVERT_NOTE = /^Converted ([\d,]*\.?\d+) (\w+) to ([\d,]*\.?\d+) (\w+)\s*$/;

export const COINBASE_TRANSACTIONS: ExchangeExport = {
  format: 'coinbase-transactions',
  title: 'Coinbase transaction history',
  columns: COLUMNS,
  required: [
    'timestamp',
    'transaction type',
    'asset',
    'quantity transacted',
    'price currency',
    SUBTOTAL,
    FEES,
    'notes',
  ],
  numeric: new Set(['quantity transacted']),
  money: MONEY_COLUMNS,
  read: (rows, source) => rows.flatMap((row) => readRow(row, source)),
};

function readRow(row: RecordRow, source: string): OwnRecord[] {
  const at = row.time('timestamp');
  const type = row.text('transaction type').toLowerCase();
  const asset = row.text('asset').toUpperCase();
  const quantity = signedAmount(row, 'quantity transacted', 'is empty: each row gives its quantity')?.abs();
  const currency = row.text('price currency').toUpperCase();
  const subtotal = money(row, SUBTOTAL);
  const fees = money(row, FEES);
  if (at === undefined || quantity === undefined || subtotal === undefined || fees === undefined) return [];
  const base = { source, line: row.line, at, wallet: 'Coinbase' };
  const notes = row.text('notes');
  const pooled = pooledAsset(asset);
  if (INTERNAL.has(type)) return [];
  if ((type === 'deposit' || type === 'withdrawal') && FIAT.has(asset)) return [];
  if (BUY.has(type) || SELL.has(type)) {
    if (!tao(row, pooled, asset)) return [];
    const kind = BUY.has(type) ? 'buy' : 'sell';
    const note = TRADE_NOTE.exec(notes);
    // A plain Buy or Sell is against the account's currency; an Advanced Trade against its pair's quote.
    const quote = note?.[6]?.toUpperCase() ?? (note?.[4]?.toUpperCase() || currency);
    if (quote === 'GBP' && currency === 'GBP') {
      const fee = fees.isZero() ? null : { asset: 'GBP', quantity: fees, gbp: fees };
      return [{ ...base, kind, asset: 'TAO', quantity, gbp: subtotal, fee }];
    }
    let counter: Decimal;
    let fee: Decimal;
    if (note?.[7] !== undefined) {
      // Advanced Trade: the quote's amount is quantity × price; the total the note gives holds the fee.
      counter = quantity.times(plain(note[7]));
      fee = counter.minus(plain(note[3]!)).abs();
    } else if (quote === currency) {
      counter = subtotal;
      fee = fees;
    } else {
      row.problem(
        'notes',
        `this ${row.text('transaction type').slice(0, 30)} does not say what it was traded against ("Bought 2 TAO for 641.28 USDC on TAO-USDC at 320 USDC/TAO"): give it in a plain-format file and remove it here`,
      );
      return [];
    }
    return [
      {
        ...base,
        kind,
        asset: 'TAO',
        quantity,
        gbp: new CgtDecimal(0),
        fee: fee.isZero() ? null : { asset: quote, quantity: fee, gbp: new CgtDecimal(0) },
        valueAtDayRate: true,
        counter: { asset: quote, quantity: counter },
      },
    ];
  }
  if (type === 'convert') {
    const note = CONVERT_NOTE.exec(notes);
    if (!note) {
      row.problem(
        'notes',
        'a Convert whose note is not "Converted 1 TAO to 500 USDC" is not read: give it in a plain-format file and remove it here',
      );
      return [];
    }
    const to = note[4]!.toUpperCase();
    const toQuantity = plain(note[3]!);
    if (pooled === 'TAO' && to !== 'TAO') {
      return [dayRateTrade(base, 'sell', quantity, { asset: to, quantity: toQuantity })];
    }
    if (to === 'TAO' && pooled === null) {
      return [dayRateTrade(base, 'buy', toQuantity, { asset, quantity })];
    }
    row.problem(
      'asset',
      `a Convert of ${asset.slice(0, 12)} to ${to.slice(0, 12)} is not read: the pack reads conversions of TAO to or from another token; remove this row`,
    );
    return [];
  }
  if (type === 'send' || type === 'receive') {
    if (!tao(row, pooled, asset)) return [];
    if (type === 'receive' && /Coinbase (Earn|Rewards)/.test(notes)) return [reward(base, quantity)];
    const fee = fees.isZero() ? null : { asset: 'GBP', quantity: fees, gbp: fees };
    return [
      { ...base, kind: type === 'send' ? 'withdrawal' : 'deposit', asset: 'TAO', quantity, gbp: null, fee },
    ];
  }
  if (REWARD.has(type)) {
    if (!tao(row, pooled, asset)) return [];
    return [reward(base, quantity)];
  }
  row.problem(
    'transaction type',
    `"${row.text('transaction type').slice(0, 40)}" is not read: the types read are Buy, Sell, Advanced Trade Buy and Sell, Convert, Send, Receive, staking and reward income, pounds paid in or out, and moves inside Coinbase; give this one in a plain-format file and remove it here`,
  );
  return [];
}

type Base = Pick<OwnRecord, 'source' | 'line' | 'at' | 'wallet'>;

function dayRateTrade(
  base: Base,
  kind: 'buy' | 'sell',
  quantity: Decimal,
  counter: { asset: string; quantity: Decimal },
): OwnRecord {
  return {
    ...base,
    kind,
    asset: 'TAO',
    quantity,
    gbp: new CgtDecimal(0),
    fee: null,
    valueAtDayRate: true,
    counter,
  };
}

function reward(base: Base, quantity: Decimal): OwnRecord {
  return {
    ...base,
    kind: 'income',
    asset: 'TAO',
    quantity,
    gbp: new CgtDecimal(0),
    fee: null,
    valueAtDayRate: true,
  };
}

/** Only TAO is read from Coinbase: it lists no subnet alpha, and other assets are outside the pack's pools. */
function tao(row: RecordRow, pooled: string | null, asset: string): boolean {
  if (pooled === 'TAO') return true;
  row.problem(
    'asset',
    `${asset.slice(0, 20) || '(empty)'} is not read: the pack pools TAO and subnet alpha; remove the rows of other assets (their conversions to and from TAO are read)`,
  );
  return false;
}

function plain(text: string): Decimal {
  return new CgtDecimal(text.replace(/,/g, ''));
}

/** An amount in pounds or another currency, with its sign and currency sign (`-£960.00`), as its size. */
function money(row: RecordRow, column: string): Decimal | undefined {
  const text = row.text(column);
  if (text === '') return new CgtDecimal(0);
  const read = readAmount(
    text
      .replace(/^-/, '')
      .replace(/^[£$€]/, '')
      .replace(/,/g, ''),
    false,
  );
  if (!read.ok) {
    row.problem(column, read.reason);
    return undefined;
  }
  return read.value ?? new CgtDecimal(0);
}
