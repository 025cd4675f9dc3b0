/**
 * Sentences that state a file or a figure stay true (issue 37: prose no test read had drifted): every
 * repository file the docs name exists, the cron jobs docs/operating.md shows are deploy/cron/sbm's, and
 * every error status the gateway sends has a row in docs/api.md's errors table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeSpans, docFiles, REPO } from './doc-references.js';

const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');

/** Every file under the source folders, by repository path and by its bare name. */
function repositoryFiles(): { paths: Set<string>; names: Set<string> } {
  const paths = new Set<string>();
  const names = new Set<string>();
  for (const dir of ['gateway', 'pipeline', 'test', 'deploy']) {
    for (const entry of readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || entry.parentPath.includes('node_modules')) continue;
      paths.add(path.relative(REPO, path.join(entry.parentPath, entry.name)));
      names.add(entry.name);
    }
  }
  for (const entry of readdirSync(REPO, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    paths.add(entry.name);
    names.add(entry.name);
  }
  return { paths, names };
}

/** Placeholders (`<hash>`, `…`, globs) and runtime files (under data/, made by the service) are not named files. */
const NOT_A_FILE = /[<>*…{}$]|^data\//;
/** Paths shown as examples: a command's argument (docs/testing.md), a rule's sample message (architecture.md). */
const EXAMPLES = new Set(['test/foo.test.ts', 'test/snapshots/amounts.test.ts']);

describe('facts the docs state', () => {
  it('every source file they name exists (by path, or by bare name for .ts, .sql, .sh, .cjs)', () => {
    const { paths, names } = repositoryFiles();
    const missing: string[] = [];
    for (const file of docFiles()) {
      for (const span of codeSpans(read(file))) {
        for (const match of span.matchAll(/(?:^|[\s(])((?:gateway|pipeline|test|deploy)\/[\w./-]+\.\w+)/g)) {
          const named = match[1]!.replace(/[.,:;)]+$/, '');
          if (!NOT_A_FILE.test(named) && !EXAMPLES.has(named) && !paths.has(named))
            missing.push(`${file}: ${named}`);
        }
        const bare = /^([\w.-]+\.(?:ts|sql|sh|cjs))$/.exec(span.trim());
        if (bare && !names.has(bare[1]!)) missing.push(`${file}: ${bare[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("docs/operating.md shows deploy/cron/sbm's jobs as shipped", () => {
    const jobs = read('deploy/cron/sbm')
      .split('\n')
      .filter((line) => /^[\d*]/.test(line));
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    const shown = new Set(codeSpans(read('docs/operating.md')));
    expect(jobs.filter((job) => !shown.has(job))).toEqual([]);
  });

  it("every error status the gateway sends has a row in docs/api.md's errors table", () => {
    const sent = new Set<string>();
    for (const entry of readdirSync(path.join(REPO, 'gateway'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
      for (const match of text.matchAll(/HttpError\(([45]\d\d)\b/g)) sent.add(match[1]!);
    }
    // The access refusals (gateway/auth/access.ts) are returned as data, then thrown by the guard.
    for (const match of read('gateway/auth/access.ts').matchAll(/status: ([45]\d\d)\b/g)) sent.add(match[1]!);
    const api = read('docs/api.md');
    const errors = api.slice(api.indexOf('### Errors'));
    const rows = new Set([...errors.matchAll(/^\| (\d{3}) \|/gm)].map((m) => m[1]!));
    expect([...sent].filter((status) => !rows.has(status)).sort()).toEqual([]);
    expect(sent.has('402') && sent.has('403')).toBe(true);
  });
});
