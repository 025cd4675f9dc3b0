/**
 * The pack's points to check, grouped by what settles them, each with the action that settles it: the PDF's
 * list and `points.csv` are both made from these, so they say the same.
 *
 * - One point per address outside the order that the coldkeys sent to or received from: how many
 *   transfers, on which UK days, the tokens each way and their pounds. Marking the address as the buyer's
 *   own on the order page settles all of them at once (they become moves within the buyer's holdings).
 * - One point per address the buyer named as theirs with a label naming an exchange (`Binance deposit`)
 *   whose transfers no record of theirs shows the other side of: the tokens went to (or came from) an
 *   exchange whose history the pack does not have; adding that exchange's export settles it. An address
 *   of another wallet raises none: the tokens stay in the pools, as the buyer said they stayed theirs.
 * - One point per token whose holdings on the chain differ, on some days, from what the pack booked (the
 *   daily reconciliation's unexplained rows).
 * - Every other point as the pack raised it (grouped when only its date differs), with its kind's action.
 *
 * They are ordered by the pounds at stake, largest first; points about the whole record (its opening, a
 * provisional 30-day match) have no single figure and follow.
 */
import type { Decimal } from 'decimal.js';
import { ukDay } from '../../../time/uk-day.js';
import { CgtDecimal, plainDecimal, pounds } from '../../uk-rules/cgt/cgt-decimal.js';
import type { PackFlag } from '../../uk-rules/cgt/cgt-transactions.js';
import type { CgtTransaction } from '../../uk-rules/cgt/cgt-types.js';
import type { TaxYearLedger } from '../compute-tax-year.js';
import { groupedFlagLine, groupFlags } from './grouped-flags.js';

/** What a point is about: an address, a wallet without records, a reconciliation difference, or a flag's kind. */
export type PointKind =
  | 'address'
  | 'missing-records'
  | 'reconciliation'
  | Exclude<PackFlag['kind'], 'reconciliation'>;

/** Tokens of one asset moved one way. */
export interface PointAmount {
  asset: string;
  /** Greater than zero. */
  quantity: Decimal;
  /** Their value in pounds as the pack booked it (8 places). */
  gbp: Decimal;
}

export interface PackPoint {
  kind: PointKind;
  /** The address the point is about (an address or missing-records point); '' otherwise. */
  counterparty: string;
  /** The buyer's label for that address (missing-records); '' otherwise. */
  label: string;
  /** How many transfers (or flags, or day and token rows) the point stands for. */
  count: number;
  /** The UK days (Europe/London) it is about, oldest first, each once. */
  dates: string[];
  /** What left the order's coldkeys (to the address, or a holding that fell), per asset. */
  sent: PointAmount[];
  /** What reached them (from the address, or a holding that rose), per asset. */
  received: PointAmount[];
  /** The pounds at stake: the value of everything the point is about, either way; null when it has none. */
  gbp: Decimal | null;
  /** What the pack found, in one sentence or two. */
  text: string;
  /** What the buyer does to settle it. */
  action: string;
}

/** The exchanges whose exports the order page reads, as a label may name them. */
const EXCHANGES = ['Binance', 'Kraken', 'Coinbase', 'KuCoin', 'Bybit', 'OKX', 'Gate', 'MEXC'] as const;

/** The points of a pack, grouped by what settles them and ordered by pounds at stake. */
export function packPoints(ledger: TaxYearLedger): PackPoint[] {
  const flags = ledger.mapping.flags;
  const points: PackPoint[] = [
    ...addressPoints(flags, ledger.chainTransactions),
    ...missingRecordPoints(ledger),
    ...reconciliationPoints(ledger),
    ...otherPoints(flags.filter((flag) => !TRANSFER_KINDS.has(flag.kind) && flag.kind !== 'reconciliation')),
  ];
  return orderByPounds(points);
}

const TRANSFER_KINDS = new Set<PackFlag['kind']>(['transfer-out', 'transfer-in']);

