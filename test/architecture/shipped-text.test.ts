/**
 * Shipped code and docs point at nothing a reader of the repository cannot open: no internal issue
 * numbers ("issue 36"), no section numbers of the interface specification (it is not in the repository;
 * the behaviour is stated, or docs/api.md's section named by its heading), and no absolute path of the
 * machine the text was written on (/work/..., /home/...). A chain runtime's spec version ("spec 425",
 * "spec-473") is a fact about the chain and stays.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');

/** What ships: the code, its data inputs, the docs and the files that build and deploy it. */
const SHIPPED = [
  'pipeline',
  'gateway',
  'data',
  'docs',
  'deploy',
  '.ci',
  'README.md',
  'Makefile',
  'package.json',
];

interface Rule {
  what: string;
  pattern: RegExp;
}

const RULES: Rule[] = [
  { what: 'an issue number', pattern: /\b[Ii]ssues? #?\d+/ },
  // One or two digits: a section ("spec 8", "Spec 2.10"); a runtime's spec version has three or more.
  { what: 'an interface-spec section', pattern: /\b[Ss]pec(?:\.md)? ?§? ?\d{1,2}(?:\.\d+)?\b(?![\d-])/ },
  { what: 'an interface-spec section', pattern: /\b[Ss]pec(?:ification)?(?:'s)? (?:section|rule|point) \d/ },
  { what: 'an interface-spec section', pattern: /§ ?\d/ },
  { what: 'an absolute path of the machine', pattern: /(?<![\w.~/-])\/(?:work|root|home|Users|mnt)\/\w/ },
];

/** Each line that points outside the repository, as `file:line: what: the line`. */
function findOutsideReferences(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const rule = RULES.find((candidate) => candidate.pattern.test(line));
    return rule === undefined ? [] : [`${file}:${index + 1}: ${rule.what}: ${line.trim().slice(0, 160)}`];
  });
}

function shippedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', ...SHIPPED], { cwd: REPO, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file !== '');
}

function readText(file: string): string | null {
  const bytes = readFileSync(path.join(REPO, file));
  // Binary files (pictures, runtime metadata blobs, fixtures) hold no prose.
  return bytes.includes(0) ? null : bytes.toString('utf8');
}

describe('shipped text', () => {
  it('flags each kind of outside reference and leaves chain runtime versions and tax sections alone', () => {
    const flagged = [
      'the buyer adds records (issue 36)',
      'Issue 28: profiled',
      '(spec 5)',
      'the Order of spec 2.10',
      'Spec 7.2 and 8: 20 requests an hour',
      'the tax check (spec 4.3, 7.2)',
      'the API plan (spec section 8)',
      'see spec.md §8',
      'built from /work/shared/v473 source',
      'cp /home/ubuntu/sbm.env .',
    ];
    for (const line of flagged) expect(findOutsideReferences('x.ts', line), line).toHaveLength(1);
    const kept = [
      'the spec 425 runtime',
      'after the spec-473 upgrade',
      'finney-spec233-v15.hex',
      'the section 104 pool',
      'WorkingDirectory=/var/lib/sbm',
      'https://example.com/home/page',
      'a tissue 3 layers thick',
    ];
    for (const line of kept) expect(findOutsideReferences('x.ts', line), line).toEqual([]);
  });

  it('scans the shipped folders', () => {
    const files = shippedFiles();
    expect(files).toEqual(
      expect.arrayContaining(['docs/api.md', 'gateway/app.ts', 'pipeline/cli.ts', 'Makefile']),
    );
  });

  it('no shipped file names an issue number, an interface-spec section or a path of the machine', () => {
    const found = shippedFiles().flatMap((file) => {
      const text = readText(file);
      return text === null ? [] : findOutsideReferences(file, text);
    });
    expect(found).toEqual([]);
  });
});
