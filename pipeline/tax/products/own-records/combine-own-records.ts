/**
 * The chain record of an order's coldkeys and the buyer's own records and addresses as one set of capital
 * gains transactions: HMRC keeps one section 104 pool per token per person, across every wallet and
 * exchange (CRYPTO22200), and a move between one's own wallets is no disposal (CRYPTO22150 on transfers
 * between one's own wallets; only a fee paid in tokens is a disposal).
 *
 * Both the pack and `sbm tax cgt` run this on the chain's transactions (what the pack writes to
 * `cgt-input.csv`), so an accountant with the same files gets the same figures:
 *
 * 1. Opening pools given by the buyer replace the market-value opening: entered figures stand at the
 *    record's first day; last year's `pools.csv` stands at the end of its day, and everything on or
 *    before that day is last year's (its acquisitions that last year's disposals already took under the
 *    30-day rule, its `matched-ahead` rows, are taken out of those days' acquisitions here).
 * 2. A transfer between the order's coldkeys and an address named as the buyer's own is a move within
 *    their holdings: no disposal, no acquisition; the cost stays in the pool.
 * 3. The records' buys, sells, income and fees enter the same pools; a deposit or withdrawal in the
 *    records that is paired with a transfer of the chain record (`pairTransfers`: one matching over all of
 *    them, the facts first) is the same move seen from the exchange's side: one own transfer, not two
 *    events. Unpaired ones book nothing and are listed as points to check, and so is a pairing that only
 *    nearness in time decided. A fee paid in a token inside a transfer that becomes an own move is kept: a
 *    disposal of that token at its value.
 *    A fee inside a trade of two tokens is allowable half against the disposal and half on the cost of what
 *    was acquired (CRYPTO22150: attributable to both; BittyTax's split, and the chain's own rule); a fee
 *    paid in a token is also a disposal of it at its value. A negligible value claim (BittyTax `Lost`) is a
 *    disposal and reacquisition at the claimed value, outside the same-day and 30-day rules.
 * 4. A record that sells more than the pool holds that UK day is refused with its file and line; the
 *    chain's own unexplained holdings are covered and flagged as before (`coverShortfalls`).
 */
import type { Decimal } from 'decimal.js';
import { ukDay, ukDayEndMs } from '../../../time/uk-day.js';
import { addDays, HOUR_MS } from '../../../time/utc-day.js';
import { CgtDecimal, plainDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import { coverShortfalls, type PackFlag, TAO_ASSET } from '../../uk-rules/cgt/cgt-transactions.js';
import type { CgtTransaction } from '../../uk-rules/cgt/cgt-types.js';
import { BED_AND_BREAKFAST_DAYS } from '../../uk-rules/cgt/compute-gains.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
  type OpeningPools,
  type OwnAddress,
  type OwnRecord,
} from './customer-inputs.js';
import { pairTransfers, TRANSFER_WINDOW_MS } from './pair-transfers.js';
import { isChainAsset, isFiat } from './record-asset.js';
import { coverTokenShortfalls, tokenMoveFlag, tokenMoves } from './token-moves.js';

export { TRANSFER_WINDOW_MS };
/** Quantities are exact to the RAO on the chain; an exchange may round to 8 places (or fewer: its fee). */
const QUANTITY_SLACK = new CgtDecimal('0.00000001');
/**
 * How much smaller than a withdrawal with its fee inside (`feeInside`) the chain's arrival may be: the larger
 * of 2 % of it and 0.1 token (an exchange's withdrawal fee is a fixed amount per network, large beside a
 * small withdrawal). A wider gap is not taken for a fee: the withdrawal is listed unpaired.
 */
const HIDDEN_FEE_SHARE = new CgtDecimal('0.02');
const HIDDEN_FEE_FLOOR = new CgtDecimal('0.1');

/** One move between the buyer's own holdings, as the PDF and the exports name it. */
export interface OwnTransfer {
  /** The chain transaction's ref (`event 123/4`); null for a record with no chain side. */
  chainRef: string | null;
  at: Date;
  asset: string;
  quantity: Decimal;
  direction: 'in' | 'out';
  /** The address on the other side, and the buyer's label for it when they named it. */
  counterparty: string | null;
  label: string | null;
  /** The record that shows the other side, when one does. */
  record: OwnRecord | null;
}

