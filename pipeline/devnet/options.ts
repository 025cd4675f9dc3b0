import { MAINNET_EVENTS_PER_BLOCK } from './world/mainnet-traffic.js';
import { DAY_MS } from './world/timeline.js';

/**
 * Which runtimes a world's history runs when its options name no current- or latest-runtime block:
 * `today`, the chain as mainnet has it now (343 → 393 → 425 → 473, the last two placed near the end of the
 * history, see `placeTodaysRuntimes`); `legacy`, the history ends with spec 393 (343 → 393).
 */
export type RuntimeHistory = 'today' | 'legacy';

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
   * First block run by spec 425, the sandbox's stand-in for the current runtime (V2 share storage, several
   * events per staking call, balance-transfer legs to subnet accounts, the current-tax-year life events of
   * the demo coldkey). Absent: placed by `runtimes` (with `legacy`, none: the history ends with spec 393);
   * null: none, whatever `runtimes` says.
   */
  currentRuntimeBlock?: number | null;
  /**
   * First block run by spec 473, mainnet's runtime since October 2026 (no V1 share maps; the AlphaV2
   * migration and dust sweep over the blocks after it; limit orders). Needs a current-runtime block before
   * it. Absent: placed by `runtimes` (with `legacy`, none); null: none.
   */
  latestRuntimeBlock?: number | null;
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
  currentRuntimeBlock: number | null;
  /** First block run by spec 473; null: never (always after `currentRuntimeBlock`). */
  latestRuntimeBlock: number | null;
  blockTimeMs: number;
  historyDays: number;
  upgradeBlock: number;
  magnitudes: WorldMagnitudes;
  /** About this many events a block with mainnet's traffic; null: the world's own events only. */
  eventsPerBlock: number | null;
}

export type WorldOptionKeys =
  | 'seed'
  | 'historyDays'
  | 'genesis'
  | 'blockTimeMs'
  | 'upgradeBlock'
  | 'currentRuntimeBlock'
  | 'latestRuntimeBlock'
  | 'runtimes'
  | 'magnitudes'
  | 'eventsPerBlock';

export function resolveWorldParams(
  options: Pick<DevnetOptions, WorldOptionKeys>,
  nowMs: number,
): WorldParams {
  const genesisMs =
    options.genesis?.getTime() ?? Math.floor(nowMs / DAY_MS) * DAY_MS - options.historyDays * DAY_MS;
  const dayZeroMs = Math.floor(genesisMs / DAY_MS) * DAY_MS;
  // The first block at or after an instant (never before block 2, where the first upgrade can be).
  const blockAt = (ms: number) => Math.max(2, Math.ceil((ms - genesisMs) / options.blockTimeMs));
  const noonOfDay = (day: number) => blockAt(dayZeroMs + day * DAY_MS + DAY_MS / 2);
  const upgradeBlock = options.upgradeBlock ?? noonOfDay(Math.floor(options.historyDays / 2));
  const { current, latest } = placeTodaysRuntimes(options, upgradeBlock, {
    dayOf: (block) => Math.floor((genesisMs + block * options.blockTimeMs - dayZeroMs) / DAY_MS),
    noonOfDay,
    todayStart: blockAt(dayZeroMs + options.historyDays * DAY_MS),
  });
  if (latest !== null && (current === null || latest <= current)) {
    throw new Error(
      `devnet: spec 473 (latest-runtime block ${latest}) needs spec 425 (current-runtime block) before it; ` +
        `got ${current ?? 'none'}`,
    );
  }
  return {
    seed: options.seed,
    genesisMs,
    currentRuntimeBlock: current,
    latestRuntimeBlock: latest,
    blockTimeMs: options.blockTimeMs,
    historyDays: options.historyDays,
    upgradeBlock,
    magnitudes: options.magnitudes ?? 'adversarial',
    eventsPerBlock:
      options.eventsPerBlock !== undefined
        ? options.eventsPerBlock
        : options.magnitudes === 'mainnet'
          ? MAINNET_EVENTS_PER_BLOCK
          : null,
  };
}

interface DayGrid {
  dayOf(block: number): number;
  noonOfDay(day: number): number;
  /** First block of today (day `historyDays`): the placement depends on the day, never on the hour. */
  todayStart: number;
}

/**
 * Days between spec 425's upgrade day and spec 473's (noon to noon): the demo's life (world/current-life.ts)
 * runs on days 1–7 after the 425 upgrade day, so 473 arrives after its dissolution (day 6, 09:00) and before
 * its coldkey swap (day 7, 09:00); the limit orders follow at 12:00 the day after 473.
 */
export const LATEST_AFTER_CURRENT_DAYS = 6;

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
  options: Pick<DevnetOptions, 'currentRuntimeBlock' | 'latestRuntimeBlock' | 'runtimes' | 'historyDays'>,
  upgradeBlock: number,
  grid: DayGrid,
): { current: number | null; latest: number | null } {
  const history = options.runtimes ?? DEFAULT_RUNTIME_HISTORY;
  let current = options.currentRuntimeBlock;
  let latest = options.latestRuntimeBlock;
  if (history === 'legacy') return { current: current ?? null, latest: latest ?? null };
  const placed = () => {
    const latestDay = options.historyDays - 3;
    const ideal = {
      current: grid.noonOfDay(latestDay - LATEST_AFTER_CURRENT_DAYS),
      latest: grid.noonOfDay(latestDay),
    };
    if (ideal.current > upgradeBlock) return ideal;
    const span = Math.max(3, grid.todayStart - upgradeBlock);
    return {
      current: upgradeBlock + Math.max(1, Math.floor(span / 3)),
      latest: upgradeBlock + Math.max(2, Math.floor((2 * span) / 3)),
    };
  };
  if (current === undefined && (latest === undefined || latest === null)) {
    const both = placed();
    return { current: both.current, latest: latest === null ? null : both.latest };
  }
  if (current === undefined) {
    const before = grid.noonOfDay(grid.dayOf(latest!) - LATEST_AFTER_CURRENT_DAYS);
    current = before > upgradeBlock && before < latest! ? before : Math.floor((upgradeBlock + latest!) / 2);
  }
  if (latest === undefined) {
    latest = current === null ? null : grid.noonOfDay(grid.dayOf(current) + LATEST_AFTER_CURRENT_DAYS);
  }
  return { current, latest };
}
