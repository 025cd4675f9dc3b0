/**
 * The pack's capital gains transactions as the records other UK crypto tax tools import: one record per
 * economic action, so that a stake is one trade of TAO for alpha (not a disposal and a separate purchase),
 * and what crossed the order's edge is a transfer the other tool can pair with the user's own exchange
 * records. Every transaction the pack computed with is in exactly one record.
 *
 * - a disposal and an acquisition of two assets under one reference (a stake, an unstake, a move across
 *   subnets): a trade; a fee paid in alpha with it goes in the fee columns (its value is in the trade's
 *   figures as the tools book a token fee: a disposal of it, and an allowable cost split between the sides);
 * - a day's staking income: staking income at its value when received; the fees paid out with a liquidity
 *   position: income at their value when received;
 * - TAO or stake that came from, or went to, an address outside the order: a deposit or a withdrawal (the
 *   pack itself takes them at market value unless the buyer named the address as their own);
 * - a move between the order and an address the buyer owns, or matched with a withdrawal or deposit in the
 *   buyer's records: the tools' own transfer pair (a withdrawal from one wallet, a deposit into the other),
 *   never a trade, so that a tool given the exchange's own export as well matches it instead of counting it;
 * - the buyer's records: a purchase or sale as a trade against pounds, a row that exchanged two tokens as one
 *   trade, income as income, each with its fee; a negligible value claim as BittyTax's Lost;
 * - the holdings when the record opens, and holdings the record does not explain: acquired at market value
 *   with no income (the pack's stated assumption), or the buyer's opening pools;
 * - any other disposal: spent at its value (£0 for stake that is gone for nothing).
 */
import { Decimal } from 'decimal.js';
import { type ActionKind, CROSSING_KINDS } from '../../../chain-record/actions/action-kind.js';
import type { CgtTransaction } from '../../../uk-rules/cgt/cgt-types.js';
import { LIQUIDITY_FEES_REF } from '../../../uk-rules/cgt/liquidity-fees-ref.js';
import type { OwnTransfer } from '../../own-records/combine-own-records.js';
import type { OwnRecord } from '../../own-records/customer-inputs.js';

export type ExportKind =
  | 'trade'
  | 'staking-income'
  | 'income'
  | 'deposit'
  | 'withdrawal'
  | 'acquired-at-market-value'
  | 'disposed'
  | 'negligible-value-claim';

export interface ExportLeg {
  asset: string;
  quantity: Decimal;
  gbp: Decimal;
  /** The quantity's and the value's text as the tools' CSVs write them, once made (`leg-text.ts`). */
  quantityText?: string | undefined;
  poundsText?: string | undefined;
}

export interface ExportRecord {
  kind: ExportKind;
  at: Date;
  /** Acquired (trade, income, deposit, acquired at market value). */
  buy?: ExportLeg;
  /** Disposed of (trade, withdrawal, disposed). */
  sell?: ExportLeg;
  /** A fee paid with it: in a token (TAO, alpha) or in pounds (`GBP`). */
  fee?: ExportLeg;
  /** The wallet or exchange it happened in, when not the order's coldkeys (a buyer's record). */
  wallet?: string;
  /** The pack's reference: `income 2026-05-01`, `event 123/4`, `opening 2025-10-01`. */
  ref: string;
  note: string;
}

/**
 * What the exports read of an event's treatment (`EventTreatment` has it): the transactions the event made,
 * the text of its treatment and its action's kind.
 */
export interface ExportEvent {
  transactions: readonly CgtTransaction[];
  treatment: string;
  action: { kind: ActionKind };
}

/** What the buyer added, as combining made it (`combineOwnRecords`): their records and own transfers. */
export interface ExportCustomer {
  recordOf: ReadonlyMap<CgtTransaction, OwnRecord>;
  ownTransfers: readonly OwnTransfer[];
  /** A row reduced by last year's 30-day matches, to the chain row it was. */
  originalOf: ReadonlyMap<CgtTransaction, CgtTransaction>;
  /** Deposits and withdrawals of the records that matched no transfer. */
  unmatchedRecords: readonly OwnRecord[];
}