export interface CombinedTransactions {
  transactions: CgtTransaction[];
  flags: PackFlag[];
  ownTransfers: OwnTransfer[];
  /** Each record's transactions (a buy with its fee is one acquisition; a sell may carry a fee disposal). */
  recordOf: Map<CgtTransaction, OwnRecord>;
  /** A row last year's 30-day matches reduced, to the row it was (the exports find its event by it). */
  originalOf: Map<CgtTransaction, CgtTransaction>;
  /** The records' deposits and withdrawals that matched no transfer (listed, and exported as they are). */
  unmatchedRecords: OwnRecord[];
  opening: 'market value' | OpeningPools['source'];
}

/** Whether the buyer added anything: records, own addresses, opening pools or notes from reading files. */
export function hasOwnInputs(customer: CustomerInputs): boolean {
  return (
    customer.records.length > 0 ||
    customer.addresses.length > 0 ||
    customer.opening !== null ||
    (customer.notes ?? []).length > 0
  );
}

/**
 * The chain record alone, as `combineOwnRecords` makes it when the buyer added nothing (`hasOwnInputs`):
 * `cgtTransactions` already sorted its transactions and covered their shortfalls, so they stand as they are.
 * Combining them with nothing sorts them again and walks every holding a second time to cover nothing, a
 * second or so for a coldkey of hundreds of positions.
 */
export function chainRecordAlone(chain: {
  transactions: readonly CgtTransaction[];
  flags: readonly PackFlag[];
}): CombinedTransactions {
  return {
    transactions: [...chain.transactions],
    flags: [...chain.flags],
    ownTransfers: [],
    recordOf: new Map(),
    originalOf: new Map(),
    unmatchedRecords: [],
    opening: 'market value',
  };
}

/**
 * `openingAt`: the instant the record opens (the pack's first collected day's end); the chain's opening
 * rows stand there. Without one (a `cgt-input.csv` of an older pack), their own time is used.
 */
export function combineOwnRecords(
  chain: { transactions: readonly CgtTransaction[]; flags: readonly PackFlag[] },
  customer: CustomerInputs,
  openingAt?: Date,
): CombinedTransactions {
  const flags = [...chain.flags];
  const resolve = assetResolver(chain.transactions);

  // 1. The opening.
  const chainOpening = chain.transactions.find((tx) => tx.kind === 'opening');
  const recordOpensAt = openingAt ?? chainOpening?.at ?? chain.transactions[0]?.at ?? new Date(0);
  const opened = customer.opening
    ? openFromOwnPools(chain.transactions, customer.records, customer.opening, recordOpensAt, resolve, flags)
    : { rows: [...chain.transactions], records: [...customer.records] };
  const records = opened.records;
  let rows = opened.rows;
  flagReadingNotes(customer, recordOpensAt, flags);

  // 2. Own addresses: the chain's transfers with them are moves within the buyer's holdings.
  const own = new Map<string, OwnAddress>(customer.addresses.map((a) => [a.address, a]));
  const transfers = rows.filter((tx) => tx.kind === 'transfer-in' || tx.kind === 'transfer-out');
  const moves = new OwnMoves(flags);
  for (const tx of transfers) {
    const address = tx.counterparty === undefined ? undefined : own.get(tx.counterparty);
    if (address) moves.add(tx, address.label, null);
  }

  // 3. The records. Deposits and withdrawals first, paired with the chain's transfers as one matching.
  const recordOf = new Map<CgtTransaction, OwnRecord>();
  const { added, unmatchedRecords } = bookRecords(records, transfers, {
    own,
    moves,
    resolve,
    flags,
    recordOf,
  });
  added.push(...ownMoveFees(moves));
  rows = rows.filter((tx) => !moves.byTransaction.has(tx));
  rows.push(...added);

  // Last year's 30-day matches: their quantity leaves those days' acquisitions before anything else here.
  const originalOf = new Map<CgtTransaction, CgtTransaction>();
  if (customer.opening) {
    rows = leaveOutMatchedAhead(rows, customer.opening, resolve, flags, { recordOf, originalOf });
  }
  if (!customer.opening && chainOpening) flagEarlyRecords(records, recordOpensAt, flags);

  // 4. Holdings: a record may not sell what the pools do not hold; the chain's gaps are covered as before.
  const ordered = sortRows(rows);
  // A token other than TAO and alpha spent before the records show it arriving: at its market value.
  const covered = coverTokenShortfalls(ordered, flags, (tx) => {
    const record = recordOf.get(tx);
    return record ? recordRef(record) : (tx.ref ?? tx.asset);
  });
  const withCovers = covered.length === 0 ? ordered : sortRows([...ordered, ...covered]);
  const transactions = coverShortfalls(withCovers, flags, refuseRecordShortfall(recordOf));
  return {
    transactions,
    flags,
    ownTransfers: moves.list.sort((a, b) => a.at.getTime() - b.at.getTime()),
    recordOf,
    originalOf,
    unmatchedRecords,
    opening: customer.opening ? customer.opening.source : 'market value',
  };
}

