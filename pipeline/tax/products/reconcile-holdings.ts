/**
 * The daily reconciliation of the record's holdings with the chain: the proof that nothing moved that the
 * pack did not book.
 *
 * For each UK day of the year and each asset the pools hold (TAO, and each subnet's alpha per registration,
 * `alpha:<netuid>:<registered_at>`), the chain's holdings of the record's coldkeys at the previous day's last
 * block (the opening) and at the day's last block (the closing) are held against what the pack booked that
 * day for that asset: every capital gains transaction of the chain record dated that UK day (income,
 * acquisitions and disposals of the actions, transfers in and out, shortfalls taken as acquired), before the
 * buyer's own records are combined in. What the chain holds of an asset:
 *   - TAO: each coldkey's free and reserved balance (`System.Account`: a deposit is reserved, still held)
 *     and its stake on root (root stake is TAO, in the TAO pool);
 *   - an alpha: each position (hotkey and netuid) of the record's coldkeys on that subnet's registration;
 *   - TAO on a coldkey's own EVM address, a crowdloan contribution, a user liquidity position: read from
 *     their own storage (`chain-record/read-other-holdings.ts`) when the record has any.
 *
 *   difference = closing − opening − booked
 *
 * A difference is explained only by a mechanism the pack books as its method says (a subnet that ended and
 * paid nothing: no disposal, the pool kept for a negligible value claim); any other is a point to check,
 * with its day, asset, amount and its value in pounds. Each holding's own opening and closing is listed
 * beside its asset, so a difference can be traced to the holding that moved.
 */
import { Decimal } from 'decimal.js';
import { RAO_PER_UNIT } from '../../amounts/rao.js';
import { ukDay } from '../../time/uk-day.js';
import type { LedgerDay } from '../chain-record/ledger-days.js';
import type { OtherHoldingsAtBlock } from '../chain-record/read-other-holdings.js';
import type { StakesAtBlock } from '../chain-record/stake-at-blocks.js';
import { plainDecimal } from '../uk-rules/cgt/cgt-decimal.js';
import { alphaAsset, TAO_ASSET } from '../uk-rules/cgt/cgt-transactions.js';
import type { CgtTransaction } from '../uk-rules/cgt/cgt-types.js';
import type { GbpPrices } from '../uk-rules/gbp-prices.js';
import { gbpOfTaoRao, type IncomeRow, taoRaoAt } from '../uk-rules/income-ledger.js';

/**
 * One holding of one coldkey as the chain reports it: free or reserved TAO, TAO on its own EVM address, a
 * crowdloan contribution, a liquidity position, or one stake position.
 */
export interface HoldingRef {
  coldkey: string;
  /** `free`, `reserved`, `evm`, `crowdloan <id>`, `liquidity <netuid>/<id>`, or a stake position's hotkey. */
  holding: string | { hotkey: string; netuid: number };
}

/** A holding's opening and closing of one day. */
export interface HoldingDay {
  ref: HoldingRef;
  openingRao: bigint;
  closingRao: bigint;
}

/** One asset on one UK day: the chain's holdings against what the pack booked. */
export interface AssetReconciliation {
  /** The UK day (Europe/London). */
  date: string;
  /** Its last block: where the closing is read. */
  block: number;
  asset: string;
  /** The netuid of the asset (0 for TAO). */
  netuid: number;
  /** The chain's holdings of the asset at the previous day's last block (RAO). */
  openingRao: bigint;
  /** What the pack booked that day for the asset: + acquired, − disposed (RAO). */
  bookedRao: bigint;
  /** The booked movements, as the pack's transactions name them (`income 2025-06-01 +1.5`). */
  booked: string[];
  /** The chain's holdings at the day's last block (RAO). */
  closingRao: bigint;
  /** closing − opening − booked (RAO). */
  differenceRao: bigint;
  /** The difference's value in pounds at the day's prices; null without a pool price. */
  differenceGbp: Decimal | null;
  /** Why: `reconciled`, a known mechanism, or what to check. */
  explanation: string;
  /** A difference no known mechanism explains: a point to check. */
  unexplained: boolean;
  /** The holdings behind the asset that held anything at either end of the day. */
  holdings: HoldingDay[];
}

