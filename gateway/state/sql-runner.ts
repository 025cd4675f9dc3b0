import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { Row } from './state-rows.js';

/**
 * One SQL text for both engines, where the statement is the same in both (`?` placeholders; times
 * passed as Date, flags as boolean): the SQLite runner binds them as ISO-8601 text and 0/1, the
 * PostgreSQL runner numbers the placeholders `$1..$n` and binds Dates and booleans natively. Used by
 * the billing state (the shared-helper alternative to a query builder). The gateway state and the
 * orders keep their engine classes (SQLite's statements run synchronously inside its transactions) and
 * take their shared texts from `state-statements.ts` and `order-statements.ts`, the PostgreSQL classes
 * through `numbered`; statements that differ on purpose between the engines stay in the engine classes.
 */
export interface SqlRunner {
  readonly engine: 'sqlite' | 'postgres';
  all(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a statement without RETURNING; resolves to the number of rows changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
}

export function sqliteRunner(
  db: Database.Database,
  /** Called after a write to `accounts` or `api_keys`: the key-candidate cache must be dropped. */
  onKeysOrAccountsWritten: () => void,
): SqlRunner {
  const statements = new Map<string, { compiled: Database.Statement; touchesKeys: boolean }>();
  const prepared = (sql: string) => {
    let entry = statements.get(sql);
    if (!entry) {
      entry = {
        compiled: db.prepare(sql),
        touchesKeys: !/^\s*SELECT\b/i.test(sql) && /\b(accounts|api_keys)\b/i.test(sql),
      };
      statements.set(sql, entry);
    }
    return entry;
  };
  const bind = (params: unknown[]) =>
    params.map((value) =>
      value instanceof Date ? value.toISOString() : typeof value === 'boolean' ? (value ? 1 : 0) : value,
    );
  return {
    engine: 'sqlite',
    async all(sql, params = []) {
      const entry = prepared(sql);
      let rows: Row[] = [];
      if (entry.compiled.reader) rows = entry.compiled.all(...bind(params)) as Row[];
      else entry.compiled.run(...bind(params));
      if (entry.touchesKeys) onKeysOrAccountsWritten();
      return rows;
    },
    async run(sql, params = []) {
      const entry = prepared(sql);
      const changes = entry.compiled.run(...bind(params)).changes;
      if (entry.touchesKeys) onKeysOrAccountsWritten();
      return changes;
    },
  };
}

/** The shared texts, numbered: a few dozen constants, so the map stays small. */
const numberedTexts = new Map<string, string>();

/**
 * A shared text for PostgreSQL: its `?` placeholders become `$1..$n` in order (each `?` is a parameter
 * of its own, so a value used twice is passed twice). A text already written with `$n` has no `?` and
 * comes back as it is. The shared texts hold no `?` other than placeholders (no string literal with
 * one, no jsonb `?` operator).
 */
export function numbered(sql: string): string {
  let text = numberedTexts.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numberedTexts.set(sql, text);
  }
  return text;
}

export function postgresRunner(pool: pg.Pool): SqlRunner {
  return {
    engine: 'postgres',
    async all(sql, params = []) {
      return (await pool.query<Row>(numbered(sql), params)).rows;
    },
    async run(sql, params = []) {
      return (await pool.query(numbered(sql), params)).rowCount ?? 0;
    },
  };
}
