/**
 * deploy/prometheus/alerts.yml and the Grafana dashboard against what the service exports: Prometheus's
 * own `promtool check rules` loads the rules and `promtool check metrics` the daily file (Debian's
 * `prometheus` package, installed when possible, skipped elsewhere with the reason in the test's title), and every `sbm_*` metric and label the rules and panels name exists on the
 * gateway's /metrics or in the file `sbm daily --metrics-file` writes. The daily file comes from the
 * real command: a run that fails (no node) keeps the last success of the file it replaces.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../gateway/config.js';
import { type RunningGateway, startGateway } from '../../gateway/server.js';
import { DAILY_METRICS, writeDailyMetricsFile } from '../../pipeline/daily/daily-metrics.js';
import { debianTool } from './debian-tool.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULES = join(ROOT, 'deploy/prometheus/alerts.yml');
const DASHBOARD = join(ROOT, 'deploy/grafana/sbm-dashboard.json');
const promtool = debianTool('promtool', 'prometheus');
/** The reason the promtool tests are skipped here, in their titles (and `make test`'s summary). */
const NO_PROMTOOL = 'skip' in promtool ? ` (skipped: ${promtool.skip})` : '';

let dir: string;
let gw: RunningGateway;
let gatewayText: string;
let dailyText: string;
/** The daily file after the failed run. */
let failedText: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-alert-rules-'));
  const config = loadGatewayConfig({
    SBM_PORT: '0',
    SBM_METRICS_PORT: '0',
    SBM_STATE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
    SBM_STORE_URL: `file:${join(dir, 'empty-store')}`,
    SBM_PUBLIC_LIMIT_PER_MIN: '1',
  });
  gw = await startGateway(config, { log: () => {}, onError: () => {}, alert: () => {} });
  // Nothing is published: /api/v1 answers 503, then 429 past the limit of one a minute, which gives
  // the request and rejection series their labels.
  for (let i = 0; i < 2; i++) await (await fetch(`${gw.url}/api/v1/subnets`)).arrayBuffer();
  gatewayText = await (await fetch(gw.metricsUrl!)).text();
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await rm(dir, { recursive: true, force: true });
});

it('sbm daily --metrics-file writes the run figures, and a failed run keeps the last success', async () => {
  const file = join(dir, 'sbm-daily.prom');
  const success = new Date('2026-03-01T06:10:00Z');
  await writeDailyMetricsFile(file, {
    finishedAt: success,
    durationSeconds: 312.5,
    success: true,
    blocksBehindHead: 3,
    daysPublished: 120,
  });
  dailyText = await readFile(file, 'utf8');
  expect(dailyText).toContain(`${DAILY_METRICS.lastSuccess} ${success.getTime() / 1000}\n`);
  expect(dailyText).toContain(`${DAILY_METRICS.success} 1\n`);

  // The real command against a node that is not there: it fails, says so, and writes the file.
  const failed = await run(
    'npx',
    [
      'tsx',
      'pipeline/cli.ts',
      'daily',
      '--chain-url',
      'ws://127.0.0.1:9',
      '--warehouse',
      join(dir, 'burns.duckdb'),
      '--store',
      `file:${join(dir, 'store')}`,
      '--metrics-file',
      file,
    ],
    { cwd: ROOT, env: { ...process.env, SBM_PRICE_URL: 'http://127.0.0.1:9' } },
  ).then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  const after = await readFile(file, 'utf8');
  expect(after).toContain(`${DAILY_METRICS.success} 0\n`);
  expect(after).toContain(`${DAILY_METRICS.lastSuccess} ${success.getTime() / 1000}\n`);
  const lastRun = Number(new RegExp(`^${DAILY_METRICS.lastRun} (\\d+)$`, 'm').exec(after)?.[1]);
  expect(lastRun).toBeGreaterThan(success.getTime() / 1000);
  failedText = after;
}, 120_000);

