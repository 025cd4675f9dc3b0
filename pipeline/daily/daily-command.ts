import { Command } from 'commander';
import { progressFor } from '../collect/progress.js';
import type { PipelineConfig } from '../config.js';
import { openObjectStore } from '../store/index.js';
import { describeDay } from '../yields/describe.js';
import { DailyFailedError, runDaily } from './run-daily.js';

/** `sbm daily`: collect → share pools → fiat prices → publish. Meant for cron; see the README for a crontab line. */
export function dailyCommand(config: PipelineConfig): Command {
  return new Command('daily')
    .description(
      "collect through the finalized head, read the days' share pools, fetch fiat prices, and publish the snapshots",
    )
    .option('--chain-url <url>', 'subtensor node WebSocket URL (SBM_CHAIN_URL)', config.chainUrl)
    .option('--price-url <url>', 'CoinGecko-compatible API base (SBM_PRICE_URL)', config.priceUrl)
    .option('--warehouse <path>', 'DuckDB warehouse file (SBM_WAREHOUSE)', config.warehousePath)
    .option('--store <url>', 'object store URL (SBM_STORE_URL)', config.storeUrl)
    .option(
      '--concurrency <n>',
      'requests in flight against the node (SBM_CONCURRENCY)',
      String(config.concurrency),
    )
    .option('--json', 'print a summary object at the end')
    .action(
      async (options: {
        chainUrl: string;
        priceUrl: string;
        warehouse: string;
        store: string;
        concurrency: string;
        json?: boolean;
      }) => {
        const concurrency = Number(options.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1)
          throw new Error('--concurrency must be an integer >= 1');
        const { summary, warnings } = await runDaily({
          chainUrl: options.chainUrl,
          priceUrl: options.priceUrl,
          warehousePath: options.warehouse,
          store: openObjectStore(options.store, config.s3),
          baseUrl: config.baseUrl,
          keepRuns: config.keepRuns,
          concurrency,
          progress: progressFor(process.stderr),
          notice: (line) => process.stderr.write(`${line}\n`),
          onPoolDay: (report) => process.stderr.write(`${describeDay(report)}\n`),
          warn: (message) => process.stderr.write(`warning: ${message}\n`),
        });
        if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else
          process.stdout.write(
            `daily: collected ${summary.collected.from} → ${summary.collected.to} (${summary.collected.blocks} blocks, ` +
              `${summary.collected.burns} burns); read the share pools of ${summary.sharePools.days} day(s); ` +
              `published ${summary.published.version} ` +
              `(${summary.published.objects} objects)\n`,
          );
        if (warnings.length > 0) throw new DailyFailedError(`finished with ${warnings.length} warning(s)`);
      },
    );
}