/** Largest pounds at stake first; points without a figure after them, in the order they were raised. */
export function orderByPounds(points: readonly PackPoint[]): PackPoint[] {
  return points
    .map((point, index) => ({ point, index }))
    .sort((a, b) => {
      if (a.point.gbp === null || b.point.gbp === null) {
        return a.point.gbp === b.point.gbp ? a.index - b.index : a.point.gbp === null ? 1 : -1;
      }
      return b.point.gbp.cmp(a.point.gbp) || a.index - b.index;
    })
    .map(({ point }) => point);
}

/** The address a transfer flag is about, with its transactions (found by the flag's ref). */
function addressPoints(flags: readonly PackFlag[], transactions: readonly CgtTransaction[]): PackPoint[] {
  const byRef = new Map<string, CgtTransaction[]>();
  for (const tx of transactions) {
    if (tx.ref === undefined || (tx.kind !== 'transfer-in' && tx.kind !== 'transfer-out')) continue;
    const listed = byRef.get(tx.ref);
    if (listed) listed.push(tx);
    else byRef.set(tx.ref, [tx]);
  }
  const groups = new Map<
    string,
    { flags: PackFlag[]; txs: CgtTransaction[]; counted: Set<CgtTransaction> }
  >();
  const unplaced: PackFlag[] = [];
  for (const flag of flags) {
    if (!TRANSFER_KINDS.has(flag.kind)) continue;
    const txs = flag.ref === undefined ? [] : (byRef.get(flag.ref) ?? []);
    const counterparty = txs.find((tx) => tx.counterparty)?.counterparty;
    if (counterparty === undefined) {
      unplaced.push(flag);
      continue;
    }
    const group = groups.get(counterparty) ?? { flags: [], txs: [], counted: new Set() };
    group.flags.push(flag);
    // One action can raise a flag per transfer event: its transactions are counted once.
    for (const tx of txs) {
      if (group.counted.has(tx)) continue;
      group.counted.add(tx);
      group.txs.push(tx);
    }
    groups.set(counterparty, group);
  }
  const points = [...groups].map(([address, group]) => {
    const sent = amounts(group.txs.filter((tx) => tx.action === 'dispose'));
    const received = amounts(group.txs.filter((tx) => tx.action === 'acquire'));
    const dates = uniqueDates(group.flags.map((flag) => flag.date));
    const count = new Set(group.flags.map((flag) => flag.ref)).size;
    const ways = [
      sent.length > 0 ? `sent ${amountsText(sent)}` : '',
      received.length > 0 ? `received ${amountsText(received)}` : '',
    ].filter(Boolean);
    return {
      kind: 'address' as const,
      counterparty: address,
      label: '',
      count,
      dates,
      sent,
      received,
      gbp: total([...sent, ...received]),
      text: `${count} transfer${count === 1 ? '' : 's'} on ${daysText(dates)}, taken at market value: ${ways.join('; ')}.`,
      action:
        'Yours (a wallet, an exchange deposit address)? Mark it as yours on the order page: its transfers are ' +
        "then moves within your holdings, no disposal (an exchange's: add its export too). A sale, payment or gift: nothing to do.",
    };
  });
  return [...points, ...otherPoints(unplaced)];
}

/**
 * The buyer's own exchange addresses that tokens went to or came from with no record of theirs showing the
 * other side: the pack keeps those tokens in the pools, not knowing what was done with them there.
 */
function missingRecordPoints(ledger: TaxYearLedger): PackPoint[] {
  const first = ledger.opening.date;
  const last = ledger.days.at(-1)?.date ?? first;
  const groups = new Map<string, TaxYearLedger['combined']['ownTransfers']>();
  for (const move of ledger.combined.ownTransfers) {
    const date = ukDay(move.at.getTime());
    if (move.record !== null || move.counterparty === null || date <= first || date > last) continue;
    groups.set(move.counterparty, [...(groups.get(move.counterparty) ?? []), move]);
  }
  return [...groups].flatMap(([address, moves]) => {
    const label = moves.find((move) => move.label)?.label ?? '';
    // Another wallet of the buyer's holds what it got (the pools keep it); an exchange is where tokens are
    // sold: its records are the ones missing.
    const exchange = EXCHANGES.find((name) => new RegExp(`\\b${name}\\b`, 'i').test(label));
    if (!exchange) return [];
    const sent = quantities(moves.filter((move) => move.direction === 'out'));
    const received = quantities(moves.filter((move) => move.direction === 'in'));
    const dates = uniqueDates(moves.map((move) => ukDay(move.at.getTime())));
    const named = label ? `${label} (${address})` : address;
    const ways = [
      sent.length > 0 ? `sent ${quantitiesText(sent)} to it` : '',
      received.length > 0 ? `received ${quantitiesText(received)} from it` : '',
    ].filter(Boolean);
    return {
      kind: 'missing-records' as const,
      counterparty: address,
      label,
      count: moves.length,
      dates,
      sent,
      received,
      gbp: null,
      text: `${moves.length} transfer${moves.length === 1 ? '' : 's'} with ${named}, which you named as yours, on ${daysText(dates)} (${ways.join('; ')}): no record you added shows them there, so the pack cannot see what was bought, sold or paid from it.`,
      action: `Add your ${exchange} export (its transaction history, as downloaded) on the order page.`,
    };
  });
}

