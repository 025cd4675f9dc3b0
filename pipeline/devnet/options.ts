import { DAY_MS } from '../time/utc-day.js';
import { mainnetEraOn, RUNTIME_ERAS } from './runtime/runtime-eras.js';
import { MAINNET_EVENTS_PER_BLOCK } from './world/mainnet-traffic.js';

/**
 * Which runtimes a world's history runs when its options name no upgrade blocks: `mainnet`, each block
 * runs what mainnet ran on its UTC date (`runtime/runtime-eras.ts`, from dTAO's launch on); `today`, the
 * same when the history holds every upgrade from spec 393 on (it begins on or before 24 March 2026 and
 * today is on or after 7 October 2026), otherwise the chain as mainnet has it now compressed into the
 * history (343 → 393 → 425 → 473, the last two placed near the end, see `placeTodaysRuntimes`); `legacy`,
 * the compressed history ends with spec 393 (343 → 393).
 */
export type RuntimeHistory = 'today' | 'legacy' | 'mainnet';

/**
 * The default for worlds whose options do not say (`runtimes` unset): today's chain, as mainnet runs it
 * (docs/sandbox.md, "Today's chain by default"); a test that needs the older history alone says `legacy`.
 */
export const DEFAULT_RUNTIME_HISTORY: RuntimeHistory = 'today';

/** How to run the sandbox chain. Every field is plain data; `pipeline/cli.ts` builds it from flags. */
export interface DevnetOptions {
  /** Seeds every random choice of the world: one seed, one world. */
  seed: string;
  /** Days of history before today; genesis is the UTC midnight that many days before today. */
  historyDays: number;
  /** Overrides genesis (any instant; day 0 is its UTC day). */
  genesis?: Date;
  blockTimeMs: number;
  /** The finalized head trails the best head by this many blocks. */
  finalityLag: number;
  /** First block run by spec 393; default: noon of the middle day of the history. */
  upgradeBlock?: number;
  /**
   * First block run by spec 425, the sandbox's stand-in for mainnet's mid-2026 runtime (V2 share storage, several
   * events per staking call, balance-transfer legs to subnet accounts, the current-tax-year life events of
   * the demo coldkey). Absent: placed by `runtimes` (with `legacy`, none: the history ends with spec 393);
   * null: none, whatever `runtimes` says.
   */
  spec425Block?: number | null;
  /**
   * First block run by spec 473, mainnet's runtime since October 2026 (no V1 share maps; the AlphaV2
   * migration and dust sweep over the blocks after it; limit orders). Needs a spec-425 block before
   * it. Absent: placed by `runtimes` (with `legacy`, none); null: none.
   */
  spec473Block?: number | null;
  /** Which runtimes the history runs where the two blocks above are absent; default `DEFAULT_RUNTIME_HISTORY`. */
  runtimes?: RuntimeHistory;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Price API port; default chain port + 1, 0 picks a free port. */
  pricePort?: number;
  /** Added to every answer. */
  latencyMs: number;
  /** Fraction of data requests answered with a JSON-RPC error. */
  failRate: number;
  /** Close a connection after this many requests (0: never). */
  dropEvery: number;
  /** Clock injection for tests: milliseconds since the epoch. */
  now?: () => number;
  /**
   * Which magnitudes the world has (docs/sandbox.md): `mainnet`, Bittensor's own (128 subnets, pools of
   * thousands of TAO, daily burns up to tens of thousands of alpha), what `sbm devnet` and `make demo`
   * serve; or `adversarial`, amounts far beyond mainnet's (burns above 2^53 RAO, pools of up to 200,000 TAO)
   * that the collection, publishing and gateway tests run on so no code can hold RAO in a double. Code that
   * starts a sandbox without saying gets `adversarial`.
   */
  magnitudes?: WorldMagnitudes;
  /**
   * Mainnet's traffic (world/mainnet-traffic.ts): filler extrinsics in every block, with their fees and
   * outcomes, until a block holds about this many events, and a share of the burns inside batches and proxy
   * calls. Absent: `MAINNET_EVENTS_PER_BLOCK` in the mainnet world, none in the adversarial one; null: none.
   */
  eventsPerBlock?: number | null;
  /**
   * A purpose-made variant of the 2025/26 life (world/dated-life.ts, a world placed by date only): the demo
   * coldkey also receives one lease dividend the way runtimes before spec 361 paid it, as TAO credited to its
   * free balance with no event naming it a dividend (`UNTOLD_LEASE_DIVIDEND`). Absent or false: not.
   */
  untoldLeaseDividend?: boolean;
  /**
   * Coldkeys like mainnet's biggest (world/big-coldkeys.ts, docs/sandbox.md "Big coldkeys"): a validator, a
   * subnet owner, a miner and a staker in over a hundred subnets. Every other coldkey is as without them.
   * Absent or false: none (what the tests' worlds have); `sbm devnet` has them unless told not to.
   */
  bigColdkeys?: boolean;
}

