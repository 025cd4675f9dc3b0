/**
 * A tax year's ledger: everything a pack shows, computed from its published inputs and the chain. It reads
 * the chain record (the year's UK days, the positions, the stake reads, the economic actions, the moves and
 * the AlphaV2 sweep found on the chain), applies the UK rules (the income ledger, the events as capital gains
 * transactions, the 30-day flags) and combines the buyer's own records before the gains are computed. The
 * pack (`pack/`) only renders the result.
 *
 * The record runs on past the year's end by up to 30 UK days when they are collected: HMRC's 30-day rule
 * (CRYPTO22254) matches a disposal with acquisitions of the 30 days after it, and staking income is an
 * acquisition every day, so a March disposal's cost depends on April's income. Those days feed the gains
 * engine only; the pack shows the year's income, events, disposals and its closing pools (at 5 April).
 */
import type { ChainReader } from '../../chain/chain-reader.js';
import { ukDay } from '../../time/uk-day.js';
import { addDays } from '../../time/utc-day.js';
import { type EconomicAction, economicAction, groupEvents } from '../chain-record/actions/economic-action.js';
import { locateMoves } from '../chain-record/actions/locate-moves.js';
import { alphaV2UpgradeBlock, locateSweep } from '../chain-record/actions/locate-sweep.js';
import { pinLimitOrderHotkeys } from '../chain-record/actions/pin-limit-orders.js';
import type { LedgerDay } from '../chain-record/ledger-days.js';
import type { LedgerEvent } from '../chain-record/ledger-event.js';
import {
  type OtherHoldingsAtBlock,
  otherHoldingRefs,
  readOtherHoldings,
} from '../chain-record/read-other-holdings.js';
import {
  comparePositions,
  type PositionRef,
  positionId,
  positionsAtBlock,
  readStakesAtBlocks,
  type StakeReadsAhead,
  type StakesAtBlock,
  stakeReadsAhead,
} from '../chain-record/stake-at-blocks.js';
import { touchedPositions } from '../chain-record/touched-positions.js';
import { CgtDecimal, pounds } from '../uk-rules/cgt/cgt-decimal.js';
import {
  type CgtMapping,
  cgtTransactions,
  type IncomeTransactions,
  type PackFlag,
  type TreatedBlock,
} from '../uk-rules/cgt/cgt-transactions.js';
import type { CgtDisposal, CgtPool, CgtReport, CgtTransaction } from '../uk-rules/cgt/cgt-types.js';
import { BED_AND_BREAKFAST_DAYS, computeGains } from '../uk-rules/cgt/compute-gains.js';
import { GbpPrices, MAX_RATE_AGE_DAYS } from '../uk-rules/gbp-prices.js';
import {
  type IncomeRow,
  incomeLedger,
  mergeSwapDays,
  netAcrossHotkeys,
  type SwapPair,
} from '../uk-rules/income-ledger.js';
import { type IncomeDaysAhead, incomeDaysAhead } from './income-days-ahead.js';
import {
  type CombinedTransactions,
  chainRecordAlone,
  combineOwnRecords,
  hasOwnInputs,
} from './own-records/combine-own-records.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
  EMPTY_CUSTOMER_INPUTS,
} from './own-records/customer-inputs.js';
import { valueAtDayRates, withAssetRates } from './own-records/day-rate-values.js';
import type { PackInputs } from './pack/pack-inputs.js';
import { type RecordDays, recordDays } from './pack/record-days.js';
import { type Reconciliation, reconcileHoldings } from './reconcile-holdings.js';
import { treatBlocksAhead } from './treat-blocks-ahead.js';
import { yearClosingPools } from './year-closing-pools.js';

/** Blocks read at once: enough to hide a remote node's latency, few enough not to flood it. */
export const PACK_READ_CONCURRENCY = 32;

/** Extrinsics grouped between two turns of the event loop while the first reads are under way. */
const GROUPING_SLICE = 2_000;