/** One point per token with holdings the chain shows and the pack's bookings do not explain. */
function reconciliationPoints(ledger: TaxYearLedger): PackPoint[] {
  const byAsset = new Map<string, TaxYearLedger['reconciliation']['unexplained']>();
  for (const row of ledger.reconciliation.unexplained) {
    byAsset.set(row.asset, [...(byAsset.get(row.asset) ?? []), row]);
  }
  return [...byAsset].map(([asset, rows]) => {
    const part = (sign: 1n | -1n): PointAmount[] => {
      const chosen = rows.filter((row) => (sign > 0n ? row.differenceRao > 0n : row.differenceRao < 0n));
      if (chosen.length === 0) return [];
      const rao = chosen.reduce((sum, row) => sum + row.differenceRao * sign, 0n);
      const gbp = chosen.reduce(
        (sum, row) => sum.plus((row.differenceGbp ?? new CgtDecimal(0)).abs()),
        new CgtDecimal(0),
      );
      return [{ asset, quantity: new CgtDecimal(rao.toString()).div(1_000_000_000), gbp }];
    };
    const sent = part(-1n);
    const received = part(1n);
    const dates = uniqueDates(rows.map((row) => row.date));
    const blocks = rows.slice(0, 2).map((row) => `block ${row.block}`);
    const ways = [
      sent.length > 0 ? `${quantitiesText(sent)} less` : '',
      received.length > 0 ? `${quantitiesText(received)} more` : '',
    ].filter(Boolean);
    return {
      kind: 'reconciliation' as const,
      counterparty: '',
      label: '',
      count: rows.length,
      dates,
      sent,
      received,
      gbp: total([...sent, ...received]),
      text: `${asset}: on ${daysText(dates)} the chain holds ${ways.join(' and ')} than the opening plus what this pack booked; nothing it reads explains that, and it is not in the figures.`,
      action: `Look the coldkeys up on a block explorer at those days' last blocks (${blocks.join('; ')}${rows.length > 3 ? '; reconciliation.csv has each' : ''}) for a transfer or call events.csv does not list: a sale, gift or payment, tell your adviser; a move to your own wallet, add that address on the order page.`,
    };
  });
}

/** The action that settles a point of each kind the pack raises. */
const ACTIONS: Record<Exclude<PointKind, 'address' | 'missing-records' | 'reconciliation'>, string> = {
  'transfer-out':
    'If the address is yours, mark it as your own on the order page; if it was a sale, a payment or a gift, nothing to do.',
  'transfer-in':
    'If the address is yours, mark it as your own on the order page; if it was a purchase or a payment to you, nothing to do.',
  'negative-income':
    'Check what happened to the stake on those days (positions.csv): if it went to someone else, tell your adviser; the pack books no disposal for it.',
  unexplained:
    'Check it against your own records on that day (events.csv, positions.csv): if tokens went to someone else, tell your adviser; the pack books nothing more for it.',
  unpriced:
    'Nothing to do unless you know a price for those days: that income is valued at £0 (income.csv, note).',
  ended:
    'If the subnet is gone for good, you may make a negligible value claim for the whole pool (CRYPTO22500): ask your adviser.',
  moved:
    'Nothing to do if the keys are yours: the same holding under another key, neither income nor a disposal.',
  opening:
    "If you know what you paid for those holdings, add your opening pools (last year's pools.csv, or your own figures) on the order page.",
  calendar: 'Nothing to do: the days were placed from the chain itself.',
  'stale-rate':
    'Nothing to do unless your adviser prefers another rate for those days (income.csv, tao_gbp_at).',
  provisional:
    'Order the pack again, or add records, after the date it names: the revised pack has final figures.',
  'own-records':
    'Check the line it names in your file; correct the file and add it again on the order page if it is wrong.',
};

