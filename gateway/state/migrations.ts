/**
 * Versioned schema migrations, applied in order at start-up by both engines. Each version has one
 * statement list per engine because the types differ (SQLite keeps times as ISO-8601 text, which
 * sorts like time; PostgreSQL uses timestamptz). Append new versions; never edit an applied one.
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: string[];
  postgres: string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, keys, sessions, usage counters, rate windows',
    sqlite: [
      `CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        plan TEXT NOT NULL CHECK (plan IN ('api', 'subscriber')),
        status TEXT NOT NULL CHECK (status IN ('active', 'cancelled')),
        created_at TEXT NOT NULL,
        period_anchor TEXT NOT NULL,
        cancelled_at TEXT,
        access_ends_at TEXT
      )`,
      `CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        expires_at TEXT
      )`,
      'CREATE INDEX api_keys_prefix ON api_keys (prefix)',
      'CREATE INDEX api_keys_account ON api_keys (account_id)',
      `CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
      )`,
      `CREATE TABLE usage_counters (
        account_id TEXT NOT NULL REFERENCES accounts (id),
        period_start TEXT NOT NULL,
        used INTEGER NOT NULL CHECK (used >= 0),
        PRIMARY KEY (account_id, period_start)
      )`,
      `CREATE TABLE rate_windows (
        bucket TEXT NOT NULL,
        window_start TEXT NOT NULL,
        count INTEGER NOT NULL CHECK (count >= 0),
        PRIMARY KEY (bucket, window_start)
      )`,
      'CREATE INDEX rate_windows_start ON rate_windows (window_start)',
    ],
    postgres: [
      `CREATE TABLE accounts (
        id text PRIMARY KEY,
        plan text NOT NULL CHECK (plan IN ('api', 'subscriber')),
        status text NOT NULL CHECK (status IN ('active', 'cancelled')),
        created_at timestamptz NOT NULL,
        period_anchor timestamptz NOT NULL,
        cancelled_at timestamptz,
        access_ends_at timestamptz
      )`,
      `CREATE TABLE api_keys (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id),
        prefix text NOT NULL,
        hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        expires_at timestamptz
      )`,
      'CREATE INDEX api_keys_prefix ON api_keys (prefix)',
      'CREATE INDEX api_keys_account ON api_keys (account_id)',
      `CREATE TABLE sessions (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id),
        hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`,
      `CREATE TABLE usage_counters (
        account_id text NOT NULL REFERENCES accounts (id),
        period_start timestamptz NOT NULL,
        used integer NOT NULL CHECK (used >= 0),
        PRIMARY KEY (account_id, period_start)
      )`,
      `CREATE TABLE rate_windows (
        bucket text NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL CHECK (count >= 0),
        PRIMARY KEY (bucket, window_start)
      )`,
      'CREATE INDEX rate_windows_start ON rate_windows (window_start)',
    ],
  },
  {
    version: 2,
    name: 'tax check cache, rolling rate windows, salts',
    sqlite: [
      `CREATE TABLE tax_check_cache (
        key TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        computed_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      )`,
      'CREATE INDEX tax_check_cache_expires ON tax_check_cache (expires_at)',
      // `hits`: a JSON array of ISO-8601 times, at most the limit's length.
      `CREATE TABLE rolling_windows (
        bucket TEXT PRIMARY KEY,
        hits TEXT NOT NULL,
        last_hit TEXT NOT NULL
      )`,
      'CREATE INDEX rolling_windows_last_hit ON rolling_windows (last_hit)',
      `CREATE TABLE state_salts (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at TEXT NOT NULL
      )`,
    ],
    postgres: [
      `CREATE TABLE tax_check_cache (
        key text PRIMARY KEY,
        body text NOT NULL,
        computed_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      'CREATE INDEX tax_check_cache_expires ON tax_check_cache (expires_at)',
      `CREATE TABLE rolling_windows (
        bucket text PRIMARY KEY,
        hits timestamptz[] NOT NULL,
        last_hit timestamptz NOT NULL
      )`,
      'CREATE INDEX rolling_windows_last_hit ON rolling_windows (last_hit)',
      `CREATE TABLE state_salts (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL
      )`,
    ],
  },
];

export const MIGRATIONS_TABLE = 'gateway_schema_migrations';
