import { Command } from 'commander';
import { progressFor } from '../collect/progress.js';
import { rpcUrlOption } from '../command-line.js';
import type { PipelineConfig } from '../config.js';
import { openObjectStore } from '../store/index.js';
import { describeDay } from '../yields/describe.js';
import { writeDailyMetricsFile } from './daily-metrics.js';
import { DailyFailedError, type DailySummary, runDaily } from './run-daily.js';

/** `sbm daily`: collect → share pools → fiat prices → publish. Meant for cron; see the README for a crontab line. */
export function dailyCommand(config: PipelineConfig): Command {
  return new Command('daily')
    .description(
      "collect through the finalized head, read the days' share pools, fetch fiat prices, and publish the snapshots",
    )
    .option('--chain-url <url>', 'subtensor node WebSocket URL (SBM_CHAIN_URL)', config.chainUrl)
    .option(
      '--rpc <url>',
      'a node of the chain, instead of --chain-url; give it once per node to share the collection among several ' +
        '(the share pools and the tax calendar read the first)',
      rpcUrlOption,
      [],
    )
    .option('--price-url <url>', 'CoinGecko-compatible API base (SBM_PRICE_URL)', config.priceUrl)
    .option('--warehouse <path>', 'DuckDB warehouse file (SBM_WAREHOUSE)', config.warehousePath)
    .option('--store <url>', 'object store URL (SBM_STORE_URL)', config.storeUrl)
    .option(
      '--concurrency <n>',
      'requests in flight against the node (SBM_CONCURRENCY)',
      String(config.concurrency),
    )
    .option('--json', 'print a summary object at the end')
    .option(
      '--metrics-file <path>',
      "after the run, write its figures for node_exporter's textfile collector (a .prom file)",
    )
    .action(
      async (options: {
        chainUrl: string;
        rpc: string[];
        priceUrl: string;
        warehouse: string;
        store: string;
        concurrency: string;
        json?: boolean;
        metricsFile?: string;
      }) => {
        const concurrency = Number(options.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1)
          throw new Error('--concurrency must be an integer >= 1');
        const started = performance.now();
        const figures = (summary: DailySummary | null, success: boolean) => ({
          finishedAt: new Date(),
          durationSeconds: (performance.now() - started) / 1000,
          success,
          blocksBehindHead: summary?.collected.blocksBehindHead ?? null,
          daysPublished: summary?.published.tax.calendar_days ?? null,
        });
        let ran: Awaited<ReturnType<typeof runDaily>>;
        try {
          ran = await runDaily({
            chainUrl: options.rpc[0] ?? options.chainUrl,
            chainUrls: options.rpc,
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
        } catch (error) {
          if (options.metricsFile) await writeDailyMetricsFile(options.metricsFile, figures(null, false));
          throw error;
        }
        const { summary, warnings } = ran;
        // A run with warnings (a price feed down) published and counts as a success for the alerts.
        if (options.metricsFile) await writeDailyMetricsFile(options.metricsFile, figures(summary, true));
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