/** Every other flag, grouped when only its date differs, with its kind's action. */
function otherPoints(flags: readonly PackFlag[]): PackPoint[] {
  return groupFlags(flags).map((group) => ({
    kind: group.kind as Exclude<PointKind, 'address' | 'missing-records' | 'reconciliation'>,
    counterparty: '',
    label: '',
    count: group.count,
    dates: group.dates,
    sent: [],
    received: [],
    gbp: null,
    text: groupedFlagLine(group),
    action: ACTIONS[group.kind as keyof typeof ACTIONS],
  }));
}

/** Per asset, the quantities and pounds of transactions (sorted by asset, TAO first). */
function amounts(txs: readonly CgtTransaction[]): PointAmount[] {
  const byAsset = new Map<string, PointAmount>();
  for (const tx of txs) {
    const found = byAsset.get(tx.asset) ?? {
      asset: tx.asset,
      quantity: new CgtDecimal(0),
      gbp: new CgtDecimal(0),
    };
    found.quantity = found.quantity.plus(tx.quantity);
    found.gbp = found.gbp.plus(tx.gbp);
    byAsset.set(tx.asset, found);
  }
  return sortAssets([...byAsset.values()]);
}

/** Per asset, the quantities of own moves (no value: nothing was disposed of). */
function quantities(moves: readonly { asset: string; quantity: Decimal }[]): PointAmount[] {
  return amounts(
    moves.map((move) => ({
      at: new Date(0),
      asset: move.asset,
      action: 'acquire' as const,
      quantity: move.quantity,
      gbp: new CgtDecimal(0),
    })),
  );
}

function sortAssets(list: PointAmount[]): PointAmount[] {
  return list.sort((a, b) => (a.asset === 'TAO' ? -1 : b.asset === 'TAO' ? 1 : a.asset < b.asset ? -1 : 1));
}

function total(list: readonly PointAmount[]): Decimal {
  return list.reduce((sum, amount) => sum.plus(amount.gbp), new CgtDecimal(0));
}

/** `12.5 TAO (£4,321.00) and 3.1416 alpha:5:100 (£12.00)`: to 4 places, as the PDF's tables (the CSV columns are exact). */
function amountsText(list: readonly PointAmount[]): string {
  return list.map((a) => `${quantity4(a.quantity)} ${a.asset} (£${pounds(a.gbp)})`).join(' and ');
}

function quantitiesText(list: readonly PointAmount[]): string {
  return list.map((a) => `${quantity4(a.quantity)} ${a.asset}`).join(' and ');
}

/** A quantity to 4 places, rounded half up, trailing zeros kept off: `378.9182`, `12`. */
function quantity4(value: Decimal): string {
  return plainDecimal(value.toDecimalPlaces(4, CgtDecimal.ROUND_HALF_UP));
}

/** The quantities of a point's amounts as one cell: `12.5 TAO; 3 alpha:5:100`. */
export function amountsCell(list: readonly PointAmount[]): string {
  return list.map((a) => `${plainDecimal(a.quantity)} ${a.asset}`).join('; ');
}

function uniqueDates(dates: readonly string[]): string[] {
  return [...new Set(dates)].sort();
}

/** `1 UK day (2025-05-01)`, `9 UK days (2025-05-01, 2025-06-02, 2025-07-03 ... 2026-03-30)`. */
export function daysText(dates: readonly string[]): string {
  const shown =
    dates.length <= 4 ? dates.join(', ') : `${dates.slice(0, 3).join(', ')} ... ${dates[dates.length - 1]}`;
  return `${dates.length} UK day${dates.length === 1 ? '' : 's'} (${shown})`;
}