export interface Reconciliation {
  /** The UK days reconciled (the year's days in the record). */
  days: number;
  /** Per day (in order) and asset. */
  rows: AssetReconciliation[];
  /** The rows with a difference no known mechanism explains. */
  unexplained: AssetReconciliation[];
}

export interface ReconciliationInput {
  coldkeys: readonly string[];
  /** The end of the day before the first day reconciled. */
  opening: LedgerDay;
  days: readonly LedgerDay[];
  /** The chain reads at every day's last block (the opening's too). */
  stakes: ReadonlyMap<number, StakesAtBlock>;
  /** The other holdings' reads at the same blocks (none when the record has none). */
  others?: ReadonlyMap<number, OtherHoldingsAtBlock>;
  /** The chain record's capital gains transactions (before the buyer's own records). */
  transactions: readonly CgtTransaction[];
  /** The income rows (a negative one is a fall the pack did not book). */
  income: readonly IncomeRow[];
  prices: GbpPrices;
}

/** The value of a reconciled day's difference (decimals never change: one serves every such row). */
const NO_DIFFERENCE_GBP = new Decimal(0);

/** A transaction's quantity in RAO, exactly (the record's quantities are whole RAO). */
export function quantityRao(tx: Pick<CgtTransaction, 'quantity'>): bigint {
  return raoOfQuantityText(plainDecimal(tx.quantity));
}

/** A quantity's plain decimal text (`Decimal#toFixed()`) in RAO: at most 9 decimals, else not whole RAO. */
function raoOfQuantityText(text: string): bigint {
  const point = text.indexOf('.');
  if (point < 0) return BigInt(text) * RAO_PER_UNIT;
  const decimals = text.length - point - 1;
  if (decimals > 9) throw new Error(`reconciliation: ${text} is not a whole RAO amount`);
  // The digits without the point (`-0.5` is `-05`, its sign kept), scaled to 9 decimals.
  return BigInt(text.slice(0, point) + text.slice(point + 1)) * 10n ** BigInt(9 - decimals);
}

/** A stake position's id (`coldkey/hotkey/netuid`) read once for every day that holds it. */
interface StakeHolding {
  coldkey: string;
  ref: HoldingRef;
  netuid: number;
}

/** Reads each stake position id once, however many days hold it (a year of 200 positions: 73,000). */
function stakeHoldings(): (id: string) => StakeHolding | null {
  const known = new Map<string, StakeHolding | null>();
  return (id) => {
    let holding = known.get(id);
    if (holding === undefined) {
      const [coldkey, hotkey, netuidText] = id.split('/');
      const netuid = Number(netuidText);
      holding = coldkey && hotkey ? { coldkey, ref: { coldkey, holding: { hotkey, netuid } }, netuid } : null;
      known.set(id, holding);
    }
    return holding;
  };
}

/** The chain's holdings per asset at one read, each holding listed. */
function holdingsAt(
  read: StakesAtBlock,
  coldkeys: readonly string[],
  others: OtherHoldingsAtBlock | undefined,
  holdingOf: (id: string) => StakeHolding | null,
): Map<string, Map<string, HoldingDay>> {
  const byAsset = new Map<string, Map<string, HoldingDay>>();
  const put = (asset: string, key: string, ref: HoldingRef, rao: bigint) => {
    const holdings = byAsset.get(asset) ?? new Map<string, HoldingDay>();
    byAsset.set(asset, holdings);
    const entry = holdings.get(key) ?? { ref, openingRao: 0n, closingRao: 0n };
    entry.closingRao += rao;
    holdings.set(key, entry);
  };
  for (const coldkey of coldkeys) {
    put(TAO_ASSET, `${coldkey}/free`, { coldkey, holding: 'free' }, read.free.get(coldkey) ?? 0n);
    const reserved = read.reserved?.get(coldkey);
    if (reserved === undefined && read.reserved === undefined) continue;
    put(TAO_ASSET, `${coldkey}/reserved`, { coldkey, holding: 'reserved' }, reserved ?? 0n);
  }
  const record = new Set(coldkeys);
  for (const [id, rao] of read.stake) {
    const position = holdingOf(id);
    if (!position || !record.has(position.coldkey)) continue;
    const asset = alphaAsset(position.netuid, read.subnets.get(position.netuid)?.registeredAt ?? 0);
    put(asset, id, position.ref, rao);
  }
  for (const [key, { ref, rao }] of others ?? [])
    put(ref.asset, key, { coldkey: ref.coldkey, holding: ref.holding }, rao);
  return byAsset;
}

