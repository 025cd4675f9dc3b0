/** `sbm yields`: every collected day's hotkey share pools into the warehouse, and the yields they give. */
import { Command } from 'commander';
import { positiveIntOption } from '../command-line.js';
import type { PipelineConfig } from '../config.js';
import { utcDayOption } from '../time/utc-day-option.js';
import { describeDay, describeYields } from './describe.js';
import { readDailySharePools } from './read-share-pools.js';

interface YieldsFlags {
  from?: string;
  to?: string;
  refresh?: boolean;
  concurrency: number;
  chainUrl: string;
  warehouse: string;
  json?: boolean;
}

export function yieldsCommand(config: PipelineConfig): Command {
  return new Command('yields')
    .description(
      "read every collected day's hotkey share pools (at the day's last block) into the warehouse and print the network's staking yields",
    )
    .option(
      '--from <date>',
      'first collected UTC day to read (default: every day not read yet)',
      utcDayOption,
    )
    .option('--to <date>', 'last collected UTC day to read', utcDayOption)
    .option('--refresh', 'read the days again even when their pools are there')
    .option('--concurrency <n>', 'requests in flight against the node', positiveIntOption, config.concurrency)
    .option('--chain-url <url>', 'subtensor node WebSocket URL', config.chainUrl)
    .option('--warehouse <path>', 'DuckDB warehouse file', config.warehousePath)
    .option('--json', 'print a JSON summary at the end')
    .action(async (flags: YieldsFlags) => {
      if (flags.from && flags.to && flags.from > flags.to) {
        // A plain error: commander's own error types thrown from an action exit 1 without a message.
        throw new Error(`--from ${flags.from} is after --to ${flags.to}`);
      }
      const summary = await readDailySharePools({
        chainUrl: flags.chainUrl,
        warehousePath: flags.warehouse,
        concurrency: flags.concurrency,
        ...(flags.from ? { from: flags.from } : {}),
        ...(flags.to ? { to: flags.to } : {}),
        ...(flags.refresh ? { refresh: true } : {}),
        onDay: (report) => process.stderr.write(`${describeDay(report)}\n`),
      });
      if (flags.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      else {
        process.stdout.write(
          `read the share pools of ${summary.days.length} day(s), ${summary.pools} pools, in ${summary.seconds.toFixed(1)} s\n` +
            `${describeYields(summary.yields)}\n`,
        );
      }
    });
}
