/**
 * Koinly's universal import template, as Koinly documents it and as the pack writes `koinly.csv`
 * (`pipeline/tax/products/pack/exports/koinly-csv.ts`, which must read back). What a row is comes from which sides
 * it has and its label, as Koinly reads it:
 *
 * - received only: a deposit; with an income label (staking, reward, airdrop, income, other income,
 *   mining, lending interest, loan interest, cashback) income at its Net Worth; `gift` an acquisition at
 *   its Net Worth that is not income (a gift received; the pack's own label for holdings taken at market
 *   value);
 * - sent only: a withdrawal; `cost` a fee paid in the token (a disposal at its Net Worth, as Koinly treats
 *   it); `gift` a disposal at its Net Worth (a gift to anyone but a spouse or charity is a disposal at
 *   market value); `lost` a disposal for nothing (£0, whatever Net Worth says, as Koinly treats it);
 *   `donation` is refused: a gift to a charity is at no gain and no loss, which a record cannot say;
 * - both: a trade (label empty or `swap`): a sell of the sent token and a buy of the received one when
 *   they are tokens (TAO, alpha, or another by its code: USDT, BTC). Its value is the pounds side when one side is GBP; otherwise Net Worth, in GBP
 *   only (another currency's amount would need an exchange rate the pack does not guess).
 *
 * The label column may be named `Tag`, as Koinly's current template names it, and the date column `Koinly
 * Date`. A label not listed here is refused with its line, never read as a plain deposit or withdrawal.
 *
 * Description and TxHash are not kept (they are checked like every cell, as a refused cell is refused
 * whatever column it is in).
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import { KOINLY_COLUMNS } from '../tax-tool-columns.js';
import type { OwnRecord } from './customer-inputs.js';
import { moneyOnly, moneySkipped, type Side, side, unknownAsset } from './record-asset.js';
import { readFee } from './record-fee.js';
import type { RecordRow } from './record-row.js';

export { KOINLY_COLUMNS };
export const KOINLY_REQUIRED = [
  'date',
  'sent amount',
  'sent currency',
  'received amount',
  'received currency',
] as const;
export const KOINLY_NUMERIC = new Set(['sent amount', 'received amount', 'fee amount', 'net worth amount']);

export const INCOME_LABELS = new Set([
  'staking',
  'reward',
  'airdrop',
  'income',
  'other income',
  'mining',
  'lending interest',
  'loan interest',
  'cashback',
  'salary',
  'fee refund',
]);

/** A label as Koinly writes it in either export (`Other income`, `other_income`), lower case with spaces. */
export function koinlyLabel(row: RecordRow): string {
  return row.text('label').toLowerCase().replace(/_/g, ' ');
}

export interface Leg {
  amount: Decimal;
  side: Side;
  column: string;
}

export function readKoinlyRow(row: RecordRow, source: string): OwnRecord[] {
  const at = row.time('date');
  const sent = leg(row, 'sent amount', 'sent currency');
  const received = leg(row, 'received amount', 'received currency');
  const label = koinlyLabel(row);
  const worth = netWorth(row);
  if (at === undefined || sent === undefined || received === undefined || worth === undefined) return [];
  if (sent === null && received === null) {
    row.problem(null, 'the row has neither a Sent Amount nor a Received Amount');
    return [];
  }
  for (const l of [sent, received]) {
    if (l && 'unknown' in l.side) row.problem(l.column, unknownAsset(l.side.unknown));
  }
  if (row.failed) return [];

  const base = { source, line: row.line, at, wallet: null };
  type Draft = Omit<OwnRecord, 'fee' | 'source' | 'line' | 'at' | 'wallet'>;
  let drafts: Draft[];
  if (sent && received) {
    drafts = trade(row, sent, received, label, worth);
  } else {
    const one = (sent ?? received)!;
    if ('fiat' in one.side) {
      if (label === '') {
        row.note(moneySkipped(one.side.fiat, sent ? 'withdrawal' : 'deposit'));
        return [];
      }
      row.problem(one.column, moneyOnly(one.side.fiat));
      return [];
    }
    const asset = (one.side as { pooled: string }).pooled;
    const draft = sent ? sentOnly(row, label, worth) : receivedOnly(row, label, worth);
    drafts = draft ? [{ asset, quantity: one.amount, ...draft }] : [];
  }
  if (row.failed) return [];
  // Net Worth is the worth of the Sent Amount, which leaves out the fee (Koinly's Fee Amount is its own
  // column): a fee in the sent token is priced at Net Worth over the Sent Amount, the trade's one price.
  const fee = readFee(row, { quantity: 'fee amount', asset: 'fee currency' }, drafts);
  if (fee === undefined) return [];
  // The fee goes with the first record: the disposal of a trade, or the row's one record.
  return drafts.map((draft, i) => ({ ...base, ...draft, fee: i === 0 ? fee : null }));
}

