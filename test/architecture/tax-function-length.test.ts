/**
 * The tax code stays readable in pieces: no function under pipeline/tax is longer than about 150 lines
 * unless a comment just above it says why it cannot be split (the words "cannot be split").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const LIMIT = 150;
const ROOT = 'pipeline/tax';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Each function-like node longer than `limit` lines with no "cannot be split" comment before it. */
function longFunctions(file: string, text: string, limit = LIMIT): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const comments = text.slice(node.getFullStart(), node.getStart());
      const holder = ts.isVariableDeclaration(node.parent) ? node.parent.parent.parent : node;
      const leading = text.slice(holder.getFullStart(), holder.getStart());
      const explained = /cannot be split/i.test(comments) || /cannot be split/i.test(leading);
      if (last - first + 1 > limit && !explained) {
        const name = (node as ts.FunctionDeclaration).name?.getText(source) ?? '(anonymous)';
        found.push(`${file}:${first + 1} ${name} (${last - first + 1} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the tax code in readable pieces', () => {
  it(`has no function over ${LIMIT} lines without a comment saying why it cannot be split`, () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => longFunctions(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('finds a long function, and accepts one whose comment says why', () => {
    const body = Array.from({ length: LIMIT + 5 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(longFunctions('a.ts', `function long(): void {\n${body}\n}\n`)).toEqual([
      `a.ts:1 long (${LIMIT + 7} lines)`,
    ]);
    expect(
      longFunctions(
        'b.ts',
        `/** One table; it cannot be split without losing its order. */\nfunction long(): void {\n${body}\n}\n`,
      ),
    ).toEqual([]);
    expect(longFunctions('c.ts', `const long = (): void => {\n${body}\n};\n`)).toEqual([
      `c.ts:1 (anonymous) (${LIMIT + 7} lines)`,
    ]);
  });
});
