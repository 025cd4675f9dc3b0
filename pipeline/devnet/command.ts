import { Command, InvalidArgumentError } from 'commander';
import type { PipelineConfig } from '../config.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RuntimeHistory,
  type WorldMagnitudes,
} from './options.js';
import { startDevnet } from './start.js';
import { buildTruth } from './truth/truth.js';
import { isDate } from './world/timeline.js';

function integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return Number(raw);
  };
}

function fraction(raw: string): number {
  const value = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || value < 0 || value > 1) {
    throw new InvalidArgumentError(`--fail-rate must be a number from 0 to 1, got "${raw}"`);
  }
  return value;
}

function instant(raw: string): Date {
  const date = new Date(raw);
  if (Number.isNaN(date.getTime()))
    throw new InvalidArgumentError(`--genesis must be an ISO date or time, got "${raw}"`);
  return date;
}

function date(raw: string): string {
  if (!isDate(raw)) throw new InvalidArgumentError(`dates must be YYYY-MM-DD, got "${raw}"`);
  return raw;
}

interface WorldFlags {
  seed: string;
  currentRuntimeBlock?: number;
  latestRuntimeBlock?: number;
  runtimes?: RuntimeHistory;
  historyDays: number;
  genesis?: Date;
  blockTimeMs: number;
  upgradeBlock?: number;
  world: WorldMagnitudes;
  eventsPerBlock?: number;
  untoldLeaseDividend?: boolean;
  /** `--no-big-coldkeys` sets false; `devnet truth` takes it from `devnet`. */
  bigColdkeys?: boolean;
}

/**
 * `--current-runtime-block` and `--latest-runtime-block` keep the names callers know; the options they set
 * name the spec (`spec425Block`, `spec473Block`). Absent flags stay absent: the runtimes are then placed.
 */
function runtimeBlockOptions(
  flags: Partial<Pick<WorldFlags, 'currentRuntimeBlock' | 'latestRuntimeBlock'>>,
): {
  spec425Block?: number;
  spec473Block?: number;
} {
  return {
    ...(flags.currentRuntimeBlock === undefined ? {} : { spec425Block: flags.currentRuntimeBlock }),
    ...(flags.latestRuntimeBlock === undefined ? {} : { spec473Block: flags.latestRuntimeBlock }),
  };
}

/** `--events-per-block`: 0 is none (the world's own events only), absent is the world's default. */
function trafficOption(flags: { eventsPerBlock?: number }): { eventsPerBlock?: number | null } {
  if (flags.eventsPerBlock === undefined) return {};
  return { eventsPerBlock: flags.eventsPerBlock === 0 ? null : flags.eventsPerBlock };
}

/**
 * World options sit on both `devnet` and `devnet truth`. Unless the root program enables positional
 * options, commander lets `devnet` consume them even when they follow `truth`; so `truth` declares them
 * without defaults and falls back to its parent's values (which carry the defaults).
 */
function withWorldOptions(command: Command, withDefaults: boolean): Command {
  const fallback = <T>(value: T) => (withDefaults ? value : undefined);
  // Commander prints defaults it holds; for `truth` the default lives on the parent, so say it here.
  const shown = (text: string, value: unknown) =>
    withDefaults ? text : `${text} (default: ${JSON.stringify(value)})`;
  return command
    .option(
      '--seed <text>',
      shown('seed of the simulated world', defaultDevnetOptions.seed),
      fallback(defaultDevnetOptions.seed),
    )
    .option(
      '--history-days <n>',
      shown('days of history before today', 35),
      integer('--history-days', 0, 3650),
      fallback(35),
    )
    .option('--genesis <iso>', 'genesis instant (default: UTC midnight --history-days days ago)', instant)
    .option(
      '--block-time-ms <n>',
      shown('milliseconds per block', 12_000),
      integer('--block-time-ms', 10, 600_000),
      fallback(12_000),
    )
    .option(
      '--current-runtime-block <n>',
      'first block run by spec 425, the runtime of mid-2026 (default: placed by --runtimes)',
      integer('--current-runtime-block', 3),
    )
    .option(
      '--latest-runtime-block <n>',
      'first block run by spec 473, mainnet since October 2026; needs spec 425 before it (default: placed by --runtimes)',
      integer('--latest-runtime-block', 4),
    )
    .option(
      '--runtimes <history>',
      'mainnet (each block runs what mainnet ran on its UTC date, spec 233 on), today (by date when the ' +
        'history holds 24 March to 7 October 2026, else 343 → 393 → 425 → 473 placed in the history) or ' +
        'legacy (343 → 393), where the blocks above are not given (default: the sandbox default, docs/sandbox.md)',
      runtimeHistory,
    )
    .option(
      '--upgrade-block <n>',
      'first block run by spec 393 (default: noon of the middle day of the history)',
      integer('--upgrade-block', 2),
    )
    .option(
      '--world <name>',
      shown(
        "the world's magnitudes: mainnet (Bittensor's) or adversarial (amounts beyond 2^53 RAO, as the tests use)",
        'mainnet',
      ),
      worldName,
      fallback('mainnet'),
    )
    .option(
      '--events-per-block <n>',
      "mainnet's traffic: filler extrinsics until a block holds about n events, burns in batches and proxies " +
        '(0: none; default: 75 in the mainnet world, none in the adversarial one)',
      integer('--events-per-block', 0, 5_000),
    )
    .option(
      '--untold-lease-dividend',
      'a world placed by date only: the demo coldkey also receives a lease dividend as runtimes before 361 paid it, TAO credited with no event naming it (20 October 2025)',
    );
}