export function leg(row: RecordRow, amountColumn: string, currencyColumn: string): Leg | null | undefined {
  const amount = row.amount(amountColumn, true);
  const currency = row.text(currencyColumn);
  if (amount === undefined) return undefined;
  if (amount === null) {
    if (currency !== '') row.problem(amountColumn, `is empty but ${row.columnName(currencyColumn)} is given`);
    return row.failed ? undefined : null;
  }
  if (currency === '') {
    row.problem(currencyColumn, `is empty: name the currency of ${row.columnName(amountColumn)}`);
    return undefined;
  }
  return { amount, side: side(currency), column: currencyColumn };
}

/** Net Worth in pounds, null when not given; another currency is refused. */
function netWorth(row: RecordRow): Decimal | null | undefined {
  const amount = row.amount('net worth amount', false);
  const currency = row.text('net worth currency').toUpperCase();
  if (amount === undefined) return undefined;
  if (amount === null) return null;
  if (currency !== 'GBP') {
    row.problem(
      'net worth currency',
      currency === '' ? 'is empty: give GBP' : `is ${currency}: the pack reads values in GBP only`,
    );
    return undefined;
  }
  return amount;
}

export function needWorth(row: RecordRow, worth: Decimal | null, what: string): Decimal | undefined {
  if (worth === null) {
    row.problem(
      'net worth amount',
      `is empty: ${what} needs its value in GBP (the pack looks up no prices for your records)`,
    );
    return undefined;
  }
  return worth;
}

export function receivedOnly(row: RecordRow, label: string, worth: Decimal | null) {
  if (label === '') return { kind: 'deposit' as const, gbp: worth };
  if (INCOME_LABELS.has(label)) {
    const gbp = needWorth(row, worth, 'income');
    return gbp && { kind: 'income' as const, gbp };
  }
  if (label === 'gift') {
    const gbp = needWorth(row, worth, 'a gift received');
    return gbp && { kind: 'buy' as const, gbp };
  }
  row.problem(
    'label',
    `"${label.slice(0, 30)}" is not read on a receipt: leave it empty (a deposit), an income label (staking, reward, airdrop, income, mining, lending interest) or gift`,
  );
  return undefined;
}

export function sentOnly(row: RecordRow, label: string, worth: Decimal | null) {
  if (label === '') return { kind: 'withdrawal' as const, gbp: worth };
  if (label === 'cost') {
    const gbp = needWorth(row, worth, 'a cost');
    return gbp && { kind: 'fee' as const, gbp };
  }
  if (label === 'gift') {
    const gbp = needWorth(row, worth, 'a gift sent');
    return gbp && { kind: 'sell' as const, gbp };
  }
  if (label === 'lost') return { kind: 'sell' as const, gbp: new CgtDecimal(0) };
  if (label === 'donation') {
    row.problem(
      'label',
      'donation is not read: a gift to a charity is at no gain and no loss; give it in the plain format as a sell at its cost, or leave the row out and tell your accountant',
    );
    return undefined;
  }
  row.problem(
    'label',
    `"${label.slice(0, 30)}" is not read on a sending: leave it empty (a withdrawal), or cost, gift or lost`,
  );
  return undefined;
}

export function trade(row: RecordRow, sent: Leg, received: Leg, label: string, worth: Decimal | null) {
  if (label !== '' && label !== 'swap') {
    row.problem('label', `"${label.slice(0, 30)}" is not read on a trade: leave it empty (or swap)`);
    return [];
  }
  const money = [sent, received].find((l) => 'fiat' in l.side);
  if ('fiat' in sent.side && 'fiat' in received.side) {
    row.problem(received.column, moneyOnly(received.side.fiat));
    return [];
  }
  const value =
    money && (money.side as { fiat: string }).fiat === 'GBP'
      ? money.amount
      : needWorth(
          row,
          worth,
          money ? `a trade against ${(money.side as { fiat: string }).fiat}` : 'a trade of two tokens',
        );
  if (value === undefined) return [];
  const drafts = [];
  if ('pooled' in sent.side)
    drafts.push({ kind: 'sell' as const, asset: sent.side.pooled, quantity: sent.amount, gbp: value });
  if ('pooled' in received.side) {
    drafts.push({ kind: 'buy' as const, asset: received.side.pooled, quantity: received.amount, gbp: value });
  }
  return drafts;
}
