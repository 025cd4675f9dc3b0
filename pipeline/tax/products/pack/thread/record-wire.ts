/**
 * A record's final transactions (`ExportFilesInput`: what the gains and the exports are computed from) as a
 * message to the pack's thread. A big coldkey's record is a hundred thousand transactions: each field becomes
 * a column (typed arrays handed over without a copy, texts in plain arrays). For the staker in 100 subnets that
 * takes about 0.3 s and 14 MB; the transactions' objects, cloned as they are, took 0.8 s and 26 MB. Every
 * transaction is written once and named by its index, so that what is one object here (a transaction in the
 * record and in its event, a record's transactions) is one object on the other side: the exports match them
 * by identity.
 */
import { Decimal } from 'decimal.js';
import {
  columnBuffers,
  type DecimalColumn,
  DecimalColumnWriter,
  decimalAt,
  withDecimalsCloneable,
  withDecimalsRestored,
} from '../../../../threads/decimals-across-threads.js';
import type { ActionKind } from '../../../chain-record/actions/action-kind.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import { CGT_ROW_KINDS, type CgtTransaction } from '../../../uk-rules/cgt/cgt-types.js';
import type { OwnTransfer } from '../../own-records/combine-own-records.js';
import type { OwnRecord } from '../../own-records/customer-inputs.js';
import type { ExportFilesInput } from '../exports/export-files.js';
import type { ExportEvent } from '../exports/export-records.js';

/** The constructors of the decimals the record holds: decimal.js's default and the gains engine's. */
export const DECIMAL_CONSTRUCTORS = [Decimal, CgtDecimal];
/** A transaction's kind or a text left out. */
const NONE = 255;

interface TransactionColumns {
  at: Float64Array;
  assets: string[];
  asset: Uint32Array;
  /** 1: a disposal; 0: an acquisition. */
  disposes: Uint8Array;
  quantity: DecimalColumn;
  gbp: DecimalColumn;
  fee: DecimalColumn;
  feePaidQuantity: DecimalColumn;
  feePaidGbp: DecimalColumn;
  ref: (string | null)[];
  /** The index in `CGT_ROW_KINDS`, `NONE` when it has none. */
  kind: Uint8Array;
  counterparty: (string | null)[];
  claim: Uint8Array;
}

export interface RecordWire {
  transactions: TransactionColumns;
  record: Uint32Array;
  chainRecord: Uint32Array;
  events: {
    texts: string[];
    treatment: Uint32Array;
    kinds: ActionKind[];
    kind: Uint8Array;
    /** Where each event's transactions end in `transactions` (they start where the one before ended). */
    end: Uint32Array;
    transactions: Uint32Array;
  };
  customer: {
    /** The buyer's records and their own transfers, with their decimals made cloneable. */
    cloned: unknown;
    recordOf: Array<[number, number]>;
    originalOf: Array<[number, number]>;
    unmatched: number[];
  };
  openingAt: number;
}

/** The message, and the buffers to hand over with it. */
export function toRecordWire(input: ExportFilesInput): { wire: RecordWire; transfer: ArrayBuffer[] } {
  const listed = new Interned<CgtTransaction>();
  const indexOf = (tx: CgtTransaction) => listed.indexOf(tx);
  const indices = (list: readonly CgtTransaction[]) => Uint32Array.from(list, indexOf);
  const record = indices(input.transactions);
  const chainRecord = indices(input.chainTransactions);
  const events = eventColumns(input.events, indexOf);
  const records = new Interned<OwnRecord>();
  const ownRecord = (r: OwnRecord) => records.indexOf(r);
  const { customer } = input;
  const recordOf = [...customer.recordOf].map(([tx, r]): [number, number] => [indexOf(tx), ownRecord(r)]);
  const originalOf = [...customer.originalOf].map(([tx, was]): [number, number] => [
    indexOf(tx),
    indexOf(was),
  ]);
  const unmatched = customer.unmatchedRecords.map(ownRecord);
  for (const move of customer.ownTransfers) if (move.record) ownRecord(move.record);
  const transactions = transactionColumns(listed.values);
  const wire: RecordWire = {
    transactions,
    record,
    chainRecord,
    events,
    customer: {
      cloned: withDecimalsCloneable(
        { records: records.values, ownTransfers: customer.ownTransfers },
        DECIMAL_CONSTRUCTORS,
      ),
      recordOf,
      originalOf,
      unmatched,
    },
    openingAt: input.openingAt.getTime(),
  };
  const decimals = [
    transactions.quantity,
    transactions.gbp,
    transactions.fee,
    transactions.feePaidQuantity,
    transactions.feePaidGbp,
  ];
  const arrays = [
    transactions.at,
    transactions.asset,
    transactions.disposes,
    transactions.kind,
    transactions.claim,
    record,
    chainRecord,
    events.treatment,
    events.kind,
    events.end,
    events.transactions,
  ];
  return {
    wire,
    transfer: [...arrays.map((array) => array.buffer as ArrayBuffer), ...decimals.flatMap(columnBuffers)],
  };
}