it.skipIf('skip' in promtool)(
  `promtool check metrics accepts the daily file of a success and of a failed run${NO_PROMTOOL}`,
  async () => {
    // What node_exporter's textfile collector accepts: promtool's own parser (exit 1 and "error while
    // linting" when it cannot parse; exit 3 with one line per lint finding when it parses). The one
    // finding allowed is the base-unit lint on sbm_daily_days_published: a count of days, not a duration.
    const path = (promtool as { path: string }).path;
    expect([dailyText, failedText].map((text) => text.length > 0)).toEqual([true, true]);
    for (const [name, text] of [
      ['success', dailyText],
      ['failed', failedText],
    ] as const) {
      const file = join(dir, `check-${name}.prom`);
      await writeFile(file, text);
      const checked = await run('sh', ['-c', `"${path}" check metrics < "${file}"`]).then(
        ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
        (error: { code: number; stdout: string; stderr: string }) => ({
          code: error.code,
          output: `${error.stdout}${error.stderr}`,
        }),
      );
      const findings = checked.output.split('\n').filter((line) => line.trim() !== '');
      const known = `${DAILY_METRICS.daysPublished} use base unit "seconds" instead of "days"`;
      expect({ name, code: checked.code, others: findings.filter((line) => line !== known) }).toEqual({
        name,
        code: findings.length > 0 ? 3 : 0,
        others: [],
      });
    }
  },
);

it.skipIf('skip' in promtool)(`promtool check rules loads alerts.yml${NO_PROMTOOL}`, async () => {
  const path = (promtool as { path: string }).path;
  const { stdout } = await run(path, ['check', 'rules', RULES]);
  expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
});

it.skipIf('skip' in promtool)(
  `promtool test rules: each alert fires at its threshold and not before${NO_PROMTOOL}`,
  async () => {
    const path = (promtool as { path: string }).path;
    // The shipped rules without their annotations (promtool compares annotations verbatim); the
    // expressions, durations and labels are the file's own.
    await writeFile(join(dir, 'rules.yml'), withoutAnnotations(await readFile(RULES, 'utf8')));
    await writeFile(join(dir, 'rules.test.yml'), RULE_TESTS);
    const result = await run(path, ['test', 'rules', join(dir, 'rules.test.yml')]).then(
      ({ stdout }) => stdout,
      (error: { stdout: string; stderr: string }) => `${error.stdout}\n${error.stderr}`,
    );
    expect(result).toContain('SUCCESS');
  },
);

/** Each alert the issue asks for, just under and just over its threshold (one-minute samples). */
const RULE_TESTS = `rule_files: [rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: sbm_daily_last_success_timestamp_seconds
        values: 0x1700
      - series: sbm_daily_last_run_timestamp_seconds
        values: 0x1700
      - series: sbm_daily_last_run_success
        values: 1x60 0x60
    alert_rule_test:
      - { eval_time: 25h, alertname: SbmDailyRunOverdue, exp_alerts: [] }
      - eval_time: 27h
        alertname: SbmDailyRunOverdue
        exp_alerts: [{ exp_labels: { severity: page } }]
      - { eval_time: 30m, alertname: SbmPublishFailed, exp_alerts: [] }
      - eval_time: 90m
        alertname: SbmPublishFailed
        exp_alerts: [{ exp_labels: { severity: page } }]
  - interval: 1m
    input_series:
      - series: sbm_emissions_watch_last_sample_timestamp_seconds
        values: 0x30
      - series: sbm_orders_stuck
        values: 0x10 1x10
    alert_rule_test:
      - { eval_time: 14m, alertname: SbmEmissionsWatchSilent, exp_alerts: [] }
      - eval_time: 16m
        alertname: SbmEmissionsWatchSilent
        exp_alerts: [{ exp_labels: { severity: page } }]
      - { eval_time: 5m, alertname: SbmOrderStuck, exp_alerts: [] }
      - eval_time: 12m
        alertname: SbmOrderStuck
        exp_alerts: [{ exp_labels: { severity: page } }]
  - interval: 1m
    input_series:
      - series: 'sbm_http_requests_total{route="/api/v1/subnets",method="GET",status="200"}'
        values: 0+100x30
      - series: 'sbm_http_requests_total{route="/api/v1/subnets",method="GET",status="503"}'
        values: 0+0x10 0+2x20
    alert_rule_test:
      - { eval_time: 10m, alertname: SbmHigh5xxRate, exp_alerts: [] }
      # 2 in 102 (2%) from minute 11; the rate window fills, then 5 minutes of "for".
      - { eval_time: 14m, alertname: SbmHigh5xxRate, exp_alerts: [] }
      - eval_time: 25m
        alertname: SbmHigh5xxRate
        exp_alerts: [{ exp_labels: { severity: page } }]
  - interval: 1m
    input_series:
      - series: 'sbm_http_requests_total{route="/api/v1/subnets",method="GET",status="200"}'
        values: 0+1000x30
      - series: 'sbm_http_requests_total{route="/api/v1/subnets",method="GET",status="503"}'
        values: 0+5x30
    alert_rule_test:
      # 5 in 1,005 (0.5%): under the threshold.
      - { eval_time: 25m, alertname: SbmHigh5xxRate, exp_alerts: [] }
`;

