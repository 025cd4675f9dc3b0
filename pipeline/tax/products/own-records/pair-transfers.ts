/**
 * Which chain transfer each deposit or withdrawal of the buyer's records is: one matching over all the
 * records and transfers together, not each record taking the nearest transfer in turn. A record and a
 * transfer can pair when they move the same token the right way (a withdrawal from an exchange arrives on
 * the chain as a transfer in, a deposit leaves as one out), the same quantity (within the record's fee and
 * an exchange's rounding), within `TRANSFER_WINDOW_MS`. Among those, the facts decide first, in order:
 *
 * 1. the address: one the buyer named as theirs with a label naming the record's wallet or file (`Kraken
 *    deposit` for `kraken.csv`) is that exchange's; for a deposit, any address named as the buyer's comes
 *    next (an exchange's deposit address is where a deposit goes), then an address not named; for a
 *    withdrawal, an address not named (an exchange pays from its own wallets), then one named for another
 *    wallet (a move between the buyer's own wallets, already explained);
 * 2. time order: a withdrawal is recorded before it arrives on the chain, a deposit is sent before the
 *    exchange records it (`CLOCK_SLACK_MS` of clock difference allowed);
 * 3. the quantity exactly (to an exchange's 8 places) rather than within the fee.
 *
 * Only then nearness in time. A pairing that nearness alone decided, with another transfer (or record)
 * fitting as well by every fact, is returned as unsettled: the caller lists it as a point to check.
 */
import type { Decimal } from 'decimal.js';
import { HOUR_MS } from '../../../time/utc-day.js';
import type { CgtTransaction } from '../../uk-rules/cgt/cgt-types.js';
import type { OwnAddress, OwnRecord } from './customer-inputs.js';

/** How far apart in time a record's deposit or withdrawal and the chain's transfer may be to be one move. */
export const TRANSFER_WINDOW_MS = 6 * HOUR_MS;
/** Clocks of an exchange and of the chain's blocks may differ by this much. */
export const CLOCK_SLACK_MS = 10 * 60_000;

export interface TransferPairing {
  pairs: Map<OwnRecord, CgtTransaction>;
  /** Pairings that only nearness in time settled, with the transfer or record that fitted as well. */
  unsettled: Array<{ record: OwnRecord; transfer: CgtTransaction; alternative: CgtTransaction | OwnRecord }>;
}

interface Edge {
  record: OwnRecord;
  transfer: CgtTransaction;
  facts: number[];
  distance: number;
}

