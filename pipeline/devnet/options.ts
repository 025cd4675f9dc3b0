import { DAY_MS } from './world/timeline.js';

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
   * the demo coldkey). Absent: the history ends with spec 393, as before.
   */
  currentRuntimeBlock?: number;
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
  blockTimeMs: number;
  historyDays: number;
  upgradeBlock: number;
  magnitudes: WorldMagnitudes;
}

export function resolveWorldParams(
  options: Pick<
    DevnetOptions,
    'seed' | 'historyDays' | 'genesis' | 'blockTimeMs' | 'upgradeBlock' | 'currentRuntimeBlock' | 'magnitudes'
  >,
  nowMs: number,
): WorldParams {
  const genesisMs =
    options.genesis?.getTime() ?? Math.floor(nowMs / DAY_MS) * DAY_MS - options.historyDays * DAY_MS;
  const dayZeroMs = Math.floor(genesisMs / DAY_MS) * DAY_MS;
  const middleDayNoonMs = dayZeroMs + Math.floor(options.historyDays / 2) * DAY_MS + DAY_MS / 2;
  const defaultUpgrade = Math.max(2, Math.ceil((middleDayNoonMs - genesisMs) / options.blockTimeMs));
  return {
    seed: options.seed,
    genesisMs,
    currentRuntimeBlock: options.currentRuntimeBlock ?? null,
    blockTimeMs: options.blockTimeMs,
    historyDays: options.historyDays,
    upgradeBlock: options.upgradeBlock ?? defaultUpgrade,
    magnitudes: options.magnitudes ?? 'adversarial',
  };
}