/** By time, then asset, acquisitions before disposals. */
function sortRows(rows: CgtTransaction[]): CgtTransaction[] {
  return rows.sort(
    (a, b) =>
      a.at.getTime() - b.at.getTime() ||
      a.asset.localeCompare(b.asset) ||
      (a.action < b.action ? -1 : a.action > b.action ? 1 : 0),
  );
}

/**
 * Opening pools given by the buyer replace the market-value opening: the chain's opening rows and flag go,
 * and so does everything (chain or records) on or before the UK day the pools stand at; the pools enter as
 * acquisitions at their cost, and a flag says where they came from.
 */
function openFromOwnPools(
  chainRows: readonly CgtTransaction[],
  customerRecords: readonly OwnRecord[],
  opening: OpeningPools,
  recordOpensAt: Date,
  resolve: AssetResolver,
  flags: PackFlag[],
): { rows: CgtTransaction[]; records: OwnRecord[] } {
  for (let i = flags.length - 1; i >= 0; i--) if (flags[i]!.kind === 'opening') flags.splice(i, 1);
  let rows = chainRows.filter((tx) => tx.kind !== 'opening');
  // The pools stand at the end of a UK day (pools.csv's, or the record's first day for entered figures):
  // everything on or before it is already in them, and is left out.
  const asAt = opening.asAt ?? ukDay(recordOpensAt.getTime());
  const at = opening.asAt !== null ? new Date(ukDayEndMs(opening.asAt) - 1) : recordOpensAt;
  const before = rows.filter((tx) => ukDay(tx.at.getTime()) <= asAt).length;
  rows = rows.filter((tx) => ukDay(tx.at.getTime()) > asAt);
  const earlier = customerRecords.filter((r) => ukDay(r.at.getTime()) <= asAt);
  const records = customerRecords.filter((r) => ukDay(r.at.getTime()) > asAt);
  if (before + earlier.length > 0) {
    flags.push({
      date: asAt,
      kind: 'opening',
      text: `${before} chain transaction(s) and ${earlier.length} of your record(s) dated on or before ${asAt} are left out: the opening pools you gave stand at the end of that day and already hold them.`,
    });
  }
  for (const pool of opening.pools) {
    if (!pool.quantity.gt(0)) continue;
    rows.push({
      at,
      asset: resolve(pool.asset, at),
      action: 'acquire',
      quantity: new CgtDecimal(pool.quantity),
      gbp: new CgtDecimal(pool.cost),
      ref: `opening pool ${opening.asAt ?? ukDay(recordOpensAt.getTime())}`,
      kind: 'opening',
    });
  }
  const list = opening.pools
    .map((p) => `${resolve(p.asset, at)} ${plainDecimal(p.quantity)} costing £${p.cost.toFixed(2)}`)
    .join('; ');
  flags.push({
    date: opening.asAt ?? ukDay(recordOpensAt.getTime()),
    kind: 'opening',
    text:
      opening.source === 'pools.csv'
        ? `The pools open from your pools.csv of the pack before this one, as they stood at the end of ${opening.asAt} (${list || 'no pools'}), not at market value.`
        : `The pools open from the figures you gave, at the end of ${ukDay(recordOpensAt.getTime())}, the earliest day the service collected (${list || 'no pools'}), not at market value.`,
  });
  return { rows, records };
}

/**
 * What reading the files found to check (identical rows kept, money rows skipped, files overlapping), and a
 * pools.csv from a pack whose record ended before the 30-day rule could see all its matches.
 */
function flagReadingNotes(customer: CustomerInputs, recordOpensAt: Date, flags: PackFlag[]): void {
  for (const note of customer.notes ?? []) {
    flags.push({
      date: ukDay((note.at ?? recordOpensAt).getTime()),
      kind: 'own-records',
      text: `${note.file}${note.line > 0 ? ` line ${note.line}` : ''}: ${note.text}`,
    });
  }
  const provisionalUntil =
    customer.opening?.source === 'pools.csv' && customer.opening.asAt && customer.opening.recordEnd
      ? addDays(customer.opening.asAt, BED_AND_BREAKFAST_DAYS)
      : null;
  if (provisionalUntil && customer.opening!.recordEnd! < provisionalUntil) {
    flags.push({
      date: customer.opening!.asAt!,
      kind: 'opening',
      text: `Your pools.csv comes from a provisional pack: its record ended on ${customer.opening!.recordEnd}, less than ${BED_AND_BREAKFAST_DAYS} days after ${customer.opening!.asAt}, so acquisitions after that day that the 30-day rule matches with its last disposals were not seen, and its pools may hold what those matches would have taken. Give the pools.csv of that year's pack built after ${provisionalUntil} for final figures.`,
    });
  }
}