/**
 * The netuid an asset name stands for (TAO and a crowdloan contribution, counted in TAO: root's 0); a
 * liquidity position and a network registration have no price of their own to value a difference at (-1).
 */
function netuidOf(asset: string): number {
  if (asset === TAO_ASSET || asset.startsWith('crowdloan:')) return 0;
  if (asset.startsWith('liquidity:') || asset.startsWith('subnet-lock:')) return -1;
  return Number(asset.split(':')[1]);
}

/** A booked movement as the reconciliation lists it: its reference and signed quantity (`quantity`'s text). */
function bookedLabel(tx: CgtTransaction, quantity: string): string {
  const sign = tx.action === 'acquire' ? '+' : '-';
  const what = tx.kind === 'income' ? 'income' : (tx.ref ?? tx.kind ?? tx.action);
  return `${what} ${sign}${quantity}`;
}

/**
 * Reconciles every day of `days` with the chain: per asset, opening + booked against the closing, each
 * holding listed. Days are taken in order, each opening at the day before's closing.
 */
export function reconcileHoldings(input: ReconciliationInput): Reconciliation {
  const read = (block: number) => {
    const found = input.stakes.get(block);
    if (!found) throw new Error(`reconciliation: no chain read at block ${block}`);
    return found;
  };
  const bookedByDay = new Map<string, Map<string, { rao: bigint; labels: string[] }>>();
  for (const tx of input.transactions) {
    if (tx.kind === 'opening') continue;
    const date = ukDay(tx.at.getTime());
    const assets = bookedByDay.get(date) ?? new Map<string, { rao: bigint; labels: string[] }>();
    bookedByDay.set(date, assets);
    const entry = assets.get(tx.asset) ?? { rao: 0n, labels: [] };
    // The quantity's text, made once: its RAO and its label are read from it.
    const quantity = plainDecimal(tx.quantity);
    const rao = raoOfQuantityText(quantity);
    entry.rao += tx.action === 'acquire' ? rao : -rao;
    entry.labels.push(bookedLabel(tx, quantity));
    assets.set(tx.asset, entry);
  }
  // Each day's falls of subnet stake (negative income rows), looked up per unexplained difference: a record
  // with many differences would otherwise scan the whole year's income for each.
  const fallsByDay = new Map<string, IncomeRow[]>();
  for (const row of input.income) {
    if (row.alphaRao >= 0n || row.position.netuid === 0) continue;
    const falls = fallsByDay.get(row.date);
    if (falls) falls.push(row);
    else fallsByDay.set(row.date, [row]);
  }
  // Every day sorts its assets: each asset's sort key is made once.
  const keys = new Map<string, AssetKey>();
  const keyOf = (asset: string) => keys.get(asset) ?? keys.set(asset, assetKey(asset)).get(asset)!;
  const assetOrder = (a: string, b: string) => compareAssetKeys(keyOf(a), keyOf(b));
  // The day's assets in order: most days hold the same assets as the day before, whose order is kept.
  let lastSorted: string[] = [];
  let lastSet = new Set<string>();
  const sortedAssets = (...maps: ReadonlyMap<string, unknown>[]): string[] => {
    const set = new Set<string>();
    for (const map of maps) for (const asset of map.keys()) set.add(asset);
    if (set.size !== lastSet.size || ![...set].every((asset) => lastSet.has(asset))) {
      lastSorted = [...set].sort(assetOrder);
      lastSet = set;
    }
    return lastSorted;
  };
  let previous = input.opening;
  const holdingOf = stakeHoldings();
  let before = holdingsAt(read(previous.block), input.coldkeys, input.others?.get(previous.block), holdingOf);
  const rows: AssetReconciliation[] = yearOpeningRows(input, before, read(previous.block));
  for (const day of input.days) {
    const closingRead = read(day.block);
    const after = holdingsAt(closingRead, input.coldkeys, input.others?.get(day.block), holdingOf);
    const booked = bookedByDay.get(day.date) ?? new Map();
    const assets = sortedAssets(before, after, booked);
    for (const asset of assets) {
      const { held, openingRao, closingRao } = heldThroughDay(before.get(asset), after.get(asset));
      const bookedAsset = booked.get(asset) ?? { rao: 0n, labels: [] };
      if (held.length === 0 && bookedAsset.rao === 0n && bookedAsset.labels.length === 0) continue;
      const differenceRao = closingRao - openingRao - bookedAsset.rao;
      const netuid = netuidOf(asset);
      const why = explain(asset, differenceRao, fallsByDay.get(day.date) ?? []);
      rows.push({
        date: day.date,
        block: day.block,
        asset,
        netuid,
        openingRao,
        bookedRao: bookedAsset.rao,
        booked: bookedAsset.labels,
        closingRao,
        differenceRao,
        differenceGbp:
          differenceRao === 0n
            ? NO_DIFFERENCE_GBP
            : differenceGbp(differenceRao, netuid, [closingRead, read(previous.block)], day, input.prices),
        explanation: why.text,
        unexplained: why.unexplained,
        holdings: held,
      });
    }
    before = after;
    previous = day;
  }
  return { days: input.days.length, rows, unexplained: rows.filter((row) => row.unexplained) };
}

