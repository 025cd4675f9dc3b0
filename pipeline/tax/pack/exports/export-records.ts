/**
 * The pack's capital gains transactions as the records other UK crypto tax tools import: one record per
 * economic action, so that a stake is one trade of TAO for alpha (not a disposal and a separate purchase),
 * and what crossed the order's edge is a transfer the other tool can pair with the user's own exchange
 * records. Every transaction of `cgt-input.csv` is in exactly one record.
 *
 * - a disposal and an acquisition of two assets under one reference (a stake, an unstake, a move across
 *   subnets): a trade;
 * - a day's staking income: staking income at its value when received;
 * - TAO or stake that came from, or went to, a coldkey outside the order: a deposit or a withdrawal (the pack
 *   itself takes them at market value; the other tool holds the user's wallets and exchanges);
 * - the holdings when the record opens, and holdings the record does not explain: acquired at market value
 *   with no income (the pack's stated assumption);
 * - any other disposal: spent at its value (£0 for stake that is gone for nothing).
 */
import type { Decimal } from 'decimal.js';
import type { CgtTransaction } from '../../cgt/cgt-types.js';
import type { EventTreatment } from '../../cgt-transactions.js';

export type ExportKind =
  | 'trade'
  | 'staking-income'
  | 'deposit'
  | 'withdrawal'
  | 'acquired-at-market-value'
  | 'disposed';

export interface ExportLeg {
  asset: string;
  quantity: Decimal;
  gbp: Decimal;
}

export interface ExportRecord {
  kind: ExportKind;
  at: Date;
  /** Acquired (trade, income, deposit, acquired at market value). */
  buy?: ExportLeg;
  /** Disposed of (trade, withdrawal, disposed). */
  sell?: ExportLeg;
  /** The pack's reference: `income 2026-05-01`, `event 123/4`, `opening 2025-10-01`. */
  ref: string;
  note: string;
}

/** Chain events whose coins crossed the order's edge: a transfer, not an exchange. */
const TRANSFER_KINDS = new Set(['Transfer', 'StakeTransferred']);

export function exportRecords(
  transactions: readonly CgtTransaction[],
  events: readonly EventTreatment[],
): ExportRecord[] {
  const eventOf = new Map<CgtTransaction, EventTreatment>();
  for (const treated of events) for (const tx of treated.transactions) eventOf.set(tx, treated);
  const groups = new Map<string, CgtTransaction[]>();
  for (const tx of transactions) {
    const key = `${tx.at.getTime()}|${tx.ref ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), tx]);
  }
  const records: ExportRecord[] = [];
  for (const group of groups.values()) {
    const acquired = group.filter((tx) => tx.action === 'acquire');
    const disposed = group.filter((tx) => tx.action === 'dispose');
    if (acquired.length === 1 && disposed.length === 1 && acquired[0]!.asset !== disposed[0]!.asset) {
      const [buy, sell] = [acquired[0]!, disposed[0]!];
      records.push({
        kind: 'trade',
        at: buy.at,
        buy: leg(buy),
        sell: leg(sell),
        ref: buy.ref ?? '',
        note: eventOf.get(buy)?.treatment ?? 'exchange of one token for another',
      });
      continue;
    }
    for (const tx of group) records.push(single(tx, eventOf.get(tx)));
  }
  return records;
}

function single(tx: CgtTransaction, treated: EventTreatment | undefined): ExportRecord {
  const ref = tx.ref ?? '';
  const base = { at: tx.at, ref };
  const crossed = treated !== undefined && TRANSFER_KINDS.has(treated.event.kind);
  if (tx.action === 'acquire') {
    if (ref.startsWith('income ')) {
      return { ...base, kind: 'staking-income', buy: leg(tx), note: 'staking income, valued when received' };
    }
    if (crossed || treated?.event.role === 'destination') {
      return {
        ...base,
        kind: 'deposit',
        buy: leg(tx),
        note: `received from outside the order (${treated!.treatment}); pair it with the sending wallet or exchange`,
      };
    }
    return {
      ...base,
      kind: 'acquired-at-market-value',
      buy: leg(tx),
      note: ref.startsWith('opening ')
        ? 'held when the record opens: at market value (the pack assumes; use your own cost if you have it)'
        : (treated?.treatment ?? 'held but not explained by the record: at market value'),
    };
  }
  if (crossed) {
    return {
      ...base,
      kind: 'withdrawal',
      sell: leg(tx),
      note: `sent outside the order (${treated!.treatment}); pair it with the receiving wallet or exchange`,
    };
  }
  return {
    ...base,
    kind: 'disposed',
    sell: leg(tx),
    note:
      treated?.treatment ??
      (tx.gbp.isZero() ? 'gone for nothing: a disposal for £0' : 'disposal at its value'),
  };
}

function leg(tx: CgtTransaction): ExportLeg {
  return { asset: tx.asset, quantity: tx.quantity, gbp: tx.gbp };
}