/**
 * The chain's transfers that are moves between the buyer's own holdings, in the order found, each once. A
 * transfer that becomes one loses its flags (it is no transfer out of or into the buyer's holdings).
 */
class OwnMoves {
  readonly byTransaction = new Map<CgtTransaction, OwnTransfer>();
  readonly list: OwnTransfer[] = [];

  constructor(private readonly flags: PackFlag[]) {}

  /** `tx` as an own move; found again (by an address and a record), it keeps the record that shows its other side. */
  add(tx: CgtTransaction, label: string | null, record: OwnRecord | null): OwnTransfer {
    const found = this.byTransaction.get(tx);
    if (found) {
      found.record ??= record;
      return found;
    }
    const move: OwnTransfer = {
      chainRef: tx.ref ?? null,
      at: tx.at,
      asset: tx.asset,
      quantity: tx.quantity,
      direction: tx.kind === 'transfer-in' ? 'in' : 'out',
      counterparty: tx.counterparty ?? null,
      label,
      record,
    };
    this.byTransaction.set(tx, move);
    this.list.push(move);
    this.dropFlagsOf(tx.ref);
    return move;
  }

  private dropFlagsOf(ref: string | undefined): void {
    if (ref === undefined) return;
    for (let i = this.flags.length - 1; i >= 0; i--) if (this.flags[i]!.ref === ref) this.flags.splice(i, 1);
  }
}

/** What `bookRecords` reads and adds to: the buyer's addresses, the own moves, the flags, each row's record. */
interface RecordBooking {
  own: ReadonlyMap<string, OwnAddress>;
  moves: OwnMoves;
  resolve: AssetResolver;
  flags: PackFlag[];
  recordOf: Map<CgtTransaction, OwnRecord>;
}

/**
 * The records' transactions, each mapped to its record: a deposit or withdrawal paired with a chain transfer
 * is an own move (with the fee it paid, and a fee hidden inside its amount, disposed of); an unpaired one
 * books nothing but its fee and is returned (and flagged unless the file names both wallets as the buyer's);
 * the buys, sells, income and fees after them.
 */
function bookRecords(
  records: readonly OwnRecord[],
  transfers: readonly CgtTransaction[],
  { own, moves, resolve, flags, recordOf }: RecordBooking,
): { added: CgtTransaction[]; unmatchedRecords: OwnRecord[] } {
  const added: CgtTransaction[] = [];
  const unmatchedRecords: OwnRecord[] = [];
  const book = (record: OwnRecord, txs: readonly CgtTransaction[]) => {
    for (const tx of txs) {
      added.push(tx);
      recordOf.set(tx, record);
    }
  };
  // TAO and alpha pair with the chain's transfers; any other token's moves only with each other.
  const onChain = records.filter((r) => isChainAsset(r.asset));
  const pairs = pairRecordTransfers(onChain, transfers, own, resolve, flags);
  const offChain = tokenMoves(records.filter((r) => !isChainAsset(r.asset)));
  for (const record of records) {
    if (record.kind !== 'deposit' && record.kind !== 'withdrawal') continue;
    if (!isChainAsset(record.asset)) {
      unmatchedRecords.push(record);
      const paired = offChain.has(record);
      if (!paired && !record.betweenOwnWallets) {
        flags.push(tokenMoveFlag(record));
        // A token arriving from nowhere the records show: acquired at its market value that day.
        if (record.kind === 'deposit' && record.dayRate) {
          book(record, [
            {
              at: record.at,
              asset: resolve(record.asset, record.at),
              action: 'acquire',
              quantity: new CgtDecimal(record.quantity),
              gbp: new CgtDecimal(record.quantity.times(record.dayRate)),
              ref: recordRef(record),
              kind: 'record',
            },
          ]);
        }
      }
      book(record, feeDisposal(record, resolve));
      continue;
    }
    const match = pairs.get(record);
    if (match) {
      moves.add(match, own.get(match.counterparty ?? '')?.label ?? record.wallet ?? record.source, record);
      book(record, hiddenFeeDisposal(record, match, resolve, flags));
    } else {
      unmatchedRecords.push(record);
      // A transfer between two wallets the file itself names as the buyer's books nothing and needs no check.
      if (!record.betweenOwnWallets) {
        flags.push({
          date: ukDay(record.at.getTime()),
          kind: 'own-records',
          text: `${record.source} line ${record.line}: a ${record.kind} of ${plainDecimal(record.quantity)} ${record.asset} on ${record.at.toISOString().slice(0, 16)}Z matches no transfer ${record.kind === 'withdrawal' ? 'into' : 'out of'} the order's coldkeys within ${TRANSFER_WINDOW_MS / HOUR_MS} hours: nothing is booked for it (a move between your own wallets). If the tokens came from or went to someone else, it is an acquisition or a disposal: check it.`,
        });
      }
    }
    book(record, feeDisposal(record, resolve));
  }
  for (const [record, txs] of recordsTransactions(
    records.filter((r) => r.kind !== 'deposit' && r.kind !== 'withdrawal'),
    resolve,
  )) {
    book(record, txs);
  }
  return { added, unmatchedRecords };
}