/**
 * An asset's holdings that held anything at either end of a day (those held at its opening first, in their
 * order, then those taken up during it), with their sums.
 */
function heldThroughDay(
  opened: ReadonlyMap<string, HoldingDay> | undefined,
  closed: ReadonlyMap<string, HoldingDay> | undefined,
): { held: HoldingDay[]; openingRao: bigint; closingRao: bigint } {
  const held: HoldingDay[] = [];
  let openingRao = 0n;
  let closingRao = 0n;
  const add = (ref: HoldingRef, opening: bigint, closing: bigint) => {
    if (opening === 0n && closing === 0n) return;
    held.push({ ref, openingRao: opening, closingRao: closing });
    openingRao += opening;
    closingRao += closing;
  };
  for (const [key, h] of opened ?? []) add(h.ref, h.closingRao, closed?.get(key)?.closingRao ?? 0n);
  for (const [key, h] of closed ?? []) if (!opened?.has(key)) add(h.ref, 0n, h.closingRao);
  return { held, openingRao, closingRao };
}

/**
 * The days of the record before the year (from the record's opening to the year's) are booked but not
 * reconciled day by day: what they leave must be what the chain holds when the year opens. Per asset, the
 * record's opening holdings plus every movement booked up to the year's opening against the chain's holdings
 * then; a difference (a movement of those days the pack did not book, which would sit in every later pool) is
 * a row of the year's opening day, a point to check. None when they agree, as they should.
 */