export function exportRecords(
  transactions: readonly CgtTransaction[],
  events: readonly ExportEvent[],
  customer: ExportCustomer = {
    recordOf: new Map(),
    ownTransfers: [],
    originalOf: new Map(),
    unmatchedRecords: [],
  },
): ExportRecord[] {
  const treatmentOf = new Map<CgtTransaction, ExportEvent>();
  for (const treated of events) for (const tx of treated.transactions) treatmentOf.set(tx, treated);
  const eventOf = {
    get: (tx: CgtTransaction) => treatmentOf.get(customer.originalOf.get(tx) ?? tx),
  };
  // The transactions of one instant and reference, in the order each group first appears: keyed by the instant,
  // then the reference, not by a text made of both for each of a big record's hundred thousand transactions.
  const groups: CgtTransaction[][] = [];
  const byInstant = new Map<number, Map<string, CgtTransaction[]>>();
  const records: ExportRecord[] = [];
  const byRecord = new Map<OwnRecord, CgtTransaction[]>();
  // Tens of thousands of transactions for a big coldkey: each group's list grows in place.
  const add = <K>(lists: Map<K, CgtTransaction[]>, key: K, tx: CgtTransaction) => {
    const list = lists.get(key);
    if (list) list.push(tx);
    else lists.set(key, [tx]);
  };
  for (const tx of transactions) {
    const record = customer.recordOf.get(tx);
    if (record) {
      add(byRecord, record, tx);
      continue;
    }
    let byRef = byInstant.get(tx.at.getTime());
    if (!byRef) {
      byRef = new Map();
      byInstant.set(tx.at.getTime(), byRef);
    }
    const group = byRef.get(tx.ref ?? '');
    if (group) group.push(tx);
    else {
      const made = [tx];
      byRef.set(tx.ref ?? '', made);
      groups.push(made);
    }
  }
  for (const group of groups) {
    if (group.length === 2 && group[0]!.action !== group[1]!.action && group[0]!.asset !== group[1]!.asset) {
      const [acquired, disposed] = group[0]!.action === 'acquire' ? group : [group[1]!, group[0]!];
      records.push(trade(acquired!, disposed!, eventOf.get(acquired!)?.treatment));
      continue;
    }
    for (const tx of group) records.push(single(tx, eventOf.get(tx)));
  }
  const transferred = new Set<OwnRecord>();
  for (const move of customer.ownTransfers) {
    records.push(...ownTransferRecords(move));
    if (move.record) transferred.add(move.record);
  }
  // A row of the records that traded two tokens (its sell and its buy) is one trade, its fee with it, so
  // that the other tool allocates the fee to both sides as the pack did.
  const exported = new Set<OwnRecord>();
  const byLine = new Map<string, OwnRecord[]>();
  for (const record of byRecord.keys()) {
    const key = `${record.source}\u0000${record.line}`;
    byLine.set(key, [...(byLine.get(key) ?? []), record]);
  }
  for (const [record, txs] of byRecord) {
    if (transferred.has(record) || exported.has(record)) continue;
    const partner = (byLine.get(`${record.source}\u0000${record.line}`) ?? []).find(
      (other) =>
        other !== record &&
        ((other.kind === 'buy' && record.kind === 'sell') ||
          (other.kind === 'sell' && record.kind === 'buy')),
    );
    if (partner && !transferred.has(partner)) {
      const [sell, buy] = record.kind === 'sell' ? [record, partner] : [partner, record];
      records.push(recordTrade(sell, byRecord.get(sell)!, buy, byRecord.get(buy)!));
      exported.add(partner);
    } else {
      records.push(recordExport(record, txs));
    }
    exported.add(record);
  }
  // A deposit or withdrawal that matched nothing books only its fee, if any: still one record each.
  for (const record of customer.unmatchedRecords) {
    if (!byRecord.has(record)) records.push(recordExport(record, []));
  }
  // In time order (a stable sort); a big record's are in that order already, and kept as they are.
  const byTime = (a: ExportRecord, b: ExportRecord) => a.at.getTime() - b.at.getTime();
  for (let i = 1; i < records.length; i++)
    if (byTime(records[i - 1]!, records[i]!) > 0) return records.sort(byTime);
  return records;
}

/**
 * An exchange of two tokens. A fee paid in the disposed token is shown in the fee columns: the sell leg
 * keeps the rest; the buy leg's value is what was received, the tools adding their share of the fee.
 */
function trade(buy: CgtTransaction, sell: CgtTransaction, treatment: string | undefined): ExportRecord {
  const fee = sell.paidAsFee;
  const record: ExportRecord = {
    kind: 'trade',
    at: buy.at,
    buy: leg(buy),
    sell: leg(sell),
    ref: buy.ref ?? '',
    note: treatment ?? 'exchange of one token for another',
  };
  if (fee) {
    const allowedOnSell = sell.fee ?? new Decimal(0);
    record.sell = {
      asset: sell.asset,
      quantity: sell.quantity.minus(fee.quantity),
      gbp: sell.gbp.minus(fee.gbp),
    };
    record.buy = {
      asset: buy.asset,
      quantity: buy.quantity,
      gbp: buy.gbp.minus(fee.gbp.minus(allowedOnSell)),
    };
    record.fee = { asset: sell.asset, quantity: fee.quantity, gbp: fee.gbp };
  }
  return record;
}

/** A move between the buyer's own holdings: a withdrawal from one side and a deposit into the other. */
function ownTransferRecords(move: OwnTransfer): ExportRecord[] {
  const coldkeys = 'Bittensor';
  // The records' side is the wallet the records keep (so its balance holds in the other tool); an address
  // with no record is the buyer's label for it.
  const other = move.record
    ? (move.record.wallet ?? move.record.source)
    : (move.label ?? move.counterparty ?? 'own wallet');
  const moved: ExportLeg = { asset: move.asset, quantity: move.quantity, gbp: new Decimal(0) };
  const ref = move.chainRef ?? '';
  const fee = move.record?.fee ? feeLeg(move.record) : undefined;
  const note = `a move between your own wallets (${move.label ?? other}${move.counterparty ? ` ${move.counterparty}` : ''}): not a disposal`;
  const from = move.direction === 'in' ? other : coldkeys;
  const to = move.direction === 'in' ? coldkeys : other;
  return [
    { kind: 'withdrawal', at: move.at, sell: moved, ...(fee ? { fee } : {}), wallet: from, ref, note },
    { kind: 'deposit', at: move.at, buy: moved, wallet: to, ref, note },
  ];
}