/**
 * The records' deposits and withdrawals paired with the chain's transfers (`pairTransfers`, one matching over
 * all of them); a pairing that only nearness in time decided is flagged as a point to check.
 */
function pairRecordTransfers(
  records: readonly OwnRecord[],
  transfers: readonly CgtTransaction[],
  own: ReadonlyMap<string, OwnAddress>,
  resolve: AssetResolver,
  flags: PackFlag[],
): Map<OwnRecord, CgtTransaction> {
  const moves = records.filter((r) => r.kind === 'deposit' || r.kind === 'withdrawal');
  const pairing = pairTransfers(moves, transfers, {
    assetOf: (record) => resolve(record.asset, record.at),
    slackOf: (record) =>
      record.feeInside
        ? QUANTITY_SLACK.plus(CgtDecimal.max(record.quantity.times(HIDDEN_FEE_SHARE), HIDDEN_FEE_FLOOR))
        : QUANTITY_SLACK.plus(
            record.fee && resolve(record.fee.asset, record.at) === resolve(record.asset, record.at)
              ? record.fee.quantity
              : 0,
          ),
    exactSlack: QUANTITY_SLACK,
    own,
  });
  for (const { record, transfer, alternative } of pairing.unsettled) {
    const other =
      'kind' in alternative && (alternative.kind === 'deposit' || alternative.kind === 'withdrawal')
        ? null
        : (alternative as CgtTransaction);
    flags.push({
      date: ukDay(record.at.getTime()),
      kind: 'own-records',
      text: other
        ? `${recordRef(record)}: this ${record.kind} of ${plainDecimal(record.quantity)} ${record.asset} was paired with the chain transfer ${describeTransfer(transfer)}, but ${describeTransfer(other)} fits it as well and the files do not tell them apart: the nearer in time was taken. Check which one the exchange made; naming your own addresses settles it.`
        : `${recordRef(record)}: this ${record.kind} of ${plainDecimal(record.quantity)} ${record.asset} was paired with the chain transfer ${describeTransfer(transfer)}, which ${recordRef(alternative as OwnRecord)} fits as well: the nearer in time was taken. Check which record it is.`,
    });
  }
  return pairing.pairs;
}

/**
 * A withdrawal that gives its fee inside its amount (`feeInside`): what did not arrive on the chain is the
 * exchange's fee, disposed of at that day's rate, and flagged for checking.
 */
function hiddenFeeDisposal(
  record: OwnRecord,
  match: CgtTransaction,
  resolve: AssetResolver,
  flags: PackFlag[],
): CgtTransaction[] {
  const hidden = record.feeInside ? record.quantity.minus(match.quantity) : null;
  if (!hidden?.gt(QUANTITY_SLACK)) return [];
  const fee = { asset: record.asset, quantity: hidden, gbp: hidden.times(record.dayRate ?? 0) };
  const txs = feeDisposal({ ...record, fee }, resolve);
  flags.push({
    date: ukDay(record.at.getTime()),
    kind: 'own-records',
    text: `${recordRef(record)}: this withdrawal of ${plainDecimal(record.quantity)} ${record.asset} gives its fee inside its amount; ${plainDecimal(match.quantity)} arrived on the chain, so the ${plainDecimal(hidden)} ${record.asset} between them is booked as the exchange's fee (a disposal at that day's TAO/GBP rate). Check it against the exchange's withdrawal record.`,
  });
  return txs;
}