function runtimeHistory(value: string): RuntimeHistory {
  if (value !== 'today' && value !== 'legacy' && value !== 'mainnet') {
    throw new InvalidArgumentError('must be mainnet, today or legacy');
  }
  return value;
}

function worldName(value: string): WorldMagnitudes {
  if (value !== 'mainnet' && value !== 'adversarial')
    throw new InvalidArgumentError('must be mainnet or adversarial');
  return value;
}

function worldFlags(own: Partial<WorldFlags>, parent: Partial<WorldFlags>): WorldFlags {
  const merged: Record<string, unknown> = { ...parent };
  for (const [key, value] of Object.entries(own)) if (value !== undefined) merged[key] = value;
  return merged as unknown as WorldFlags;
}

/**
 * `sbm devnet`: runs the sandbox chain until SIGINT/SIGTERM; `sbm devnet truth` prints the world's
 * ground truth as JSON. The configuration is unused: the sandbox is what the configuration points at.
 */
export function devnetCommand(
  config: PipelineConfig,
  output: (text: string) => void = (t) => process.stdout.write(t),
): Command {
  void config;
  const command = withWorldOptions(new Command('devnet'), true)
    .description('run the sandbox chain: a local subtensor node serving the real runtime metadata')
    .option(
      '--finality-lag <n>',
      'blocks the finalized head trails the best head',
      integer('--finality-lag', 0, 1000),
      2,
    )
    .option('--host <host>', 'interface to listen on', defaultDevnetOptions.host)
    .option('--port <n>', 'JSON-RPC WebSocket port (0: any free port)', integer('--port', 0, 65535), 9944)
    .option('--price-port <n>', 'price API port (default: --port + 1)', integer('--price-port', 0, 65535))
    .option(
      '--no-big-coldkeys',
      "leave out the coldkeys like mainnet's biggest (a validator, a subnet owner, a miner, a staker in over 100 subnets)",
    )
    .option('--latency-ms <n>', 'delay added to every answer', integer('--latency-ms', 0, 60_000), 0)
    .option('--fail-rate <x>', 'fraction of data requests answered with an error', fraction, 0)
    .option(
      '--drop-every <n>',
      'close a connection after this many requests (0: never)',
      integer('--drop-every', 0),
      0,
    )
    .action(async (flags: WorldFlags & Omit<DevnetOptions, keyof WorldFlags>) => {
      const { currentRuntimeBlock, latestRuntimeBlock, ...options } = flags;
      const running = await startDevnet({
        ...defaultDevnetOptions,
        ...options,
        ...runtimeBlockOptions({ currentRuntimeBlock, latestRuntimeBlock }),
        magnitudes: flags.world,
        ...trafficOption(flags),
      });
      output(`${running.url}\n`);
      output(`prices: ${running.priceUrl}\n`);
      // The coldkey that holds the demo's stake now: after the demo's coldkey swap, its successor.
      output(`coldkey: ${running.holderColdkey}\n`);
      // The big coldkeys beside it (world/big-coldkeys.ts), each with the positions it holds at genesis.
      for (const big of running.world.stakers.big?.coldkeys ?? []) {
        output(`${big.role}: ${big.staker.coldkey.address} (${big.staker.positions.length} positions)\n`);
      }
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await running.stop();
    });
  command.addCommand(
    withWorldOptions(new Command('truth'), false)
      .description('print the ground truth of the sandbox world as JSON')
      .requiredOption('--from <date>', 'first UTC day (YYYY-MM-DD)', date)
      .requiredOption('--to <date>', 'last UTC day (YYYY-MM-DD)', date)
      .action((flags: Partial<WorldFlags> & { from: string; to: string }) => {
        const { currentRuntimeBlock, latestRuntimeBlock, ...world } = worldFlags(
          flags,
          command.opts<Partial<WorldFlags>>(),
        );
        const options = {
          ...defaultDevnetOptions,
          ...world,
          ...runtimeBlockOptions({ currentRuntimeBlock, latestRuntimeBlock }),
          magnitudes: world.world,
          ...trafficOption(world),
        };
        output(`${JSON.stringify(buildTruth(options, flags.from, flags.to))}\n`);
      }),
  );
  return command;
}