export interface TaxYearLedger {
  coldkeys: string[];
  /** The earliest collected UK day: the record opens at its end, holdings entering the pools at market value. */
  recordOpening: LedgerDay;
  /** The end of the day before the tax year (or the record's opening when it starts inside the year). */
  opening: LedgerDay;
  /** The UK days of the tax year with income computed (each after its day before). */
  days: LedgerDay[];
  /** The collected UK days after the year (up to 30) read for the 30-day rule only. */
  following: LedgerDay[];
  /** The positions of the year (held at the opening or touched by the year's events). */
  positions: PositionRef[];
  /** Stake per position at each day's end, the opening and the following days included. */
  stakes: Map<number, StakesAtBlock>;
  /** The year's income rows. */
  income: IncomeRow[];
  /**
   * The transactions of the whole record (the following days too) with the buyer's own records, addresses
   * and opening pools combined in; the events and flags of the year.
   */
  mapping: CgtMapping;
  /** The chain record's transactions alone, before the buyer's inputs: `cgt-input.csv`. */
  chainTransactions: CgtTransaction[];
  /** What the buyer added (files, records, addresses, opening) and what combining made of it. */
  customer: CustomerInputs;
  combined: CombinedTransactions;
  /** What the pack did with every event of the whole record (the exports describe all its transactions). */
  recordEvents: CgtMapping['events'];
  /** The engine's report on the whole record. */
  gains: CgtReport;
  /** The disposals of the tax year. */
  disposals: CgtDisposal[];
  /** The section 104 pools at the end of the year's last day in the record. */
  closingPools: CgtPool[];
  prices: GbpPrices;
  /** Each UK day of the year's holdings held against the chain: what moved that the pack did not book. */
  reconciliation: Reconciliation;
  /** TAO on own EVM addresses, crowdloan contributions and liquidity positions at the year's day ends. */
  otherHoldings: Map<number, OtherHoldingsAtBlock>;
}

/**
 * How far a build is: its positions and the days it reads, and the chain blocks read of the total (the
 * stake reads, most of a big pack's time), then `writing` the files. For the fulfilment worker's progress.
 */
export interface LedgerProgress {
  phase: 'reading-chain' | 'writing-files';
  positions: number;
  days: number;
  blocksRead: number;
  blocks: number;
}

/**
 * The record's transactions once they are final (the buyer's records combined in): what the gains are
 * computed from, and a pack's exports rendered from.
 */
export interface FinalTransactions {
  /** As `TaxYearLedger`'s `mapping.transactions`, `chainTransactions`, `recordEvents`, `combined`. */
  transactions: CgtTransaction[];
  chainTransactions: CgtTransaction[];
  recordEvents: CgtMapping['events'];
  combined: CombinedTransactions;
  recordOpening: LedgerDay;
}

/**
 * The gains of the final transactions (`computeGains`); a pack computes them on a thread of its own while
 * the holdings are reconciled here.
 */
export type GainsOf = (final: FinalTransactions) => Promise<CgtReport>;

/** The record as its reads leave it: the year's opening and days, its positions and their stakes. */
export interface RecordRead {
  opening: LedgerDay;
  days: LedgerDay[];
  /** The positions of the year, as the ledger lists them. */
  positions: PositionRef[];
  stakes: ReadonlyMap<number, StakesAtBlock>;
}

/** What a caller does beside the ledger: where the gains are computed, and work begun once the chain is read. */
export interface LedgerHooks {
  /** Default: on the calling thread (`gainsHere`). */
  gainsOf?: GainsOf;
  /** Told as soon as the chain is read, before the transactions are made (a pack renders from the stakes). */
  onRecordRead?: (record: RecordRead) => void;
  /**
   * Told each UK day's income rows (netted across hotkeys) as they are worked out while the chain is read: the
   * ledger's rows of that day, unless something found later changes them (then new rows).
   */
  onIncomeDay?: (date: string, rows: readonly IncomeRow[]) => void;
  /**
   * Told each block whose actions are treated while the chain is read: its treatments are the ledger's,
   * unless something found later changes the block (then it is treated again).
   */
  onBlockTreated?: (block: TreatedBlock) => void;
}

/** The gains computed on the calling thread, after a turn of the event loop (a fulfilment worker's heartbeat). */
export async function gainsHere(final: FinalTransactions): Promise<CgtReport> {
  await breathe();
  return computeGains(final.transactions);
}