/**
 * A fee paid in a token inside a transfer that became an own move is still a disposal of that token; the
 * move itself is what arrived, the fee taken off.
 */
function ownMoveFees(moves: OwnMoves): CgtTransaction[] {
  const fees: CgtTransaction[] = [];
  for (const [tx, move] of moves.byTransaction) {
    if (tx.action !== 'dispose' || !tx.paidAsFee || !tx.paidAsFee.quantity.gt(0)) continue;
    fees.push({
      at: tx.at,
      asset: tx.asset,
      action: 'dispose',
      quantity: new CgtDecimal(tx.paidAsFee.quantity),
      gbp: new CgtDecimal(tx.paidAsFee.gbp),
      ref: `${tx.ref ?? 'transfer'} fee`,
      paidAsFee: tx.paidAsFee,
    });
    move.quantity = tx.quantity.minus(tx.paidAsFee.quantity);
  }
  return fees;
}

/**
 * `takeMatchedAhead` on the rows; the exports still know a reduced row by what it was (a record's purchase,
 * a chain event's leg), so each replacement keeps its record and its original row.
 */
function leaveOutMatchedAhead(
  rows: CgtTransaction[],
  opening: OpeningPools,
  resolve: AssetResolver,
  flags: PackFlag[],
  { recordOf, originalOf }: Pick<CombinedTransactions, 'recordOf' | 'originalOf'>,
): CgtTransaction[] {
  const replaced = takeMatchedAhead(rows, opening, resolve, flags);
  for (const [before, after] of replaced.replaced) {
    const record = recordOf.get(before);
    if (record) recordOf.set(after, record);
    recordOf.delete(before);
    originalOf.set(after, originalOf.get(before) ?? before);
  }
  return replaced.rows;
}

/** Only a market-value opening can count a record's tokens twice (the chain's holdings when it opens). */
function flagEarlyRecords(records: readonly OwnRecord[], recordOpensAt: Date, flags: PackFlag[]): void {
  const early = records.filter((r) => r.at.getTime() < recordOpensAt.getTime());
  if (early.length === 0) return;
  flags.push({
    date: ukDay(recordOpensAt.getTime()),
    kind: 'opening',
    text: `${early.length} of your records are dated before ${ukDay(recordOpensAt.getTime())}, when the chain record opens with the coldkeys' holdings at market value: if those holdings came from these records, the same tokens are counted twice. Give your pools at that day (or last year's pools.csv) to open from your own cost instead.`,
  });
}

/**
 * `coverShortfalls`' refusal: a record's disposal of more than the pools hold is refused with its file and
 * line; an exchange's rounding (a few units of the 8th place) is covered and flagged like the chain's gaps.
 */
function refuseRecordShortfall(
  recordOf: ReadonlyMap<CgtTransaction, OwnRecord>,
): (tx: CgtTransaction, held: Decimal, date: string) => void {
  return (tx, held, date) => {
    const record = recordOf.get(tx);
    if (!record || tx.quantity.minus(held).lte(QUANTITY_SLACK)) return;
    throw new CustomerInputsRejected([
      {
        file: record.source,
        line: record.line,
        column: null,
        reason: `this ${tx.action === 'dispose' ? record.kind : 'row'} disposes of ${plainDecimal(tx.quantity)} ${tx.asset} on ${date} (UK day), more than the ${plainDecimal(held)} your records and the chain record hold that day: an earlier purchase or withdrawal is missing from the files`,
      },
    ]);
  };
}

/**
 * The records' capital gains transactions, each record's own. A fee is an allowable cost (TCGA 1992
 * s38(1)(c)): added to a purchase's cost, or given as the fee of a sale (its proceeds stay gross, as SA108
 * asks); inside a trade of two tokens (a row's sell and buy), half on each side (CRYPTO22150: a fee for
 * exchanging one token for another is attributable to both; BittyTax's default split, and the chain's own
 * rule). A fee paid in a token is also a disposal of that token at the fee's value (BittyTax books it the
 * same way). A negligible value claim is its disposal and its reacquisition at the claimed value.
 */
