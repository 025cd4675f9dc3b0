/**
 * deploy/prometheus/alerts.yml and the Grafana dashboard against what the service exports: Prometheus's
 * own `promtool check rules` loads the rules (Debian's `prometheus` package, installed when possible,
 * skipped elsewhere), and every `sbm_*` metric and label the rules and panels name exists on the
 * gateway's /metrics or in the file `sbm daily --metrics-file` writes. The daily file comes from the
 * real command: a run that fails (no node) keeps the last success of the file it replaces.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../gateway/config.js';
import { type RunningGateway, startGateway } from '../../gateway/node.js';
import { DAILY_METRICS, writeDailyMetricsFile } from '../../pipeline/daily/daily-metrics.js';
import { debianTool } from './debian-tool.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULES = join(ROOT, 'deploy/prometheus/alerts.yml');
const DASHBOARD = join(ROOT, 'deploy/grafana/sbm-dashboard.json');
const promtool = debianTool('promtool', 'prometheus');

let dir: string;
let gw: RunningGateway;
let gatewayText: string;
let dailyText: string;

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
  // What node_exporter's textfile collector accepts: promtool's own parser, when it is here.
  if ('path' in promtool) {
    const checked = await run('sh', ['-c', `"${promtool.path}" check metrics < "${file}"`]).then(
      () => 0,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(checked).toBe(0);
  }
}, 120_000);

it.skipIf('skip' in promtool)(
  `promtool check rules loads alerts.yml${'skip' in promtool ? ` (skipped: ${promtool.skip})` : ''}`,
  async () => {
    const path = (promtool as { path: string }).path;
    const { stdout } = await run(path, ['check', 'rules', RULES]);
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  },
);

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
