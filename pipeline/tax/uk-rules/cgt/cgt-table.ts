/**
 * `sbm tax cgt` without `--json`: a plain-text report to read, per tax year: each disposal with the parts
 * matched under each rule, the SA108 figures, the section 104 pools at the year's end and the acquisitions after
 * it that the year's disposals took under the 30-day rule (a pack's pools.csv rows); a year without disposals
 * shows its pools only; then the pools after the last transaction. Sterling is rounded to pence here, and only here; quantities are shown in full.
 */
import { plainDecimal, pounds } from './cgt-decimal.js';
import type { CgtMatch, CgtPool, CgtReport, CgtYearEnd } from './cgt-types.js';

const RULE_NAMES: Record<CgtMatch['rule'], string> = {
  'same-day': 'same day',
  '30-day': '30 days',
  s104: 'section 104 pool',
};

export function cgtTable(report: CgtReport): string {
  const out: string[] = [];
  if (report.taxYears.length === 0) out.push('No disposals.', '');
  for (const end of report.yearEnds) {
    const year = report.taxYears.find((y) => y.taxYear === end.taxYear);
    if (!year) {
      out.push(`Tax year ${end.taxYear}: no disposals`, '');
      out.push(...yearEndLines(end), '');
      continue;
    }
    out.push(`Tax year ${year.taxYear}`, '');
    const rows: string[][] = [['Date', 'Asset', 'Quantity', 'Proceeds £', 'Cost £', 'Gain £']];
    for (const d of report.disposals.filter((disposal) => disposal.taxYear === year.taxYear)) {
      rows.push([
        d.date,
        d.asset,
        plainDecimal(d.quantity),
        pounds(d.proceeds),
        pounds(d.cost),
        pounds(d.gain),
      ]);
      for (const m of d.matched) {
        const when = m.rule === '30-day' && m.date ? ` (acquired ${m.date})` : '';
        rows.push(['', `  ${RULE_NAMES[m.rule]}${when}`, plainDecimal(m.quantity), '', pounds(m.cost), '']);
      }
      if (d.fees.gt(0)) rows.push(['', '  fees', '', '', pounds(d.fees), '']);
    }
    out.push(...indent(columns(rows, ['left', 'left', 'right', 'right', 'right', 'right'])), '');
    out.push('  SA108 figures');
    out.push(
      ...indent(
        columns(
          [
            ['Number of disposals', String(year.disposals)],
            ['Disposal proceeds', `£${pounds(year.proceeds)}`],
            ['Allowable costs', `£${pounds(year.costs)}`],
            ['Gains in the year, before losses', `£${pounds(year.gains)}`],
            ['Losses in the year', `£${pounds(year.losses)}`],
          ],
          ['left', 'right'],
        ),
        4,
      ),
      '',
    );
    out.push(...yearEndLines(end), '');
  }
  out.push('Section 104 pools after the last transaction');
  out.push(...indent(poolRows(report.pools)), '');
  out.push('Sterling rounded to pence for display; --json gives every figure unrounded.');
  return `${out.join('\n')}\n`;
}

/** The year's closing pools, and the later acquisitions its disposals took under the 30-day rule. */
function yearEndLines(end: CgtYearEnd): string[] {
  const out = [`  Section 104 pools at 5 April ${Number(end.taxYear.slice(0, 4)) + 1}`];
  out.push(...indent(poolRows(end.pools), 4));
  if (end.matchedAhead.length > 0) {
    out.push('', `  Acquisitions after ${end.asAt} matched with this year's disposals (30 days)`);
    out.push(
      ...indent(
        columns(
          [
            ['Date', 'Asset', 'Quantity', 'Cost £'],
            ...end.matchedAhead.map((m) => [m.day, m.asset, plainDecimal(m.quantity), pounds(m.cost)]),
          ],
          ['left', 'left', 'right', 'right'],
        ),
        4,
      ),
    );
  }
  return out;
}

function poolRows(pools: readonly CgtPool[]): string[] {
  if (pools.length === 0) return ['(none)'];
  return columns(
    [
      ['Asset', 'Quantity', 'Pooled cost £'],
      ...pools.map((p) => [p.asset, plainDecimal(p.quantity), pounds(p.cost)]),
    ],
    ['left', 'right', 'right'],
  );
}

function columns(rows: readonly string[][], align: readonly ('left' | 'right')[]): string[] {
  const widths = align.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) =>
    align
      .map((side, i) => {
        const cell = row[i] ?? '';
        const width = widths[i] ?? 0;
        return side === 'left' ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd(),
  );
}

function indent(lines: readonly string[], spaces = 2): string[] {
  return lines.map((line) => (line === '' ? line : `${' '.repeat(spaces)}${line}`));
}