function recordsTransactions(
  records: readonly OwnRecord[],
  resolve: AssetResolver,
): Map<OwnRecord, CgtTransaction[]> {
  const byLine = new Map<string, OwnRecord[]>();
  for (const record of records.flatMap(withCounterLeg)) {
    const key = `${record.source}\u0000${record.line}`;
    byLine.set(key, [...(byLine.get(key) ?? []), record]);
  }
  const out = new Map<OwnRecord, CgtTransaction[]>();
  for (const group of byLine.values()) {
    const sell = group.find((r) => r.kind === 'sell' && !r.claim);
    const buy = group.find((r) => r.kind === 'buy');
    const fee = group.find((r) => r.fee)?.fee ?? null;
    const twoTokens = group.length === 2 && sell !== undefined && buy !== undefined;
    for (const record of group) {
      // In a trade of two tokens the fee is the trade's: half allowed on each side, paid (a disposal) once.
      const allowed = twoTokens && fee ? new CgtDecimal(fee.gbp).div(2) : null;
      const share =
        allowed === null ? null : record === sell ? allowed : new CgtDecimal(fee!.gbp).minus(allowed);
      out.set(
        record,
        recordTransactions(
          record,
          resolve,
          share,
          twoTokens ? (record === sell ? fee : null) : record.fee,
          group.map((r) => r.asset),
        ),
      );
    }
  }
  return out;
}

/**
 * A trade against another token (TAO for USDT) as the two records of a trade of two tokens: the token's, and
 * the counter token disposed of (or acquired) at the same value, in its own pool (HMRC: a stablecoin is a
 * cryptoasset, CRYPTO10100); its fee then falls half on each side. A trade against money stays one record.
 */
function withCounterLeg(record: OwnRecord): OwnRecord[] {
  const counter = record.counter;
  if (!counter || isFiat(counter.asset) || (record.kind !== 'buy' && record.kind !== 'sell')) return [record];
  const { counter: _, ...rest } = record;
  return [
    record,
    {
      ...rest,
      kind: record.kind === 'buy' ? 'sell' : 'buy',
      asset: counter.asset,
      quantity: counter.quantity,
      fee: null,
    },
  ];
}

/** `allowed`: the part of the fee allowed on this record (null: the whole of its own fee). */
function recordTransactions(
  record: OwnRecord,
  resolve: AssetResolver,
  allowed: Decimal | null,
  paid: OwnRecord['fee'],
  /** The assets of the record's line (a trade's two tokens): a fee paid in either is a disposal of it. */
  legs: readonly string[] = [],
): CgtTransaction[] {
  const asset = resolve(record.asset, record.at);
  const gbp = new CgtDecimal(record.gbp ?? 0);
  const feeGbp = allowed ?? new CgtDecimal(record.fee?.gbp ?? 0);
  const base = { at: record.at, asset, quantity: new CgtDecimal(record.quantity), ref: recordRef(record) };
  const out: CgtTransaction[] = [];
  switch (record.kind) {
    case 'buy':
    case 'income':
      out.push({ ...base, action: 'acquire', gbp: gbp.plus(feeGbp), kind: 'record' });
      break;
    case 'sell':
    case 'fee':
      out.push({
        ...base,
        action: 'dispose',
        gbp,
        ...(feeGbp.gt(0) ? { fee: feeGbp } : {}),
        kind: 'record',
        ...(record.claim ? { claim: true as const } : {}),
      });
      if (record.claim) out.push({ ...base, action: 'acquire', gbp, kind: 'record', claim: true });
      break;
    default:
      break;
  }
  if (paid) out.push(...feeDisposal({ ...record, fee: paid }, resolve, legs));
  return out;
}

/**
 * A fee paid in a token: that token disposed of at the fee's value. A fee in a third token (an exchange's
 * own, BNB, KCS) is an allowable cost only: the records hold none of that token to dispose of.
 */
function feeDisposal(
  record: OwnRecord,
  resolve: AssetResolver,
  legs: readonly string[] = [],
): CgtTransaction[] {
  const fee = record.fee;
  if (!fee || !fee.quantity.gt(0)) return [];
  const ownLeg =
    fee.asset === record.asset || fee.asset === record.counter?.asset || legs.includes(fee.asset);
  if (!isPooled(fee.asset) && !(ownLeg && !isFiat(fee.asset))) return [];
  return [
    {
      at: record.at,
      asset: resolve(fee.asset, record.at),
      action: 'dispose',
      quantity: new CgtDecimal(fee.quantity),
      gbp: new CgtDecimal(fee.gbp),
      ref: `${recordRef(record)} fee`,
      kind: 'record',
    },
  ];
}

export function recordRef(record: OwnRecord): string {
  return `${record.source} line ${record.line}`;
}

function isPooled(asset: string): boolean {
  return (
    asset.toUpperCase() === TAO_ASSET || /^SN\d+-ALPHA(-R\d+)?$/i.test(asset) || /^alpha:\d+:\d+$/.test(asset)
  );
}