export type WorldMagnitudes = 'mainnet' | 'adversarial';

export const defaultDevnetOptions: DevnetOptions = {
  seed: 'demo',
  historyDays: 35,
  blockTimeMs: 12_000,
  finalityLag: 2,
  host: '127.0.0.1',
  port: 9944,
  latencyMs: 0,
  failRate: 0,
  dropEvery: 0,
};

/** The part of the options that decides the world (not how it is served). */
export interface WorldParams {
  seed: string;
  genesisMs: number;
  /** First block run by spec 425; null: never. */
  spec425Block: number | null;
  /** First block run by spec 473; null: never (always after `spec425Block`). */
  spec473Block: number | null;
  blockTimeMs: number;
  historyDays: number;
  upgradeBlock: number;
  magnitudes: WorldMagnitudes;
  /**
   * Which spec runs which blocks, in order: each step's spec runs from its block to the next step's. Its
   * `set_code` is in the block before (`System.CodeUpdated`). The first step is at block 0.
   */
  runtimeSchedule: RuntimeStep[];
  /** `dates`: placed by mainnet's dates; `compressed`: 343 → 393 (→ 425 → 473) placed in the history. */
  runtimePlacement: 'dates' | 'compressed';
  /** About this many events a block with mainnet's traffic; null: the world's own events only. */
  eventsPerBlock: number | null;
  /** The 2025/26 life's lease dividend credited with no event (option `untoldLeaseDividend`). */
  untoldLeaseDividend?: boolean;
  /** The big coldkeys (option `bigColdkeys`). */
  bigColdkeys?: boolean;
}

export interface RuntimeStep {
  spec: number;
  fromBlock: number;
}

/** The first date of the history that `today` places by mainnet's dates at the latest: the day before 393. */
export const DATED_HISTORY_LATEST_START = '2026-03-24';
/** The first "today" on which `today` places by mainnet's dates: spec 473's day plus two (its limit orders). */
export const DATED_HISTORY_EARLIEST_TODAY = '2026-10-07';

export type WorldOptionKeys =
  | 'seed'
  | 'historyDays'
  | 'genesis'
  | 'blockTimeMs'
  | 'upgradeBlock'
  | 'spec425Block'
  | 'spec473Block'
  | 'runtimes'
  | 'magnitudes'
  | 'eventsPerBlock'
  | 'untoldLeaseDividend'
  | 'bigColdkeys';

