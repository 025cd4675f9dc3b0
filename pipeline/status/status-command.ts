/** `sbm status`: is the pipeline healthy? For a person, or (`--json`) for cron and monitoring. */
import { Command, InvalidArgumentError } from 'commander';
import { CommandExit } from '../command-line.js';
import type { PipelineConfig } from '../config.js';
import { openObjectStore } from '../store/index.js';
import { formatStatus } from './format-status.js';
import { readStatus } from './read-status.js';

/** The exit code when something needs attention (1 stays "the command itself failed"). */
export const ATTENTION_EXIT_CODE = 2;

interface StatusFlags {
  json?: boolean;
  warehouse: string;
  store: string;
  runs: number;
}

export function statusCommand(config: PipelineConfig): Command {
  return new Command('status')
    .description(
      `collected range and gaps, the last runs, the published run and its freshness; exits ${ATTENTION_EXIT_CODE} when something needs attention`,
    )
    .option('--json', 'print one JSON object')
    .option('--warehouse <path>', 'DuckDB warehouse file (SBM_WAREHOUSE)', config.warehousePath)
    .option('--store <url>', 'object store URL (SBM_STORE_URL)', config.storeUrl)
    .option('--runs <n>', 'how many of the latest collection runs to list', runCount, 5)
    .action(async (flags: StatusFlags) => {
      const report = await readStatus({
        warehousePath: flags.warehouse,
        store: openObjectStore(flags.store, config.s3),
        now: new Date(),
        runs: flags.runs,
      });
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
      if (!report.ok) throw new CommandExit(ATTENTION_EXIT_CODE);
    });
}

function runCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100) {
    throw new InvalidArgumentError('expected an integer from 1 to 100');
  }
  return Number(value);
}
