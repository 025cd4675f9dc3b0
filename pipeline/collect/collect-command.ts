/** `sbm collect`: burns, staking events, daily panel prices and subnets from the chain into the warehouse. */
import { Command, InvalidArgumentError } from 'commander';
import { positiveIntOption, rpcUrlOption } from '../command-line.js';
import type { PipelineConfig } from '../config.js';
import { utcDayOption } from '../time/utc-day-option.js';
import { CollectError, collect } from './collect.js';
import { progressFor, silentProgress } from './progress.js';

interface CollectFlags {
  from?: string;
  to?: string;
  concurrency: number;
  chainUrl: string;
  rpc: string[];
  warehouse: string;
  json?: boolean;
}

export function collectCommand(config: PipelineConfig): Command {
  return new Command('collect')
    .description('read burns, staking events, panel prices and subnets of each UTC day into the warehouse')
    .option('--from <date>', 'first UTC day (default: the day after the last complete one)', utcDayOption)
    .option('--to <date>', 'last UTC day (default: today, collected up to the finalized head)', utcDayOption)
    .option('--concurrency <n>', 'requests in flight against the node', positiveIntOption, config.concurrency)
    .option('--chain-url <url>', 'subtensor node WebSocket URL', config.chainUrl)
    .option(
      '--rpc <url>',
      'a node of the chain, instead of --chain-url; give it once per node to share the reading among several ' +
        '(--concurrency requests in flight on each)',
      rpcUrlOption,
      [],
    )
    .option('--warehouse <path>', 'DuckDB warehouse file', config.warehousePath)
    .option('--json', 'print a JSON summary at the end')
    .action(async (flags: CollectFlags) => {
      if (flags.from && flags.to && flags.from > flags.to) {
        throw new InvalidArgumentError(`--from ${flags.from} is after --to ${flags.to}`);
      }
      const progress = flags.json && !process.stderr.isTTY ? silentProgress : progressFor(process.stderr);
      try {
        const summary = await collect({
          chainUrl: flags.rpc[0] ?? flags.chainUrl,
          chainUrls: flags.rpc,
          warehousePath: flags.warehouse,
          concurrency: flags.concurrency,
          progress,
          notice: (line) => process.stderr.write(`${line}\n`),
          ...(flags.from ? { from: flags.from } : {}),
          ...(flags.to ? { to: flags.to } : {}),
        });
        if (flags.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        else {
          process.stdout.write(
            `collected ${summary.days.length} day(s), ${summary.blocks} blocks, ${summary.burns} burns ` +
              `in ${summary.seconds.toFixed(1)} s (${summary.blocksPerSecond} blocks/s)\n`,
          );
        }
      } catch (error) {
        if (error instanceof CollectError && flags.json) {
          process.stdout.write(`${JSON.stringify(error.summary, null, 2)}\n`);
        }
        throw error;
      }
    });
}
