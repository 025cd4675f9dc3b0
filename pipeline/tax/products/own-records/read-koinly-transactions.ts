/**
 * Koinly's own transaction export (its "Transactions" page, exported as CSV): one row per transaction as
 * Koinly has classified it, with a `Type` column and values in the account's base currency (`Net Value
 * (GBP)`, `Fee Value (GBP)`). It is not the universal import template, though it has that template's
 * amount and currency columns: its `Type` says what a row is, where the template leaves it to the sides.
 *
 * - `buy`, `sell`, `exchange`: a trade (as the universal template's trade; the value is the pounds side,
 *   else Net Value);
 * - `crypto_deposit`: as a received-only row of the template (its `Tag`: none, an income tag, or gift);
 * - `crypto_withdrawal`: as a sent-only row (none, cost, gift, lost);
 * - `transfer`: tokens moved between two of the buyer's own wallets that Koinly knows of: a withdrawal and a
 *   deposit that book nothing (its fee, paid in a token, is a disposal);
 * - `fiat_deposit`, `fiat_withdrawal`: money moved, skipped and listed;
 * - any other type is refused with its line.
 *
 * Values in another currency are refused: the pack reads pounds only, and Koinly exports in the account's
 * base currency (set it to GBP, or export the universal template instead).
 */
import type { OwnRecord } from './customer-inputs.js';
import type { ReportProblem } from './input-problems.js';
import { koinlyLabel, type Leg, leg, receivedOnly, sentOnly, trade } from './read-koinly-records.js';
import { moneyOnly, moneySkipped, unknownAsset } from './record-asset.js';
import { readFee } from './record-fee.js';
import type { RecordRow } from './record-row.js';

export const KOINLY_TRANSACTIONS_COLUMNS = [
  'Date',
  'Type',
  'Label',
  'Sending Wallet',
  'Sent Amount',
  'Sent Currency',
  'Sent Cost Basis',
  'Receiving Wallet',
  'Received Amount',
  'Received Currency',
  'Received Cost Basis',
  'Fee Amount',
  'Fee Currency',
  'Gain (GBP)',
  'Net Value (GBP)',
  'Fee Value (GBP)',
  'TxSrc',
  'TxDest',
  'TxHash',
  'Description',
] as const;

export const KOINLY_TRANSACTIONS_REQUIRED = [
  'date',
  'type',
  'sent amount',
  'sent currency',
  'received amount',
  'received currency',
] as const;

export const KOINLY_TRANSACTIONS_NUMERIC = new Set([
  'sent amount',
  'received amount',
  'fee amount',
  'sent cost basis',
  'received cost basis',
  'gain (gbp)',
  'net value (gbp)',
  'fee value (gbp)',
]);

/** False (reported) when the export's values are not in pounds. */
export function koinlyTransactionsCurrency(header: readonly string[], report: ReportProblem): boolean {
  if (header.includes('net value (gbp)')) return true;
  const other = header.map((name) => /^net value \((\w+)\)$/.exec(name)?.[1]).find(Boolean);
  report(
    1,
    null,
    other
      ? `this Koinly transaction export gives its values in ${other.toUpperCase()}: the pack reads pounds only. Set your Koinly account's base currency to GBP and export again, or download Koinly's universal import template (its Net Worth in GBP) instead`
      : 'this looks like a Koinly transaction export without its Net Value (GBP) column: export it again from Koinly\u2019s Transactions page with every column, or give the universal import template instead',
  );
  return false;
}

export function readKoinlyTransactionRow(row: RecordRow, source: string): OwnRecord[] {
  const at = row.time('date');
  const type = row.text('type').toLowerCase();
  const label = koinlyLabel(row);
  const worth = row.amount('net value (gbp)', false);
  const sent = leg(row, 'sent amount', 'sent currency');
  const received = leg(row, 'received amount', 'received currency');
  if (at === undefined || sent === undefined || received === undefined || worth === undefined) return [];
  for (const l of [sent, received]) {
    if (l && 'unknown' in l.side) row.problem(l.column, unknownAsset(l.side.unknown));
  }
  if (row.failed) return [];
  const need = (one: Leg | null, column: string): Leg | undefined => {
    if (one === null) row.problem(column, `is empty: a ${row.text('type')} row moves an amount`);
    return one ?? undefined;
  };

  type Draft = Omit<OwnRecord, 'fee' | 'source' | 'line' | 'at' | 'wallet'> & { wallet: string | null };
  const wallet = (column: string) => row.text(column) || null;
  let drafts: Draft[] = [];
  switch (type) {
    case 'buy':
    case 'sell':
    case 'exchange': {
      const s = need(sent, 'sent amount');
      const r = need(received, 'received amount');
      if (!s || !r) return [];
      drafts = trade(row, s, r, label, worth).map((d) => ({ ...d, wallet: wallet('sending wallet') }));
      break;
    }
    case 'crypto_deposit':
    case 'fiat_deposit':
    case 'crypto_withdrawal':
    case 'fiat_withdrawal': {
      const deposit = type.endsWith('deposit');
      const one = deposit ? need(received, 'received amount') : need(sent, 'sent amount');
      if (!one) return [];
      if ('fiat' in one.side) {
        if (label === '') row.note(moneySkipped(one.side.fiat, deposit ? 'deposit' : 'withdrawal'));
        else row.problem(one.column, moneyOnly(one.side.fiat));
        return [];
      }
      const draft = deposit ? receivedOnly(row, label, worth) : sentOnly(row, label, worth);
      if (!draft) return [];
      drafts = [
        {
          asset: (one.side as { pooled: string }).pooled,
          quantity: one.amount,
          ...draft,
          wallet: wallet(deposit ? 'receiving wallet' : 'sending wallet'),
        },
      ];
      break;
    }
    case 'transfer': {
      const s = need(sent, 'sent amount');
      const r = need(received, 'received amount');
      if (!s || !r) return [];
      if (!('pooled' in s.side) || !('pooled' in r.side)) {
        if ('fiat' in s.side) row.note(moneySkipped(s.side.fiat, 'withdrawal'));
        return [];
      }
      const moved = { gbp: worth, betweenOwnWallets: true as const };
      drafts = [
        {
          kind: 'withdrawal',
          asset: s.side.pooled,
          quantity: s.amount,
          ...moved,
          wallet: wallet('sending wallet'),
        },
        {
          kind: 'deposit',
          asset: r.side.pooled,
          quantity: r.amount,
          ...moved,
          wallet: wallet('receiving wallet'),
        },
      ];
      break;
    }
    default:
      row.problem(
        'type',
        `"${row.text('type').slice(0, 30)}" is not a Koinly transaction type read here: buy, sell, exchange, transfer, crypto_deposit, crypto_withdrawal, fiat_deposit or fiat_withdrawal`,
      );
      return [];
  }
  if (row.failed) return [];
  const fee = readFee(row, { quantity: 'fee amount', asset: 'fee currency', gbp: 'fee value (gbp)' }, drafts);
  if (fee === undefined) return [];
  return drafts.map((draft, i) => ({ source, line: row.line, at, ...draft, fee: i === 0 ? fee : null }));
}