/**
 * Computes a tax year's ledger for the given coldkeys: the chain record's actions and income, then the
 * capital gains transactions with the buyer's own records combined in, the gains and the year's points to
 * check. Everything a pack shows comes from here; the pack only renders it.
 */
export async function computeTaxYearLedger(
  inputs: PackInputs,
  coldkeys: readonly string[],
  reader: ChainReader,
  concurrency = PACK_READ_CONCURRENCY,
  customer: CustomerInputs = EMPTY_CUSTOMER_INPUTS,
  onProgress?: (progress: LedgerProgress) => void,
  { gainsOf = gainsHere, onRecordRead, onIncomeDay, onBlockTreated }: LedgerHooks = {},
): Promise<TaxYearLedger> {
  const record = await recordDays(inputs.calendar, inputs.taxYear, (block) => reader.timestampOf(block));
  const { recordOpening, before, yearOpening: opening, days, following } = record;
  // The record's coldkeys (the order's and each one a coldkey swap led to), to tell whose a holding is.
  const recordColdkeys = new Set(coldkeys);
  const yearEnd = days.length > 0 ? days[days.length - 1]! : opening;
  const recordEnd = following.length > 0 ? following[following.length - 1]! : yearEnd;
  const bounds: RecordBounds = {
    recordOpening,
    opening,
    yearEnd,
    recordEnd,
    readDays: [...before, ...days, ...following],
  };
  const inYear = (block: number) => block > opening.block && block <= yearEnd.block;
  const chain = await readActionsAndIncome(
    inputs,
    bounds,
    coldkeys,
    recordColdkeys,
    reader,
    concurrency,
    onProgress,
    { onIncomeDay, onBlockTreated },
  );
  const { actions, stakes, positions, yearPositions, prices } = chain;
  const positionsOfYear = positions.filter((position) => yearPositions.has(positionId(position)));
  onRecordRead?.({ opening, days, positions: positionsOfYear, stakes });
  const income = chain.netted.rows;
  await breathe();
  const mapping = cgtTransactions({
    coldkeys: recordColdkeys,
    opening: recordOpening,
    actions,
    moves: chain.netted.moves,
    income,
    days: bounds.readDays,
    positions,
    stakes,
    prices,
    treated: chain.treated,
    incomeAhead: chain.incomeTransactions,
  });
  // The buyer's own records, addresses and opening pools: one pool per token across all their holdings.
  refusePoolsInsideYear(customer, opening, inputs.taxYear.label);
  // TAO on an own EVM address, crowdloan contributions and liquidity positions: read only when booked, and
  // read while the buyer's records are combined in and the gains computed.
  const otherRefs = otherHoldingRefs(
    coldkeys,
    mapping.transactions.map((tx) => tx.asset),
    actions.some((action) => action.kind === 'own-evm'),
  );
  const othersRead = readOtherHoldings(
    reader,
    otherRefs,
    [opening.block, ...days.map((day) => day.block)],
    concurrency,
  );
  othersRead.catch(() => undefined);
  // Rows the buyer's exchange gives no pounds for take the day's rate the chain's income is valued at.
  const valued = valueAtDayRates(customer, withAssetRates(prices, inputs.fiatAssets ?? {}));
  await breathe();
  const combined = hasOwnInputs(valued)
    ? combineOwnRecords(mapping, valued, new Date(recordOpening.timeMs))
    : chainRecordAlone(mapping);
  const gainsComputed = gainsOf({
    transactions: combined.transactions,
    chainTransactions: mapping.transactions,
    recordEvents: mapping.events,
    combined,
    recordOpening,
  });
  // A failure of the reconciliation below leaves the gains unawaited: not an unhandled rejection.
  gainsComputed.catch(() => undefined);
  const yearIncome = income.filter((row) => row.date > opening.date && row.date <= yearEnd.date);
  const others = await othersRead;
  await breathe();
  const reconciliation = reconcileHoldings({
    coldkeys,
    opening,
    days,
    stakes,
    others,
    transactions: mapping.transactions,
    income: yearIncome,
    prices,
  });
  const gains = await gainsComputed;
  const label = inputs.taxYear.label;
  const disposals = gains.disposals.filter((d) => d.taxYear === label);
  await breathe();
  const flags = [
    ...pointsToCheck(combined.flags, inputs, actions, record, bounds, prices, disposals),
    ...reconciliationFlags(reconciliation),
  ];
  return {
    coldkeys: [...coldkeys],
    recordOpening,
    opening,
    days,
    following,
    positions: positionsOfYear,
    stakes,
    income: yearIncome,
    mapping: {
      transactions: combined.transactions,
      events: mapping.events.filter((treated) => inYear(treated.event.block)),
      flags,
    },
    chainTransactions: mapping.transactions,
    customer: valued,
    combined,
    recordEvents: mapping.events,
    gains,
    disposals,
    closingPools: yearClosingPools(gains, label, combined.transactions, yearEnd.date),
    prices,
    reconciliation,
    otherHoldings: others,
  };
}

