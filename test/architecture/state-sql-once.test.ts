/**
 * One SQL text for both state engines: a statement that is the same on SQLite and PostgreSQL lives
 * once, in a statements module beside the engines, and an engine file keeps only what differs on
 * purpose. Proved over the source: every SQL string literal of the SQLite engine files is compared with
 * every one of the PostgreSQL engine files after the placeholders (`?`, `$n`) and the whitespace are
 * normalised, and any text found on both sides is reported with its places. An engine file that writes
 * out again a text the shared modules hold is reported too: that is the next duplicate in the making.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const STATE_DIR = new URL('../../gateway/state/', import.meta.url).pathname;

interface SqlLiteral {
  /** `file:line` of the literal. */
  at: string;
  /** The text with placeholders as `?` and whitespace collapsed. */
  normalised: string;
}

const SQL_START = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\b/i;

/** `$1`, `$12` and `?` all become `?`; runs of whitespace one space; nothing at either end. */
function normaliseSql(sql: string): string {
  return sql.replace(/\$\d+/g, '?').replace(/\s+/g, ' ').replace(/\(\s/g, '(').replace(/\s\)/g, ')').trim();
}

/**
 * The SQL string literals of one TypeScript source: plain strings and templates (an interpolation is
 * kept as its expression's text, so two files interpolating the same constant still compare equal).
 */
function sqlLiterals(fileName: string, source: string): SqlLiteral[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: SqlLiteral[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) {
      text =
        node.head.text +
        node.templateSpans.map((span) => `\${${span.expression.getText(file)}}${span.literal.text}`).join('');
    }
    if (text !== undefined && SQL_START.test(text)) {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      found.push({ at: `${fileName}:${line}`, normalised: normaliseSql(text) });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Each text found on both sides, with every place it appears. */
function sharedTexts(left: SqlLiteral[], right: SqlLiteral[]): string[] {
  const rightByText = new Map<string, string[]>();
  for (const literal of right) {
    rightByText.set(literal.normalised, [...(rightByText.get(literal.normalised) ?? []), literal.at]);
  }
  const reports = new Map<string, string>();
  for (const literal of left) {
    const others = rightByText.get(literal.normalised);
    if (!others) continue;
    const previous = reports.get(literal.normalised);
    reports.set(
      literal.normalised,
      previous
        ? previous.replace(' and ', `, ${literal.at} and `)
        : `${literal.at} and ${others.join(', ')}: ${literal.normalised}`,
    );
  }
  return [...reports.values()];
}

/** The statements both engines run: the statements modules and the billing state (see sql-runner.ts). */
const SHARED = (name: string) => name.endsWith('-statements.ts') || name === 'sql-billing-state.ts';

async function literalsOf(wanted: (name: string) => boolean): Promise<Map<string, SqlLiteral[]>> {
  const byFile = new Map<string, SqlLiteral[]>();
  for (const name of (await readdir(STATE_DIR)).sort()) {
    if (!wanted(name) || !name.endsWith('.ts')) continue;
    byFile.set(name, sqlLiterals(name, await readFile(join(STATE_DIR, name), 'utf8')));
  }
  return byFile;
}

describe('one SQL text for both state engines', () => {
  it('finds a statement written in both engines, whatever its placeholders and line breaks', () => {
    const sqlite = sqlLiterals(
      'sqlite-x.ts',
      "const a = db.prepare(`SELECT * FROM t\n   WHERE id = ? AND n > ?`);\nconst b = 'PRAGMA x';",
    );
    const postgres = sqlLiterals(
      'postgres-x.ts',
      `pool.query('SELECT * FROM t WHERE id = $1 AND n > $2', []);\npool.query(\`SELECT \${COLUMNS} FROM t\`);`,
    );
    expect(sqlite.map((literal) => literal.normalised)).toEqual(['SELECT * FROM t WHERE id = ? AND n > ?']);
    expect(postgres.map((literal) => literal.normalised)).toEqual([
      'SELECT * FROM t WHERE id = ? AND n > ?',
      `SELECT \${COLUMNS} FROM t`,
    ]);
    expect(sharedTexts(sqlite, postgres)).toEqual([
      'sqlite-x.ts:1 and postgres-x.ts:1: SELECT * FROM t WHERE id = ? AND n > ?',
    ]);
  });

  it('has no statement that is the same in the SQLite and the PostgreSQL engine files', async () => {
    const sqlite = await literalsOf((name) => name.startsWith('sqlite-'));
    const postgres = await literalsOf((name) => name.startsWith('postgres-'));
    // The engine files are where they were and still hold their engine-specific SQL: an empty side
    // would make the comparison below pass for nothing.
    for (const name of ['sqlite-state.ts', 'sqlite-order-state.ts'])
      expect(sqlite.get(name)?.length).toBeGreaterThan(0);
    for (const name of ['postgres-state.ts', 'postgres-order-state.ts']) {
      expect(postgres.get(name)?.length).toBeGreaterThan(0);
    }
    const shared = sharedTexts([...sqlite.values()].flat(), [...postgres.values()].flat());
    expect(
      shared,
      `statements written in both engines (move each to a statements module):\n${shared.join('\n')}`,
    ).toEqual([]);
  });

  it('has no engine file writing out a statement the shared modules hold', async () => {
    const shared = [...(await literalsOf(SHARED)).values()].flat();
    expect(shared.length).toBeGreaterThan(50);
    const engines = [...(await literalsOf((name) => /^(sqlite|postgres)-/.test(name))).values()].flat();
    const again = sharedTexts(engines, shared);
    expect(
      again,
      `engine files writing out a shared statement (use the shared one):\n${again.join('\n')}`,
    ).toEqual([]);
  });
});