export function resolveWorldParams(
  options: Pick<DevnetOptions, WorldOptionKeys>,
  nowMs: number,
): WorldParams {
  const genesisMs =
    options.genesis?.getTime() ?? Math.floor(nowMs / DAY_MS) * DAY_MS - options.historyDays * DAY_MS;
  const dayZeroMs = Math.floor(genesisMs / DAY_MS) * DAY_MS;
  // The first block at or after an instant (never before block 2, where the first upgrade can be).
  const blockAt = (ms: number) => Math.max(2, Math.ceil((ms - genesisMs) / options.blockTimeMs));
  if (placesByMainnetDates(options, dayZeroMs)) {
    return datedWorldParams(options, genesisMs, dayZeroMs, blockAt);
  }
  const noonOfDay = (day: number) => blockAt(dayZeroMs + day * DAY_MS + DAY_MS / 2);
  const upgradeBlock = options.upgradeBlock ?? noonOfDay(Math.floor(options.historyDays / 2));
  const { spec425, spec473 } = placeTodaysRuntimes(options, upgradeBlock, {
    dayOf: (block) => Math.floor((genesisMs + block * options.blockTimeMs - dayZeroMs) / DAY_MS),
    noonOfDay,
    todayStart: blockAt(dayZeroMs + options.historyDays * DAY_MS),
  });
  if (spec473 !== null && (spec425 === null || spec473 <= spec425)) {
    throw new Error(
      `devnet: spec 473 (latest-runtime block ${spec473}) needs spec 425 (current-runtime block) before it; ` +
        `got ${spec425 ?? 'none'}`,
    );
  }
  const runtimeSchedule: RuntimeStep[] = [
    { spec: 343, fromBlock: 0 },
    { spec: 393, fromBlock: upgradeBlock },
  ];
  if (spec425 !== null) runtimeSchedule.push({ spec: 425, fromBlock: spec425 });
  if (spec473 !== null) runtimeSchedule.push({ spec: 473, fromBlock: spec473 });
  return {
    seed: options.seed,
    genesisMs,
    spec425Block: spec425,
    spec473Block: spec473,
    blockTimeMs: options.blockTimeMs,
    historyDays: options.historyDays,
    upgradeBlock,
    magnitudes: options.magnitudes ?? 'adversarial',
    runtimeSchedule,
    runtimePlacement: 'compressed',
    eventsPerBlock: eventsPerBlockOf(options),
    ...(options.untoldLeaseDividend ? { untoldLeaseDividend: true } : {}),
    ...(options.bigColdkeys ? { bigColdkeys: true } : {}),
  };
}