/**
 * Lets timers and I/O run between the long steps of a big record (each up to a second of CPU for a coldkey
 * of 200 positions): a fulfilment worker renews its build's lease from the event loop.
 */
function breathe(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Where the record and its tax year open and end, and every day read after the record's opening. */
interface RecordBounds {
  recordOpening: LedgerDay;
  /** The end of the day before the tax year, or the record's opening (the same object) when it starts later. */
  opening: LedgerDay;
  /** The year's last day in the record (the opening when it has none). */
  yearEnd: LedgerDay;
  /** The record's last day: the last following day, else the year's end. */
  recordEnd: LedgerDay;
  /** The days before the year, the year's and the following ones, in order. */
  readDays: LedgerDay[];
}

/** The chain record of the coldkeys as actions, stake reads and income, before any capital gains treatment. */
interface ActionsAndIncome {
  /** One economic action per extrinsic, and each one found on the chain, in block order. */
  actions: EconomicAction[];
  stakes: Map<number, StakesAtBlock>;
  /** Every position of the record, by coldkey, subnet and hotkey. */
  positions: PositionRef[];
  /** The ids of the positions of the tax year (held at its opening, touched or held during it). */
  yearPositions: Set<string>;
  /** The record's income rows netted across hotkeys, and the moves the netting found. */
  netted: ReturnType<typeof netAcrossHotkeys>;
  prices: GbpPrices;
  /** The blocks whose actions were treated as their reads arrived. */
  treated: ReadonlyMap<number, TreatedBlock>;
  /** Each UK day's income as transactions, made as its reads arrived. */
  incomeTransactions: ReadonlyMap<string, IncomeTransactions>;
}

/** The stake reads' progress (blocks read of the total) as the build's, with its size. */
function readProgress(
  onProgress: ((progress: LedgerProgress) => void) | undefined,
  positions: number,
  days: number,
): ((read: number, total: number) => void) | undefined {
  if (!onProgress) return undefined;
  return (blocksRead, blocks) => onProgress({ phase: 'reading-chain', positions, days, blocksRead, blocks });
}

/**
 * Reads the record's positions and stake, groups the events into economic actions, and computes the income
 * ledger; then finds on the chain what no event names (moves, the AlphaV2 sweep) and computes it again.
 */
async function readActionsAndIncome(
  inputs: PackInputs,
  bounds: RecordBounds,
  coldkeys: readonly string[],
  recordColdkeys: ReadonlySet<string>,
  reader: ChainReader,
  concurrency: number,
  onProgress?: (progress: LedgerProgress) => void,
  told: Pick<LedgerHooks, 'onIncomeDay' | 'onBlockTreated'> = {},
): Promise<ActionsAndIncome> {
  const { recordOpening, recordEnd, readDays } = bounds;
  const events: LedgerEvent[] = inputs.events.filter(
    (e) => e.block > recordOpening.block && e.block <= recordEnd.block,
  );
  const blocks = [
    recordOpening.block,
    ...readDays.map((day) => day.block),
    ...events.flatMap((event) => [event.block - 1, event.block]),
  ];
  // The stake reads start before the events are grouped (seconds for a big record): the chain's answers
  // arrive meanwhile, and only each block's subnets wait for the positions the actions name.
  const reads = stakeReadsAhead(reader, coldkeys, blocks, concurrency);
  try {
    return await actionsAndIncome(
      inputs,
      bounds,
      events,
      coldkeys,
      recordColdkeys,
      reader,
      concurrency,
      reads,
      onProgress,
      told,
    );
  } finally {
    reads.cancel();
  }
}

/** `readActionsAndIncome` with the record's events and its stake reads under way. */
async function actionsAndIncome(
  inputs: PackInputs,
  bounds: RecordBounds,
  events: readonly LedgerEvent[],
  coldkeys: readonly string[],
  recordColdkeys: ReadonlySet<string>,
  reader: ChainReader,
  concurrency: number,
  reads: StakeReadsAhead,
  onProgress?: (progress: LedgerProgress) => void,
  told: Pick<LedgerHooks, 'onIncomeDay' | 'onBlockTreated'> = {},
): Promise<ActionsAndIncome> {
  const { recordOpening, opening, yearEnd, recordEnd, readDays } = bounds;
  const inYear = (block: number) => block > opening.block && block <= yearEnd.block;

  const positions = new Map<string, PositionRef>();
  const yearPositions = new Set<string>();
  const note = (position: PositionRef, inYear: boolean) => {
    positions.set(positionId(position), position);
    if (inYear) yearPositions.add(positionId(position));
  };
  // The opening positions are read while the events are grouped (a big record's grouping takes a while).
  const openingRead = openingPositions(reader, coldkeys, bounds);
  openingRead.catch(() => undefined);
  // One economic action per extrinsic of the record's events (a stake with its TAO leg, a move's four events),
  // in slices with a turn of the event loop between them, so that the reads' answers are taken meanwhile.
  const actions: EconomicAction[] = [];
  const groups = groupEvents(events);
  for (let from = 0; from < groups.length; from += GROUPING_SLICE) {
    for (const group of groups.slice(from, from + GROUPING_SLICE))
      actions.push(economicAction(group, recordColdkeys));
    await breathe();
  }
  notePositions(await openingRead, actions, note, { inYear, recordOpensYear: recordOpening === opening });
  const progress = readProgress(onProgress, positions.size, readDays.length);
  // The AlphaV2 upgrade's block (wanted only if the ledger shows falls, below) is searched beside the stake
  // reads: its few version reads then take no time of their own.
  const upgradeSearch = alphaV2UpgradeBlock(reader, recordOpening.block, recordEnd.block);
  upgradeSearch.catch(() => undefined);
  // Each block's actions are treated, and each day's income worked out, as their reads arrive: the build's
  // thread is idle while it reads.
  const prices = new GbpPrices(inputs.fiat);
  const asked = [...positions.values()];
  const ahead = treatBlocksAhead(actions, prices, told.onBlockTreated);
  const incomeAhead = incomeDaysAhead(recordOpening, readDays, actions, asked, prices, told.onIncomeDay);
  const stakes = await reads.ask(asked, progress, (read) => {
    ahead.onRead(read);
    incomeAhead.onRead(read);
  });
  // Every position the chain reports at a read block is in the record, also one that appeared without an
  // event of the coldkey (a hotkey swap of its validator, an auto-stake, a root claim).
  // The reads share one reference per position: each one's id is made once, not at each of a thousand blocks.
  const idOf = new Map<PositionRef, string>();
  for (const read of stakes.values()) {
    for (const position of read.held) {
      let id = idOf.get(position);
      if (id === undefined) {
        id = positionId(position);
        idOf.set(position, id);
      }
      if (!positions.has(id)) note(position, inYear(read.block) || read.block === opening.block);
      else if (inYear(read.block)) yearPositions.add(id);
    }
  }
  const ordered = [...positions.values()].sort(comparePositions);
  // The blocks whose change of a position an action explains (not income there).
  const eventBlocks = new Map<string, number[]>();
  const explain = (list: readonly EconomicAction[]) => {
    for (const action of list) {
      const positionsTouched =
        incomeAhead.touched.get(action) ??
        touchedPositions(action, stakes.get(action.block - 1)!, stakes.get(action.block)!);
      for (const [id, position] of positionsTouched) {
        if (!positions.has(id)) {
          note(position, inYear(action.block));
          ordered.push(position);
        }
        // Each block once, in the order first named (a daily auto-stake names hundreds per position).
        const listed = eventBlocks.get(id);
        if (!listed) eventBlocks.set(id, [action.block]);
        else if (!listed.includes(action.block)) listed.push(action.block);
      }
    }
    ordered.sort(comparePositions);
  };
  const pairs: SwapPair[] = [];
  const pairSwaps = (list: readonly EconomicAction[]) => pairKeySwaps(list, stakes, recordColdkeys, pairs);
  pinLimitOrderHotkeys(actions, stakes);
  pairSwaps(actions);
  explain(actions);
  // The ledger of what is known so far, computed again only once a located action has changed it.
  const ledgerOf = () =>
    recordIncome({
      ordered,
      recordOpening,
      readDays,
      stakes,
      eventBlocks,
      prices,
      pairs,
      ahead: incomeAhead,
    });
  let { rows, netted } = ledgerOf();
  await breathe();
  // What no event of the record names, found on the chain and named: moves (a hotkey swap of the validator),
  // then holdings the AlphaV2 migration deleted (falls in the blocks after the spec-473 upgrade).
  const addLocated = async (located: EconomicAction[]) => {
    if (located.length === 0) return;
    const extra = await readStakesAtBlocks(
      reader,
      ordered,
      coldkeys,
      located.flatMap((action) => [action.block - 1, action.block]),
      concurrency,
    );
    for (const [block, read] of extra) if (!stakes.has(block)) stakes.set(block, read);
    incomeAhead.forget(located.map((action) => action.block));
    actions.push(...located);
    actions.sort((a, b) => a.block - b.block || a.events[0]!.event_index - b.events[0]!.event_index);
    pairSwaps(located);
    explain(located);
    ({ rows, netted } = ledgerOf());
    await breathe();
  };
  const dayEnds = [recordOpening, ...readDays];
  await addLocated(await locateMoves(reader, netted.moves, dayEnds, stakes, actions));
  // Each position's own falls, before netting: the migration deleting an old coldkey's leftover rao the day a
  // successor's position on the same hotkey rose would otherwise be netted away as a move between them.
  const falls = rows.filter((row) => row.alphaRao < 0n);
  await breathe();
  if (falls.length > 0) {
    const upgrade = await upgradeSearch;
    await addLocated(await locateSweep(reader, falls, dayEnds, stakes, upgrade));
  }
  return {
    actions,
    stakes,
    positions: ordered,
    yearPositions,
    netted,
    prices,
    treated: ahead.treated,
    incomeTransactions: incomeAhead.transactions,
  };
}

/** Notes the positions held at the record's and the year's opening, and each one the record's actions touch. */
function notePositions(
  opened: ReadonlyArray<[PositionRef[], PositionRef[]]>,
  actions: readonly EconomicAction[],
  note: (position: PositionRef, inYear: boolean) => void,
  { inYear, recordOpensYear }: { inYear: (block: number) => boolean; recordOpensYear: boolean },
): void {
  for (const [atRecordOpening, atYearOpening] of opened) {
    for (const position of atRecordOpening) note(position, recordOpensYear);
    for (const position of atYearOpening) note(position, true);
  }
  for (const action of actions) {
    for (const holding of action.touches) {
      if (holding.hotkey !== null && holding.netuid >= 0) {
        note(
          { coldkey: holding.coldkey, hotkey: holding.hotkey, netuid: holding.netuid },
          inYear(action.block),
        );
      }
    }
  }
}

/**
 * The record's income rows (a key swap's day merged into the position it began on) and their netting across
 * hotkeys. A day worked out while the reads arrived is taken as it is, unless a swap's day merges into it;
 * when every day was (no swap), its netting is kept too (netting groups one day's rows).
 */
function recordIncome(record: {
  ordered: readonly PositionRef[];
  recordOpening: LedgerDay;
  readDays: readonly LedgerDay[];
  stakes: ReadonlyMap<number, StakesAtBlock>;
  eventBlocks: ReadonlyMap<string, readonly number[]>;
  prices: GbpPrices;
  pairs: readonly SwapPair[];
  ahead: IncomeDaysAhead;
}): { rows: IncomeRow[]; netted: ReturnType<typeof netAcrossHotkeys> } {
  const { readDays, pairs, ahead } = record;
  const workedOut = (date: string) =>
    pairs.some((pair) => pair.date === date) ? undefined : ahead.days.get(date)?.rows;
  const rows = mergeSwapDays(
    incomeLedger(
      record.ordered,
      record.recordOpening,
      readDays,
      record.stakes,
      record.eventBlocks,
      record.prices,
      workedOut,
    ),
    pairs,
  );
  const ready = readDays.map((day) => ahead.days.get(day.date));
  if (pairs.length > 0 || ready.some((day) => day === undefined))
    return { rows, netted: netAcrossHotkeys(rows) };
  return {
    rows,
    netted: { rows: ready.flatMap((day) => day!.netted), moves: ready.flatMap((day) => day!.moves) },
  };
}

/** The positions held at the record's opening and at the year's, per coldkey, read at once. */
function openingPositions(
  reader: ChainReader,
  coldkeys: readonly string[],
  { recordOpening, opening }: RecordBounds,
): Promise<Array<[PositionRef[], PositionRef[]]>> {
  return Promise.all(
    coldkeys.map((coldkey) =>
      Promise.all([
        positionsAtBlock(reader, coldkey, recordOpening.block),
        recordOpening !== opening ? positionsAtBlock(reader, coldkey, opening.block) : [],
      ]),
    ),
  );
}

/**
 * Key swaps: each old key's position held before the swap's block paired with the new key's (added to
 * `pairs`), and both noted as touched by the swap.
 */
function pairKeySwaps(
  list: readonly EconomicAction[],
  stakes: ReadonlyMap<number, StakesAtBlock>,
  recordColdkeys: ReadonlySet<string>,
  pairs: SwapPair[],
): void {
  for (const action of list) {
    const swap = action.swap;
    const held = stakes.get(action.block - 1)?.held ?? [];
    if (!swap) continue;
    for (const p of held) {
      const to =
        swap.kind === 'hotkey'
          ? p.hotkey === swap.oldHotkey &&
            (swap.netuid === null || swap.netuid === p.netuid) &&
            recordColdkeys.has(p.coldkey)
            ? { ...p, hotkey: swap.newHotkey }
            : null
          : p.coldkey === swap.oldColdkey
            ? { ...p, coldkey: swap.newColdkey }
            : null;
      if (!to) continue;
      pairs.push({ date: ukDay(Date.parse(action.time)), from: p, to });
      action.touches.push(p, to);
    }
  }
}

/**
 * Last year's pools stand at the end of a day before this year's record starts; a pools.csv of a day inside
 * the year would drop the year's own disposals before it, so it is refused.
 */
function refusePoolsInsideYear(customer: CustomerInputs, opening: LedgerDay, yearLabel: string): void {
  const asAt = customer.opening?.asAt;
  if (asAt && asAt > opening.date) {
    const file = customer.files.find((f) => f.role === 'opening')?.name ?? 'the opening pools';
    throw new CustomerInputsRejected([
      {
        file,
        line: 0,
        column: 'as_at',
        reason: `the pools stand at the end of ${asAt}, inside the tax year ${yearLabel} (which starts after ${opening.date}): give the pools.csv of the pack of the year before`,
      },
    ]);
  }
}

/**
 * The year's points to check: the combined record's flags of the year, and the market-value opening wherever
 * the record starts (it shapes the pools); each coldkey swap followed, calendar days found on the chain,
 * stale TAO/GBP rates, and disposals whose 30-day window runs past the record's end.
 */
function pointsToCheck(
  combinedFlags: readonly PackFlag[],
  inputs: PackInputs,
  actions: readonly EconomicAction[],
  record: RecordDays,
  bounds: RecordBounds,
  prices: GbpPrices,
  disposals: readonly CgtDisposal[],
): PackFlag[] {
  const { opening, yearEnd, recordEnd } = bounds;
  const flags: PackFlag[] = combinedFlags.filter(
    (flag) => flag.kind === 'opening' || (flag.date > opening.date && flag.date <= yearEnd.date),
  );
  for (const swap of inputs.followed ?? []) {
    const at = actions.find((a) => a.block === swap.block);
    const date = at ? ukDay(Date.parse(at.time)) : opening.date;
    if (date <= opening.date || date > yearEnd.date) continue;
    flags.push({
      date,
      kind: 'moved',
      text: `${date}: coldkey ${swap.from} was swapped to ${swap.to} (ColdkeySwapped, block ${swap.block}): the same owner's holdings under a new key, neither a disposal nor income. This record follows them to ${swap.to}; its later events and income are part of it, whether or not the order names it.`,
    });
  }
  if (record.foundOnChain.length > 0) {
    flags.push({
      date: record.foundOnChain[0]!,
      kind: 'calendar',
      text: `The published calendar lacked ${record.foundOnChain.length} UK day(s) (${summariseDates(record.foundOnChain)}): their last blocks were found on the chain by block timestamps.`,
    });
  }
  const stale = prices.staleDays().filter(({ ukDate }) => ukDate > opening.date && ukDate <= recordEnd.date);
  if (stale.length > 0) {
    flags.push({
      date: stale[0]!.ukDate,
      kind: 'stale-rate',
      text: `No TAO/GBP rate was published at the end of ${stale.length} UK day(s) (${stale.map(({ ukDate, price }) => `${ukDate}: rate of ${price.at.slice(0, 10)}`).join('; ')}): each is valued at the nearest earlier quote, at most ${MAX_RATE_AGE_DAYS} days older (income.csv, tao_gbp_at).`,
    });
  }
  const lastDisposal = disposals[disposals.length - 1];
  if (lastDisposal && recordEnd.date < addDays(lastDisposal.date, BED_AND_BREAKFAST_DAYS)) {
    flags.push({
      date: lastDisposal.date,
      kind: 'provisional',
      text: `The record ends on ${recordEnd.date}, less than ${BED_AND_BREAKFAST_DAYS} days after the disposals of ${addDays(recordEnd.date, -BED_AND_BREAKFAST_DAYS + 1)} to ${lastDisposal.date}: acquisitions after ${recordEnd.date} (staking income included) can still be matched with them under the 30-day rule. Those disposals' costs are provisional; a pack built after ${addDays(lastDisposal.date, BED_AND_BREAKFAST_DAYS)} gives final figures.`,
    });
  }
  return flags;
}

/**
 * One point to check per asset whose holdings differ from the chain on some day with no known mechanism to
 * explain it: its days, the total in RAO and pounds (each day is a row of reconciliation.csv).
 */
function reconciliationFlags(reconciliation: Reconciliation): PackFlag[] {
  const byAsset = new Map<string, Reconciliation['unexplained']>();
  for (const row of reconciliation.unexplained)
    byAsset.set(row.asset, [...(byAsset.get(row.asset) ?? []), row]);
  return [...byAsset].map(([asset, rows]) => {
    const total = rows.reduce((sum, row) => sum + row.differenceRao, 0n);
    const gbp = rows.reduce((sum, row) => sum.plus(row.differenceGbp ?? 0), new CgtDecimal(0));
    const listed = rows
      .slice(0, 5)
      .map((row) => `${row.date} ${formatRao(row.differenceRao)}`)
      .join('; ');
    const more = rows.length > 5 ? ` and ${rows.length - 5} more` : '';
    const inPounds = pounds(gbp);
    const money = inPounds.startsWith('-') ? `-£${inPounds.slice(1)}` : `£${inPounds}`;
    return {
      date: rows[0]!.date,
      kind: 'reconciliation' as const,
      text: `${asset}: on ${rows.length} UK day(s) the chain's holdings differ from the opening and the movements the pack booked (${listed}${more}), ${formatRao(total)} ${asset} in all (${money}): nothing the pack reads explains it. Check what moved (reconciliation.csv lists each day and holding).`,
    };
  });
}

/** Signed RAO as units with 9 decimals, trailing zeros dropped. */
function formatRao(rao: bigint): string {
  const sign = rao < 0n ? '-' : '+';
  return `${sign}${new CgtDecimal((rao < 0n ? -rao : rao).toString()).div(1_000_000_000).toFixed()}`;
}

/** A list of dates as its first and last and a count, short enough for one line. */
function summariseDates(dates: readonly string[]): string {
  return dates.length <= 3 ? dates.join(', ') : `${dates[0]} to ${dates[dates.length - 1]}`;
}