function withoutAnnotations(yaml: string): string {
  const out: string[] = [];
  let skipDeeperThan: number | null = null;
  for (const line of yaml.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (skipDeeperThan !== null && (line.trim() === '' || indent > skipDeeperThan)) continue;
    skipDeeperThan = null;
    if (line.trim() === 'annotations:') {
      skipDeeperThan = indent;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

it('names only metrics and labels that the gateway or the daily file export', async () => {
  const rules = await readFile(RULES, 'utf8');
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const expressions = [
    ...ruleExpressions(rules),
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
  ];
  expect(expressions.length).toBeGreaterThan(20);
  const exported = exportedSeries(`${gatewayText}\n${dailyText}`);

  const missing: string[] = [];
  for (const expr of expressions) {
    const grouping = [...expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((m) =>
      m[1]!.split(',').map((l) => l.trim()),
    );
    for (const selector of expr.matchAll(/\b(sbm_[a-z0-9_]+)(\{([^}]*)\})?/g)) {
      const name = selector[1]!;
      const series = exported.get(name);
      if (!series) {
        missing.push(`${name} (in ${expr})`);
        continue;
      }
      const used = [...(selector[3] ?? '').matchAll(/([a-z_]+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!);
      for (const label of [...used, ...grouping]) {
        if (!series.has(label)) missing.push(`${name} has no label ${label} (in ${expr})`);
      }
    }
  }
  expect(missing).toEqual([]);
  // The alerts the issue asks for are there.
  for (const alert of [
    'SbmDailyRunOverdue',
    'SbmEmissionsWatchSilent',
    'SbmOrderStuck',
    'SbmHigh5xxRate',
    'SbmPublishFailed',
  ]) {
    expect(rules).toContain(`alert: ${alert}`);
  }
});

/** The `expr:` of every rule, folded blocks (`>-`) joined into one line. */
function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^(\s*)expr:\s*(.*)$/.exec(lines[i]!);
    if (!match) continue;
    if (match[2] !== '>-' && match[2] !== '|') {
      found.push(match[2]!);
      continue;
    }
    const body: string[] = [];
    while (i + 1 < lines.length && lines[i + 1]!.startsWith(`${match[1]}  `)) body.push(lines[++i]!.trim());
    found.push(body.join(' '));
  }
  return found;
}

/**
 * Metric name → the label names its series carry. Histograms count under their own name too (the
 * `_bucket` series carry `le`), and a metric with HELP/TYPE but no series yet is known without labels.
 */
function exportedSeries(text: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (name: string, labels: string[]) => {
    const set = found.get(name) ?? new Set<string>();
    for (const label of labels) set.add(label);
    found.set(name, set);
  };
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      add(type[1]!, []);
      if (type[2] === 'histogram')
        for (const suffix of ['_bucket', '_count', '_sum']) add(`${type[1]}${suffix}`, []);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (sample)
      add(
        sample[1]!,
        [...(sample[2] ?? '').matchAll(/([a-zA-Z_]+)="/g)].map((m) => m[1]!),
      );
  }
  return found;
}
