/**
 * `make test`'s closing lines, from vitest's JSON report: every skipped test by file and name with the
 * reason its title gives (`… (skipped: REASON)` on the test or on a describe around it), then the one
 * line any CI reader understands, last: `N passed, N failed` and `, N skipped` when any were.
 *
 *   npx tsx test/support/test-summary.ts node_modules/.vitest-report.json
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{
    name: string;
    assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }>;
  }>;
}

const MARK = '(skipped: ';

/** The reason in `… (skipped: REASON) …` (REASON may hold parentheses of its own) and the text around it. */
function skipReason(title: string): { name: string; reason: string | null } {
  const start = title.indexOf(MARK);
  if (start < 0) return { name: title, reason: null };
  let depth = 1;
  let end = start + MARK.length;
  for (; end < title.length && depth > 0; end++) {
    if (title[end] === '(') depth++;
    else if (title[end] === ')') depth--;
  }
  const reason = title.slice(start + MARK.length, depth === 0 ? end - 1 : end);
  return { name: `${title.slice(0, start)}${title.slice(end)}`.replace(/\s+/g, ' ').trim(), reason };
}

function summaryLines(report: Report, root: string): string[] {
  const skipped: string[] = [];
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status !== 'skipped' && test.status !== 'pending') continue;
      const titles = [...test.ancestorTitles, test.title].map(skipReason);
      const reason = titles.find((t) => t.reason !== null)?.reason ?? 'no reason given in its title';
      skipped.push(`  ${relative(root, file.name)} > ${titles.map((t) => t.name).join(' > ')}: ${reason}`);
    }
  }
  const counts =
    `${report.numPassedTests} passed, ${report.numFailedTests} failed` +
    (report.numPendingTests ? `, ${report.numPendingTests} skipped` : '');
  return [...(skipped.length > 0 ? ['skipped, with the reason:', ...skipped.sort()] : []), counts];
}

const report = JSON.parse(readFileSync(process.argv[2] ?? 'node_modules/.vitest-report.json', 'utf8'));
for (const line of summaryLines(report as Report, process.cwd())) console.log(line);