/** Mainnet's traffic fills the mainnet world's blocks unless the options say otherwise; none in the adversarial world. */
function eventsPerBlockOf(options: Pick<DevnetOptions, WorldOptionKeys>): number | null {
  if (options.eventsPerBlock !== undefined) return options.eventsPerBlock;
  return options.magnitudes === 'mainnet' ? MAINNET_EVENTS_PER_BLOCK : null;
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Whether the history's runtimes are placed by mainnet's dates: always with `mainnet`; with `today` (the
 * default) when no upgrade block is named and the history holds spec 393's, 425's and 473's days.
 */
function placesByMainnetDates(options: Pick<DevnetOptions, WorldOptionKeys>, dayZeroMs: number): boolean {
  const history = options.runtimes ?? DEFAULT_RUNTIME_HISTORY;
  if (history === 'mainnet') return true;
  if (history !== 'today') return false;
  if (
    options.upgradeBlock !== undefined ||
    options.spec425Block !== undefined ||
    options.spec473Block !== undefined
  ) {
    return false;
  }
  const today = isoDate(dayZeroMs + options.historyDays * DAY_MS);
  return isoDate(dayZeroMs) <= DATED_HISTORY_LATEST_START && today >= DATED_HISTORY_EARLIEST_TODAY;
}

/**
 * Each block runs the runtime mainnet ran on its UTC date: an upgrade's first block is the first block of
 * its date (so every block of a date runs one runtime), and the history's first block runs the runtime of
 * genesis's date. Named upgrade blocks are refused: the dates decide.
 */
function datedWorldParams(
  options: Pick<DevnetOptions, WorldOptionKeys>,
  genesisMs: number,
  dayZeroMs: number,
  blockAt: (ms: number) => number,
): WorldParams {
  if (
    (options.upgradeBlock ?? null) !== null ||
    (options.spec425Block ?? null) !== null ||
    (options.spec473Block ?? null) !== null
  ) {
    throw new Error('devnet: --runtimes mainnet places every upgrade by its date; name no upgrade block');
  }
  const first = mainnetEraOn(isoDate(dayZeroMs));
  if (isoDate(dayZeroMs) > DATED_HISTORY_LATEST_START) {
    // The world's state at genesis is a V1 world before buybacks: it cannot begin inside a later runtime.
    throw new Error(
      `devnet: --runtimes mainnet needs a history beginning on or before ${DATED_HISTORY_LATEST_START}; ` +
        `it begins ${isoDate(dayZeroMs)}`,
    );
  }
  const schedule: RuntimeStep[] = [{ spec: first.spec, fromBlock: 0 }];
  for (const era of RUNTIME_ERAS) {
    if (era.spec <= first.spec) continue;
    schedule.push({ spec: era.spec, fromBlock: blockAt(Date.parse(`${era.mainnetFrom}T00:00:00Z`)) });
  }
  // Every later upgrade is in the schedule, those after today too (the world runs on as the clock does).
  const fromOf = (spec: number) => schedule.find((s) => s.spec === spec)!.fromBlock;
  const upgradeBlock = fromOf(393);
  return {
    seed: options.seed,
    genesisMs,
    spec425Block: fromOf(425),
    spec473Block: fromOf(473),
    blockTimeMs: options.blockTimeMs,
    historyDays: options.historyDays,
    upgradeBlock,
    magnitudes: options.magnitudes ?? 'adversarial',
    runtimeSchedule: schedule,
    runtimePlacement: 'dates',
    eventsPerBlock: eventsPerBlockOf(options),
    ...(options.untoldLeaseDividend ? { untoldLeaseDividend: true } : {}),
    ...(options.bigColdkeys ? { bigColdkeys: true } : {}),
  };
}

interface DayGrid {
  dayOf(block: number): number;
  noonOfDay(day: number): number;
  /** First block of today (day `historyDays`): the placement depends on the day, never on the hour. */
  todayStart: number;
}

/**
 * Days between spec 425's upgrade day and spec 473's (noon to noon): the demo's life (world/spec-425-life.ts)
 * runs on days 1–7 after the 425 upgrade day, so 473 arrives after its dissolution (day 6, 09:00) and before
 * its coldkey swap (day 7, 09:00); the limit orders follow at 12:00 the day after 473.
 */
export const SPEC_473_AFTER_425_DAYS = 6;

/**
 * Spec 425's and 473's first blocks. Named blocks (or null) are kept. With `today`, an unnamed one is placed:
 * 473 at noon three days before today and 425 six days before that, so the demo's life (days 1–7 after the
 * 425 day), the sweep and the limit orders (the day after 473) are over by yesterday and fall in the
 * current UK tax year whenever it is at least two weeks old. A history too short for that after the spec 393
 * upgrade gets both in its remaining span (425 a third of the way from the 393 upgrade to today's first
 * block, 473 two thirds); the life's later steps then lie in the future and happen as the clock reaches them.
 * With only one of the two named, the other keeps the six-day gap where it fits; with only 473 set to null,
 * 425 is placed as if neither were named (a history that ends with spec 425).
 */
function placeTodaysRuntimes(
  options: Pick<DevnetOptions, 'spec425Block' | 'spec473Block' | 'runtimes' | 'historyDays'>,
  upgradeBlock: number,
  grid: DayGrid,
): { spec425: number | null; spec473: number | null } {
  const history = options.runtimes ?? DEFAULT_RUNTIME_HISTORY;
  let spec425 = options.spec425Block;
  let spec473 = options.spec473Block;
  if (history === 'legacy') return { spec425: spec425 ?? null, spec473: spec473 ?? null };
  const placed = () => {
    const spec473Day = options.historyDays - 3;
    const ideal = {
      spec425: grid.noonOfDay(spec473Day - SPEC_473_AFTER_425_DAYS),
      spec473: grid.noonOfDay(spec473Day),
    };
    if (ideal.spec425 > upgradeBlock) return ideal;
    const span = Math.max(3, grid.todayStart - upgradeBlock);
    return {
      spec425: upgradeBlock + Math.max(1, Math.floor(span / 3)),
      spec473: upgradeBlock + Math.max(2, Math.floor((2 * span) / 3)),
    };
  };
  if (spec425 === undefined && (spec473 === undefined || spec473 === null)) {
    const both = placed();
    return { spec425: both.spec425, spec473: spec473 === null ? null : both.spec473 };
  }
  if (spec425 === undefined) {
    const before = grid.noonOfDay(grid.dayOf(spec473!) - SPEC_473_AFTER_425_DAYS);
    spec425 = before > upgradeBlock && before < spec473! ? before : Math.floor((upgradeBlock + spec473!) / 2);
  }
  if (spec473 === undefined) {
    spec473 = spec425 === null ? null : grid.noonOfDay(grid.dayOf(spec425) + SPEC_473_AFTER_425_DAYS);
  }
  return { spec425, spec473 };
}