export function pairTransfers(
  records: readonly OwnRecord[],
  transfers: readonly CgtTransaction[],
  options: {
    assetOf: (record: OwnRecord) => string;
    /** The quantity a record may differ from its transfer by (its fee in that token, an exchange's rounding). */
    slackOf: (record: OwnRecord) => Decimal;
    exactSlack: Decimal;
    own: ReadonlyMap<string, OwnAddress>;
  },
): TransferPairing {
  const edges: Edge[] = [];
  for (const record of records) {
    const wanted = record.kind === 'withdrawal' ? 'transfer-in' : 'transfer-out';
    const asset = options.assetOf(record);
    const slack = options.slackOf(record);
    for (const transfer of transfers) {
      if (transfer.kind !== wanted || transfer.asset !== asset) continue;
      const distance = Math.abs(transfer.at.getTime() - record.at.getTime());
      if (distance > TRANSFER_WINDOW_MS) continue;
      const difference = transfer.quantity.minus(record.quantity).abs();
      if (difference.gt(slack)) continue;
      // A fee inside a withdrawal's amount only makes the arrival smaller.
      if (record.feeInside && transfer.quantity.gt(record.quantity.plus(options.exactSlack))) continue;
      edges.push({
        record,
        transfer,
        facts: [
          addressFact(record, transfer, options.own),
          timeOrderFact(record, transfer),
          difference.lte(options.exactSlack) ? 0 : 1,
        ],
        distance,
      });
    }
  }
  edges.sort((a, b) => compareFacts(a.facts, b.facts) || a.distance - b.distance);

  const pairs = new Map<OwnRecord, CgtTransaction>();
  const taken = new Map<CgtTransaction, OwnRecord>();
  const unsettled: TransferPairing['unsettled'] = [];
  for (const edge of edges) {
    if (pairs.has(edge.record) || taken.has(edge.transfer)) continue;
    pairs.set(edge.record, edge.transfer);
    taken.set(edge.transfer, edge.record);
  }
  // A record left without a transfer takes one whose record can move to another free transfer (the most
  // records paired: a pairing the facts allow is never given up for nearness).
  for (const record of records) {
    if (pairs.has(record)) continue;
    for (const edge of edges.filter((e) => e.record === record)) {
      const holder = taken.get(edge.transfer);
      if (!holder) continue;
      const free = edges.find((e) => e.record === holder && !taken.has(e.transfer));
      if (!free) continue;
      pairs.set(holder, free.transfer);
      taken.set(free.transfer, holder);
      pairs.set(record, edge.transfer);
      taken.set(edge.transfer, record);
      break;
    }
  }
  // Unsettled: another pairing fits as well by every fact (a free transfer or record, or a swap with
  // another pair), so only nearness chose this one.
  const factsOf = new Map<string, number[]>();
  const recordIndex = new Map(records.map((r, i) => [r, i]));
  const transferIndex = new Map(transfers.map((t, i) => [t, i]));
  const key = (r: OwnRecord, t: CgtTransaction) => `${recordIndex.get(r)}|${transferIndex.get(t)}`;
  for (const edge of edges) factsOf.set(key(edge.record, edge.transfer), edge.facts);
  for (const [record, transfer] of pairs) {
    const mine = factsOf.get(key(record, transfer))!;
    const same = (r: OwnRecord, t: CgtTransaction, facts: readonly number[]) => {
      const f = factsOf.get(key(r, t));
      return f !== undefined && compareFacts(f, facts) === 0;
    };
    let alternative: CgtTransaction | OwnRecord | undefined;
    for (const edge of edges) {
      if (edge.record === record && edge.transfer !== transfer && compareFacts(edge.facts, mine) === 0) {
        const holder = taken.get(edge.transfer);
        if (!holder || same(holder, transfer, factsOf.get(key(holder, edge.transfer))!)) {
          alternative = edge.transfer;
          break;
        }
      }
      if (edge.transfer === transfer && edge.record !== record && !pairs.has(edge.record)) {
        if (compareFacts(edge.facts, mine) === 0) {
          alternative = edge.record;
          break;
        }
      }
    }
    if (alternative) unsettled.push({ record, transfer, alternative });
  }
  return { pairs, unsettled };
}

function addressFact(
  record: OwnRecord,
  transfer: CgtTransaction,
  own: ReadonlyMap<string, OwnAddress>,
): number {
  const named = transfer.counterparty === undefined ? undefined : own.get(transfer.counterparty);
  if (named && namesRecord(named.label, record)) return 0;
  if (record.kind === 'deposit') return named ? 1 : 2;
  return named ? 2 : 1;
}

function timeOrderFact(record: OwnRecord, transfer: CgtTransaction): number {
  const gap = transfer.at.getTime() - record.at.getTime();
  return record.kind === 'withdrawal' ? (gap >= -CLOCK_SLACK_MS ? 0 : 1) : gap <= CLOCK_SLACK_MS ? 0 : 1;
}

/** Words a label shares with the record's wallet or file name (`Kraken deposit`, `kraken-2025.csv`). */
const COMMON = new Set(['deposit', 'wallet', 'address', 'account', 'the', 'and', 'own', 'csv', 'export']);
function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length >= 3 && !COMMON.has(word) && !/^\d+$/.test(word)),
  );
}

function namesRecord(label: string, record: OwnRecord): boolean {
  const mine = words(`${record.wallet ?? ''} ${record.source}`);
  return [...words(label)].some((word) => mine.has(word));
}

function compareFacts(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