/** A row of the buyer's records that exchanged one token for another, with its fee. */
function recordTrade(
  sell: OwnRecord,
  sellTxs: readonly CgtTransaction[],
  buy: OwnRecord,
  buyTxs: readonly CgtTransaction[],
): ExportRecord {
  const assetOf = (record: OwnRecord, txs: readonly CgtTransaction[]) =>
    txs.find((tx) => !(tx.ref ?? '').endsWith(' fee'))?.asset ?? record.asset;
  const paid = sell.fee ? sell : buy.fee ? buy : null;
  return {
    kind: 'trade',
    at: sell.at,
    ref: `${sell.source} line ${sell.line}`,
    wallet: sell.wallet ?? sell.source,
    sell: { asset: assetOf(sell, sellTxs), quantity: sell.quantity, gbp: sell.gbp ?? new Decimal(0) },
    buy: { asset: assetOf(buy, buyTxs), quantity: buy.quantity, gbp: buy.gbp ?? new Decimal(0) },
    ...(paid ? { fee: feeLeg(paid) } : {}),
    note: 'exchanged one token for another (your records)',
  };
}

/** One of the buyer's own records, with the transactions the pack made of it. */
function recordExport(record: OwnRecord, txs: readonly CgtTransaction[]): ExportRecord {
  const main = txs.find((tx) => !(tx.ref ?? '').endsWith(' fee')) ?? null;
  const base = {
    at: record.at,
    ref: `${record.source} line ${record.line}`,
    wallet: record.wallet ?? record.source,
    ...(record.fee ? { fee: feeLeg(record) } : {}),
  };
  const own: ExportLeg = {
    asset: main?.asset ?? record.asset,
    quantity: record.quantity,
    gbp: record.gbp ?? new Decimal(0),
  };
  const pounds: ExportLeg = {
    asset: 'GBP',
    quantity: record.gbp ?? new Decimal(0),
    gbp: record.gbp ?? new Decimal(0),
  };
  switch (record.kind) {
    case 'buy':
      return { ...base, kind: 'trade', buy: own, sell: pounds, note: 'bought (your records)' };
    case 'sell':
      if (record.claim) {
        return {
          ...base,
          kind: 'negligible-value-claim',
          sell: own,
          note: 'negligible value claim (your records): disposed of and reacquired at the claimed value',
        };
      }
      return { ...base, kind: 'trade', sell: own, buy: pounds, note: 'sold (your records)' };
    case 'income':
      return { ...base, kind: 'income', buy: own, note: 'income (your records)' };
    case 'fee':
      return { ...base, kind: 'disposed', sell: own, note: 'fee paid in tokens (your records)' };
    case 'deposit':
      return {
        ...base,
        kind: 'deposit',
        buy: own,
        note: 'deposit (your records): matched with no transfer of the order',
      };
    default:
      return {
        ...base,
        kind: 'withdrawal',
        sell: own,
        note: 'withdrawal (your records): matched with no transfer of the order',
      };
  }
}

function feeLeg(record: OwnRecord): ExportLeg {
  const fee = record.fee!;
  return {
    asset: fee.asset.toUpperCase() === 'GBP' ? 'GBP' : fee.asset,
    quantity: fee.quantity,
    gbp: fee.gbp,
  };
}

function single(tx: CgtTransaction, treated: ExportEvent | undefined): ExportRecord {
  const ref = tx.ref ?? '';
  const base = { at: tx.at, ref };
  const crossed = treated !== undefined && CROSSING_KINDS.has(treated.action.kind);
  if (tx.action === 'acquire') {
    // Most of a big record's records: made whole, not spread from the base.
    if (ref.startsWith('income ')) {
      return {
        kind: 'staking-income',
        at: tx.at,
        ref,
        buy: leg(tx),
        note: 'staking income, valued when received',
      };
    }
    if (tx.kind === 'income' && ref.startsWith(LIQUIDITY_FEES_REF)) {
      return {
        ...base,
        kind: 'income',
        buy: leg(tx),
        note: 'fees paid out with a liquidity position: income, valued when received',
      };
    }
    if (crossed) {
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
      note: ref.startsWith('opening pool')
        ? 'your opening pool: its quantity at its pooled cost'
        : ref.startsWith('opening ')
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
  // Its texts' places kept from the start: every leg of a big record has the same shape when they are made.
  return {
    asset: tx.asset,
    quantity: tx.quantity,
    gbp: tx.gbp,
    quantityText: undefined,
    poundsText: undefined,
  };
}
