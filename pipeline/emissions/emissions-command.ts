/** `sbm emissions sample|watch|restore`: the emissions watch's command line. */
import { Command } from 'commander';
import { positiveIntOption } from '../command-line.js';
import type { PipelineConfig } from '../config.js';
import { openObjectStore } from '../store/index.js';
import { type RestoreResult, restoreSamples } from './restore-samples.js';
import { SAMPLE_COPIES_PREFIX } from './sample-copies.js';
import { DEFAULT_INTERVAL_MS, type SampleOptions, type SampleResult, sampleOnce } from './sample-once.js';
import { watch } from './watch.js';

interface EmissionsFlags {
  chainUrl: string;
  db: string;
  store: string;
  intervalS: number;
  keepRuns: number;
  concurrency: number;
  json?: boolean;
}

function withCommonOptions(command: Command, config: PipelineConfig): Command {
  return command
    .option('--chain-url <url>', 'subtensor node WebSocket URL (SBM_CHAIN_URL)', config.chainUrl)
    .option('--db <path>', 'the emissions DuckDB file (SBM_EMISSIONS_DB)', config.emissionsPath)
    .option('--store <url>', 'object store: file:DIR or s3://bucket/prefix (SBM_STORE_URL)', config.storeUrl)
    .option(
      '--interval-s <seconds>',
      'sampling interval; samples further apart than 1.5 × this are a gap',
      positiveIntOption,
      DEFAULT_INTERVAL_MS / 1000,
    )
    .option(
      '--keep-runs <n>',
      'published emissions runs kept (SBM_KEEP_RUNS)',
      positiveIntOption,
      config.keepRuns,
    )
    .option(
      '--concurrency <n>',
      'requests in flight against the node',
      positiveIntOption,
      config.concurrency,
    );
}

function sampleOptions(flags: EmissionsFlags, config: PipelineConfig): SampleOptions & { chainUrl: string } {
  return {
    chainUrl: flags.chainUrl,
    dbPath: flags.db,
    store: openObjectStore(flags.store, config.s3),
    baseUrl: config.baseUrl,
    keepRuns: flags.keepRuns,
    intervalMs: flags.intervalS * 1000,
    concurrency: flags.concurrency,
  };
}

function describe(result: SampleResult): string {
  if (result.status === 'unchanged') {
    const copied = result.copied > 0 ? `; ${result.copied} earlier sample(s) copied to the store` : '';
    return `block ${result.block} already sampled; nothing published${copied}\n`;
  }
  return (
    `sampled block ${result.block} (${result.block_time}): ${result.subnets} subnets, ` +
    `${result.suspended} suspended, ${result.verified_events} event(s) verified; ` +
    `${result.copied} copied to the store; published ${result.version} (${result.objects} objects, ${result.duration_ms} ms)\n`
  );
}

export function emissionsCommand(config: PipelineConfig): Command {
  const emissions = new Command('emissions').description(
    'the emissions watch: finalized subnet emission status, verified suspensions and restorations',
  );
  withCommonOptions(
    emissions.command('sample').description('take one sample at the finalized head and publish'),
    config,
  )
    .option('--json', 'print the sample summary as JSON')
    .action(async (flags: EmissionsFlags) => {
      const result = await sampleOnce(sampleOptions(flags, config));
      process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : describe(result));
    });
  withCommonOptions(
    emissions
      .command('watch')
      .description('sample every interval until SIGINT/SIGTERM; failures become gaps'),
    config,
  )
    .option('--json', 'log one JSON line per sample')
    .action(async (flags: EmissionsFlags) => {
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        const summary = await watch({
          ...sampleOptions(flags, config),
          signal: stop.signal,
          onSample: (result) =>
            process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : describe(result)),
          onError: (error) =>
            process.stderr.write(
              `${JSON.stringify({
                level: 'error',
                at: new Date().toISOString(),
                message: error instanceof Error ? error.message : String(error),
                note: 'sample skipped: it will show as a gap',
              })}\n`,
            ),
        });
        process.stderr.write(
          `watch stopped: ${summary.sampled} sampled, ${summary.unchanged} unchanged, ${summary.failed} failed\n`,
        );
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
  emissions
    .command('restore')
    .description(
      `rebuild the samples database from the samples' copies in the object store (${SAMPLE_COPIES_PREFIX}); stop the watch first`,
    )
    .option(
      '--db <path>',
      'the emissions DuckDB file to restore into (SBM_EMISSIONS_DB)',
      config.emissionsPath,
    )
    .option('--store <url>', 'object store: file:DIR or s3://bucket/prefix (SBM_STORE_URL)', config.storeUrl)
    .option('--concurrency <n>', 'copies fetched in parallel', positiveIntOption, config.concurrency)
    .option('--json', 'print the summary as JSON')
    .action(async (flags: { db: string; store: string; concurrency: number; json?: boolean }) => {
      const store = openObjectStore(flags.store, config.s3);
      try {
        const result = await restoreSamples({ dbPath: flags.db, store, concurrency: flags.concurrency });
        process.stdout.write(
          flags.json ? `${JSON.stringify(result)}\n` : describeRestore(result, flags.db, store.description),
        );
      } finally {
        await store.close();
      }
    });
  return emissions;
}

function describeRestore(result: RestoreResult, db: string, store: string): string {
  const held =
    result.newest_before === null
      ? 'it held no samples'
      : `it held samples up to block ${result.newest_before}; ${result.already_held} copies at or before it left alone`;
  const restored =
    result.restored === 0
      ? 'restored no samples'
      : `restored ${result.restored} samples (blocks ${result.first_block} to ${result.last_block})`;
  return `${restored} into ${db} from ${result.copies} copies in ${store} (${held}; ${result.duration_ms} ms)\n`;
}
