/**
 * `sbm daily --metrics-file PATH`: the run's figures in Prometheus's text format, for node_exporter's
 * textfile collector (`--collector.textfile.directory`; the file name must end in `.prom`). Written
 * after every run, failed or not, to a temporary name and renamed, so the collector never reads half a
 * file. A failed run keeps the last success's time from the file it replaces, so "no success for 26 h"
 * stays true across failures.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';

export interface DailyRunFigures {
  /** When the run ended. */
  finishedAt: Date;
  durationSeconds: number;
  success: boolean;
  /** Finalized head minus the last collected block, at collection time (null: not collected). */
  blocksBehindHead: number | null;
  /** UK days in the published run's calendar (null: nothing published). */
  daysPublished: number | null;
}

/** Names the alert rules (deploy/prometheus/alerts.yml) use; a test keeps the two in step. */
export const DAILY_METRICS = {
  lastRun: 'sbm_daily_last_run_timestamp_seconds',
  lastSuccess: 'sbm_daily_last_success_timestamp_seconds',
  success: 'sbm_daily_last_run_success',
  duration: 'sbm_daily_run_duration_seconds',
  blocksBehind: 'sbm_daily_blocks_behind_head',
  daysPublished: 'sbm_daily_days_published',
} as const;

export function dailyMetricsText(run: DailyRunFigures, previousSuccessSeconds: number | null): string {
  const seconds = Math.floor(run.finishedAt.getTime() / 1000);
  const lastSuccess = run.success ? seconds : previousSuccessSeconds;
  const lines: string[] = [];
  const gauge = (name: string, help: string, value: number | null) => {
    if (value === null) return;
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
  };
  gauge(DAILY_METRICS.lastRun, 'When the last sbm daily run ended (Unix seconds).', seconds);
  gauge(
    DAILY_METRICS.lastSuccess,
    'When the last successful sbm daily run ended (Unix seconds).',
    lastSuccess,
  );
  gauge(
    DAILY_METRICS.success,
    '1 if the last sbm daily run collected and published, 0 if it failed.',
    run.success ? 1 : 0,
  );
  gauge(
    DAILY_METRICS.duration,
    'How long the last sbm daily run took, in seconds.',
    round3(run.durationSeconds),
  );
  gauge(
    DAILY_METRICS.blocksBehind,
    'Finalized chain head minus the last block the last run collected.',
    run.blocksBehindHead,
  );
  gauge(
    DAILY_METRICS.daysPublished,
    'UK days in the published run of the last successful sbm daily.',
    run.daysPublished,
  );
  return `${lines.join('\n')}\n`;
}

/** The last success recorded in an earlier metrics file, or null. */
export function lastSuccessIn(text: string): number | null {
  const match = new RegExp(`^${DAILY_METRICS.lastSuccess} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : null;
}

export async function writeDailyMetricsFile(path: string, run: DailyRunFigures): Promise<void> {
  const previous = await readFile(path, 'utf8').catch(() => '');
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, dailyMetricsText(run, lastSuccessIn(previous)));
  await rename(temporary, path);
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