/**
 * Takes last year's 30-day matches out of the acquisitions of their UK days. The engine sums a day's
 * acquisitions into one (s105) and a match takes its part at the day's average cost, so each of the day's
 * rows gives up the same share of its quantity and its cost (to the RAO, the last row taking the rest):
 * the day is left as one computation across both years leaves it.
 */
function takeMatchedAhead(
  rows: CgtTransaction[],
  opening: OpeningPools,
  resolve: AssetResolver,
  flags: PackFlag[],
): { rows: CgtTransaction[]; replaced: Map<CgtTransaction, CgtTransaction> } {
  let out = rows;
  const all = new Map<CgtTransaction, CgtTransaction>();
  for (const ahead of opening.matchedAhead) {
    const asset = resolve(ahead.asset, new Date(ukDayEndMs(ahead.day) - 1));
    const day = out.filter(
      (tx) => tx.asset === asset && tx.action === 'acquire' && ukDay(tx.at.getTime()) === ahead.day,
    );
    const total = day.reduce((sum, tx) => sum.plus(tx.quantity), new CgtDecimal(0));
    if (total.lt(ahead.quantity)) {
      flags.push({
        date: ahead.day,
        kind: 'opening',
        text: `Your pools.csv says last year's disposals took ${plainDecimal(ahead.quantity)} ${asset} acquired on ${ahead.day} under the 30-day rule, but this record acquires only ${plainDecimal(total)} that day: check that both packs cover the same coldkeys and records.`,
      });
    }
    const quantity = CgtDecimal.min(new CgtDecimal(ahead.quantity), total);
    if (!quantity.gt(0)) continue;
    let left = quantity;
    const replaced = new Map<CgtTransaction, CgtTransaction | null>();
    day.forEach((tx, i) => {
      const take =
        i === day.length - 1
          ? left
          : CgtDecimal.min(left, tx.quantity.times(quantity).div(total).toDecimalPlaces(9));
      left = left.minus(take);
      const rest = tx.quantity.minus(take);
      replaced.set(
        tx,
        rest.gt(0) ? { ...tx, quantity: rest, gbp: tx.gbp.minus(tx.gbp.times(take).div(tx.quantity)) } : null,
      );
    });
    out = out.flatMap((tx) => {
      const next = replaced.get(tx);
      if (next) all.set(tx, next);
      return next === undefined ? [tx] : next ? [next] : [];
    });
  }
  return { rows: out, replaced: all };
}

type AssetResolver = (name: string, at: Date) => string;

/**
 * Records and entered pools name alpha as the pack's exports do (`SN12-ALPHA`, `SN12-ALPHA-R<block>` for
 * a netuid registered again); the chain's transactions as `alpha:<netuid>:<registered_at>`. A name without
 * its registration is the registration the chain record shows for that netuid (the latest one that had
 * begun by the record's time, when the netuid was reused).
 */
function assetResolver(chain: readonly CgtTransaction[]): AssetResolver {
  const firstSeen = new Map<string, number>();
  for (const tx of chain) {
    const seen = firstSeen.get(tx.asset);
    if (seen === undefined || tx.at.getTime() < seen) firstSeen.set(tx.asset, tx.at.getTime());
  }
  return (name, at) => {
    const upper = name.trim().toUpperCase();
    if (upper === TAO_ASSET) return TAO_ASSET;
    if (/^alpha:\d+:\d+$/.test(name.trim())) return name.trim();
    const alpha = /^SN(\d+)-ALPHA(?:-R(\d+))?$/.exec(upper);
    if (!alpha) return name.trim();
    const [, netuid, registeredAt] = alpha;
    if (netuid === '0') return TAO_ASSET;
    if (registeredAt !== undefined) return `alpha:${Number(netuid)}:${Number(registeredAt)}`;
    const candidates = [...firstSeen]
      .filter(([asset]) => asset.startsWith(`alpha:${Number(netuid)}:`))
      .sort(([a], [b]) => Number(a.split(':')[2]) - Number(b.split(':')[2]));
    if (candidates.length === 0) return `alpha:${Number(netuid)}:0`;
    const begun = candidates.filter(([, first]) => first <= at.getTime());
    return (begun[begun.length - 1] ?? candidates[0]!)[0];
  };
}

function describeTransfer(tx: CgtTransaction): string {
  return `${tx.ref ?? ''} (${tx.at.toISOString().slice(0, 16)}Z${tx.counterparty ? `, ${tx.counterparty}` : ''})`;
}