export function fromRecordWire(wire: RecordWire): ExportFilesInput {
  const listed = transactionsFrom(wire.transactions);
  const { events } = wire;
  const exportEvents: ExportEvent[] = [];
  for (let i = 0, from = 0; i < events.treatment.length; from = events.end[i]!, i++) {
    exportEvents.push({
      transactions: Array.from(events.transactions.subarray(from, events.end[i]!), (at) => listed[at]!),
      treatment: events.texts[events.treatment[i]!]!,
      action: { kind: events.kinds[events.kind[i]!]! },
    });
  }
  const { records, ownTransfers } = withDecimalsRestored<{
    records: OwnRecord[];
    ownTransfers: OwnTransfer[];
  }>(wire.customer.cloned, DECIMAL_CONSTRUCTORS);
  return {
    transactions: Array.from(wire.record, (at) => listed[at]!),
    chainTransactions: Array.from(wire.chainRecord, (at) => listed[at]!),
    events: exportEvents,
    customer: {
      recordOf: new Map(wire.customer.recordOf.map(([tx, r]) => [listed[tx]!, records[r]!])),
      originalOf: new Map(wire.customer.originalOf.map(([tx, was]) => [listed[tx]!, listed[was]!])),
      ownTransfers,
      unmatchedRecords: wire.customer.unmatched.map((r) => records[r]!),
    },
    openingAt: new Date(wire.openingAt),
  };
}

/** Each event's treatment and action kind (each distinct text written once) and its transactions' indices. */
function eventColumns(
  list: readonly ExportEvent[],
  indexOf: (tx: CgtTransaction) => number,
): RecordWire['events'] {
  const texts = new Interned<string>();
  const kinds = new Interned<ActionKind>();
  const treatment = new Uint32Array(list.length);
  const kind = new Uint8Array(list.length);
  const end = new Uint32Array(list.length);
  const transactions: number[] = [];
  list.forEach((event, i) => {
    treatment[i] = texts.indexOf(event.treatment);
    kind[i] = kinds.indexOf(event.action.kind);
    for (const tx of event.transactions) transactions.push(indexOf(tx));
    end[i] = transactions.length;
  });
  return {
    texts: texts.values,
    treatment,
    kinds: kinds.values,
    kind,
    end,
    transactions: Uint32Array.from(transactions),
  };
}

function transactionColumns(list: readonly CgtTransaction[]): TransactionColumns {
  const n = list.length;
  const assets = new Interned<string>();
  const columns = {
    at: new Float64Array(n),
    asset: new Uint32Array(n),
    disposes: new Uint8Array(n),
    kind: new Uint8Array(n),
    claim: new Uint8Array(n),
    ref: new Array<string | null>(n),
    counterparty: new Array<string | null>(n),
  };
  const quantity = new DecimalColumnWriter(n, DECIMAL_CONSTRUCTORS);
  const gbp = new DecimalColumnWriter(n, DECIMAL_CONSTRUCTORS);
  const fee = new DecimalColumnWriter(n, DECIMAL_CONSTRUCTORS);
  const feePaidQuantity = new DecimalColumnWriter(n, DECIMAL_CONSTRUCTORS);
  const feePaidGbp = new DecimalColumnWriter(n, DECIMAL_CONSTRUCTORS);
  for (let i = 0; i < n; i++) {
    const tx = list[i]!;
    columns.at[i] = tx.at.getTime();
    columns.asset[i] = assets.indexOf(tx.asset);
    columns.disposes[i] = tx.action === 'dispose' ? 1 : 0;
    columns.kind[i] = tx.kind === undefined ? NONE : CGT_ROW_KINDS.indexOf(tx.kind);
    columns.claim[i] = tx.claim ? 1 : 0;
    columns.ref[i] = tx.ref ?? null;
    columns.counterparty[i] = tx.counterparty ?? null;
    quantity.add(tx.quantity);
    gbp.add(tx.gbp);
    fee.add(tx.fee);
    feePaidQuantity.add(tx.paidAsFee?.quantity);
    feePaidGbp.add(tx.paidAsFee?.gbp);
  }
  return {
    ...columns,
    assets: assets.values,
    quantity: quantity.column(),
    gbp: gbp.column(),
    fee: fee.column(),
    feePaidQuantity: feePaidQuantity.column(),
    feePaidGbp: feePaidGbp.column(),
  };
}

/** The transactions again, each field as it was (an optional one only where it was given). */
function transactionsFrom(columns: TransactionColumns): CgtTransaction[] {
  const list: CgtTransaction[] = new Array(columns.at.length);
  for (let i = 0; i < list.length; i++) {
    const tx: CgtTransaction = {
      at: new Date(columns.at[i]!),
      asset: columns.assets[columns.asset[i]!]!,
      action: columns.disposes[i] === 1 ? 'dispose' : 'acquire',
      quantity: decimalAt(columns.quantity, i, DECIMAL_CONSTRUCTORS)!,
      gbp: decimalAt(columns.gbp, i, DECIMAL_CONSTRUCTORS)!,
    };
    const fee = decimalAt(columns.fee, i, DECIMAL_CONSTRUCTORS);
    if (fee) tx.fee = fee;
    const paidQuantity = decimalAt(columns.feePaidQuantity, i, DECIMAL_CONSTRUCTORS);
    if (paidQuantity)
      tx.paidAsFee = { quantity: paidQuantity, gbp: decimalAt(columns.feePaidGbp, i, DECIMAL_CONSTRUCTORS)! };
    const ref = columns.ref[i];
    if (ref !== null && ref !== undefined) tx.ref = ref;
    if (columns.kind[i] !== NONE) tx.kind = CGT_ROW_KINDS[columns.kind[i]!]!;
    const counterparty = columns.counterparty[i];
    if (counterparty !== null && counterparty !== undefined) tx.counterparty = counterparty;
    if (columns.claim[i] === 1) tx.claim = true;
    list[i] = tx;
  }
  return list;
}

/** Distinct values (or objects) in the order first met, each named by its index. */
class Interned<T> {
  readonly values: T[] = [];
  private readonly index = new Map<T, number>();

  indexOf(value: T): number {
    let at = this.index.get(value);
    if (at === undefined) {
      at = this.values.length;
      this.index.set(value, at);
      this.values.push(value);
    }
    return at;
  }
}
