/** `sbm status` for a person: a short block, the things needing attention last. */
import { describeSpans } from '../prices/missing-rates.js';
import type { RunEntry, StatusReport } from './status-report.js';

export function formatStatus(report: StatusReport): string {
  const { warehouse, published, emissions } = report;
  const lines: string[] = [];
  lines.push(`warehouse  ${warehouse.path}${warehouse.state === 'ok' ? '' : ` (${warehouse.state})`}`);
  if (warehouse.state !== 'ok') lines.push(`  ${warehouse.message}`);
  const collected = warehouse.collected;
  if (collected !== null) {
    const partial = collected.partial_day === null ? '' : `, ${collected.partial_day} partial`;
    lines.push(
      `  collected  ${collected.first_day} → ${collected.last_day} (${collected.days} days${partial})`,
    );
    const gaps = collected.gaps.map((gap) => (gap.from === gap.to ? gap.from : `${gap.from}..${gap.to}`));
    lines.push(`  gaps       ${gaps.length === 0 ? 'none' : gaps.join(', ')}`);
    const unpriced = warehouse.days_without_rate;
    if (unpriced) {
      const say = (spans: typeof unpriced.gbp) =>
        spans.length === 0 ? 'every day' : `missing ${describeSpans(spans)}`;
      lines.push(`  rates      TAO/GBP ${say(unpriced.gbp)}; TAO/USD ${say(unpriced.usd)}`);
    }
  } else if (warehouse.state === 'ok') lines.push('  collected  nothing yet');
  if (warehouse.runs.length > 0) lines.push('  runs');
  for (const run of warehouse.runs) lines.push(`    ${runLine(run, report.checked_at)}`);
  lines.push(`published  ${published.store}`);
  if (published.state === 'ok') {
    lines.push(`  run        ${published.version} (${age(published.age_seconds)} old)`);
    lines.push(
      `  freshness  ${published.freshness} (burns_checked_at ${published.burns_checked_at ?? 'none'})`,
    );
  } else lines.push(`  ${published.message}`);
  if (emissions.state === 'ok') {
    lines.push(
      `emissions  last sample ${emissions.checked_at ?? 'unknown'} (${age(emissions.age_seconds)} old), ${emissions.freshness}`,
    );
  } else lines.push(`emissions  ${emissions.message}`);
  if (report.ok) lines.push('ok');
  else {
    lines.push('needs attention');
    for (const item of report.attention) lines.push(`  - ${item}`);
  }
  return `${lines.join('\n')}\n`;
}

function runLine(run: RunEntry, nowIso: string): string {
  const seconds = Math.floor((Date.parse(nowIso) - Date.parse(run.started_at)) / 1000);
  const who = run.pid === null ? '' : ` pid ${run.pid}`;
  const outcome = run.outcome === run.status ? run.outcome : `${run.outcome} (recorded ${run.status})`;
  const error = run.error === null ? '' : `: ${run.error}`;
  return `${run.run_id}  ${run.kind ?? 'collect'}${who}  started ${age(seconds)} ago  ${outcome}${error}`;
}

/** 59 s, 12 min, 5 h 3 min, 2 d 4 h. */
export function age(seconds: number | null): string {
  if (seconds === null) return 'unknown';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