function yearOpeningRows(
  input: ReconciliationInput,
  chain: Map<string, Map<string, HoldingDay>>,
  read: StakesAtBlock,
): AssetReconciliation[] {
  const recorded = new Map<string, bigint>();
  for (const tx of input.transactions) {
    if (tx.kind !== 'opening' && tx.at.getTime() > input.opening.timeMs) continue;
    const rao = quantityRao(tx);
    recorded.set(tx.asset, (recorded.get(tx.asset) ?? 0n) + (tx.action === 'acquire' ? rao : -rao));
  }
  const rows: AssetReconciliation[] = [];
  for (const asset of [...new Set([...recorded.keys(), ...chain.keys()])].sort(byAsset)) {
    const held = [...(chain.get(asset)?.values() ?? [])].filter((h) => h.closingRao !== 0n);
    const closingRao = held.reduce((sum, h) => sum + h.closingRao, 0n);
    const bookedRao = recorded.get(asset) ?? 0n;
    const differenceRao = closingRao - bookedRao;
    if (differenceRao === 0n) continue;
    const netuid = netuidOf(asset);
    const more = differenceRao > 0n ? 'more' : 'less';
    rows.push({
      date: input.opening.date,
      block: input.opening.block,
      asset,
      netuid,
      openingRao: 0n,
      bookedRao,
      booked: ["the record's opening holdings and its movements before the year"],
      closingRao,
      differenceRao,
      differenceGbp: differenceGbp(differenceRao, netuid, [read], input.opening, input.prices),
      explanation: `unexplained: when the year opens the chain holds ${more} than the record's opening holdings and its movements before the year give; point to check`,
      unexplained: true,
      holdings: held,
    });
  }
  return rows;
}

function byAsset(a: string, b: string): number {
  return compareAssetKeys(assetKey(a), assetKey(b));
}

/** What orders an asset: TAO first, then by netuid, registration and kind (`alpha:<netuid>:<registered_at>`). */
interface AssetKey {
  asset: string;
  kind: string;
  netuid: number;
  registeredAt: number;
}

function assetKey(asset: string): AssetKey {
  const [kind = '', netuid, registeredAt] = asset.split(':');
  return { asset, kind, netuid: Number(netuid), registeredAt: Number(registeredAt) };
}

function compareAssetKeys(a: AssetKey, b: AssetKey): number {
  if (a.asset === b.asset) return 0;
  if (a.asset === TAO_ASSET) return -1;
  if (b.asset === TAO_ASSET) return 1;
  return (
    a.netuid - b.netuid || a.registeredAt - b.registeredAt || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0)
  );
}

/**
 * Why an asset's day differs: nothing to explain, a subnet that ended without paying its holders (the
 * income ledger's falls on a registration the day's end no longer shows: no disposal is booked, the pool is
 * kept for a negligible value claim), or a point to check.
 */
function explain(
  asset: string,
  differenceRao: bigint,
  dayFalls: readonly IncomeRow[],
): { text: string; unexplained: boolean } {
  if (differenceRao === 0n) return { text: 'reconciled', unexplained: false };
  const ended = dayFalls
    .filter((row) => alphaAsset(row.position.netuid, row.registeredAt) === asset)
    .reduce((sum, row) => sum + row.alphaRao, 0n);
  if (ended !== 0n && ended === differenceRao && asset !== TAO_ASSET) {
    return {
      text: 'subnet ended and the chain paid nothing for this stake: no disposal booked (nothing received); the pool is kept for a negligible value claim (CRYPTO22500), see the points to check',
      unexplained: false,
    };
  }
  const more = differenceRao > 0n ? 'more' : 'less';
  return {
    text: `unexplained: the chain holds ${more} than the opening and the booked movements give; point to check`,
    unexplained: true,
  };
}

/** A difference in pounds: TAO at the day's rate; alpha at the day's pool price (or the day before's). */
function differenceGbp(
  differenceRao: bigint,
  netuid: number,
  reads: readonly StakesAtBlock[],
  day: LedgerDay,
  prices: GbpPrices,
): Decimal | null {
  for (const read of reads) {
    const taoRao = taoRaoAt(read, netuid, differenceRao);
    if (taoRao !== null) return gbpOfTaoRao(taoRao, prices.on(day.date));
  }
  return null;
}
