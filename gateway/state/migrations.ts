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
  {
    version: 3,
    name: 'tax orders and processed payment events',
    // `coldkeys`: a JSON array of addresses (SQLite), text[] (PostgreSQL). `status` moves only forward,
    // by the two conditional statements in order-state.ts; the CHECKs keep the row consistent with it.
    sqlite: [
      `CREATE TABLE orders (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('created', 'paid', 'fulfilled')),
        sku TEXT NOT NULL,
        pack_name TEXT NOT NULL,
        pack_kind TEXT NOT NULL,
        tax_year TEXT NOT NULL,
        coldkeys TEXT NOT NULL,
        amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
        currency TEXT NOT NULL,
        retention_days INTEGER NOT NULL CHECK (retention_days > 0),
        origin TEXT NOT NULL CHECK (origin IN ('checkout', 'support')),
        created_at TEXT NOT NULL,
        stripe_session_id TEXT,
        paid_at TEXT,
        buyer_email TEXT,
        fulfil_attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        fulfilled_at TEXT,
        pack_key TEXT,
        pack_expires_at TEXT,
        emailed_at TEXT,
        purged_at TEXT,
        CHECK (status = 'created' OR paid_at IS NOT NULL),
        CHECK (status <> 'fulfilled' OR (fulfilled_at IS NOT NULL AND pack_key IS NOT NULL
          AND pack_expires_at IS NOT NULL))
      )`,
      'CREATE INDEX orders_status_due ON orders (status, next_attempt_at)',
      'CREATE INDEX orders_pack_expires ON orders (pack_expires_at)',
      'CREATE INDEX orders_created ON orders (created_at)',
      `CREATE TABLE payment_events (
        event_id TEXT PRIMARY KEY,
        event_type TEXT NOT NULL,
        order_id TEXT NOT NULL,
        outcome TEXT NOT NULL,
        received_at TEXT NOT NULL
      )`,
    ],
    postgres: [
      `CREATE TABLE orders (
        id text PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('created', 'paid', 'fulfilled')),
        sku text NOT NULL,
        pack_name text NOT NULL,
        pack_kind text NOT NULL,
        tax_year text NOT NULL,
        coldkeys text[] NOT NULL,
        amount_minor integer NOT NULL CHECK (amount_minor > 0),
        currency text NOT NULL,
        retention_days integer NOT NULL CHECK (retention_days > 0),
        origin text NOT NULL CHECK (origin IN ('checkout', 'support')),
        created_at timestamptz NOT NULL,
        stripe_session_id text,
        paid_at timestamptz,
        buyer_email text,
        fulfil_attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_error text,
        lease_owner text,
        lease_expires_at timestamptz,
        fulfilled_at timestamptz,
        pack_key text,
        pack_expires_at timestamptz,
        emailed_at timestamptz,
        purged_at timestamptz,
        CHECK (status = 'created' OR paid_at IS NOT NULL),
        CHECK (status <> 'fulfilled' OR (fulfilled_at IS NOT NULL AND pack_key IS NOT NULL
          AND pack_expires_at IS NOT NULL))
      )`,
      'CREATE INDEX orders_status_due ON orders (status, next_attempt_at)',
      'CREATE INDEX orders_pack_expires ON orders (pack_expires_at)',
      'CREATE INDEX orders_created ON orders (created_at)',
      `CREATE TABLE payment_events (
        event_id text PRIMARY KEY,
        event_type text NOT NULL,
        order_id text NOT NULL,
        outcome text NOT NULL,
        received_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 4,
    name: 'one-time sign-in links for subscriber sessions',
    // A link is stored as the SHA-256 of its token. `used_at` is set once, by the conditional UPDATE in
    // redeemSignInLink: the row is the single-use guard, also across gateway instances.
    sqlite: [
      `CREATE TABLE sign_in_links (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        hash TEXT NOT NULL UNIQUE,
        session_days INTEGER NOT NULL CHECK (session_days > 0),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      )`,
      'CREATE INDEX sign_in_links_expires ON sign_in_links (expires_at)',
    ],
    postgres: [
      `CREATE TABLE sign_in_links (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id),
        hash text NOT NULL UNIQUE,
        session_days integer NOT NULL CHECK (session_days > 0),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
      'CREATE INDEX sign_in_links_expires ON sign_in_links (expires_at)',
    ],
  },
  {
    version: 5,
    name: 'self-serve API plan: account emails and paid periods, email sign-in tokens, account sessions, key details, events and daily use, Stripe customers, checkouts, subscriptions and events',
    // `accounts.billing`: 'operator' (made by `accounts create`: periods from `period_anchor`, as before)
    // or 'stripe' (made by a confirmed email sign-in: access and the allowance's period follow
    // `paid_period_start`/`paid_period_end`, which only a paid invoice moves, see billing-events.ts).
    // `subscription_checkouts` is the one-checkout-at-a-time claim per account (insert-if-absent).
    sqlite: [
      'ALTER TABLE accounts ADD COLUMN email TEXT',
      `ALTER TABLE accounts ADD COLUMN billing TEXT NOT NULL DEFAULT 'operator' CHECK (billing IN ('operator', 'stripe'))`,
      'ALTER TABLE accounts ADD COLUMN paid_period_start TEXT',
      'ALTER TABLE accounts ADD COLUMN paid_period_end TEXT',
      'CREATE UNIQUE INDEX accounts_email ON accounts (email)',
      `CREATE TABLE email_sign_in_tokens (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      )`,
      'CREATE INDEX email_sign_in_tokens_expires ON email_sign_in_tokens (expires_at)',
      `CREATE TABLE account_sessions (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
      )`,
      'CREATE INDEX account_sessions_account ON account_sessions (account_id)',
      `CREATE TABLE key_details (
        key_id TEXT PRIMARY KEY REFERENCES api_keys (id),
        name TEXT NOT NULL,
        last_four TEXT NOT NULL,
        grace_ends_at TEXT,
        last_used_at TEXT
      )`,
      `CREATE TABLE key_events (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        key_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('created', 'rolled', 'revoked')),
        key_prefix TEXT NOT NULL,
        ip TEXT,
        at TEXT NOT NULL
      )`,
      'CREATE INDEX key_events_account ON key_events (account_id, at)',
      `CREATE TABLE key_usage_days (
        key_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        day TEXT NOT NULL,
        used INTEGER NOT NULL CHECK (used >= 0),
        PRIMARY KEY (key_id, day)
      )`,
      'CREATE INDEX key_usage_days_account ON key_usage_days (account_id, day)',
      `CREATE TABLE stripe_customers (
        account_id TEXT PRIMARY KEY REFERENCES accounts (id),
        customer_id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      )`,
      `CREATE TABLE subscription_checkouts (
        account_id TEXT PRIMARY KEY REFERENCES accounts (id),
        claimed_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        session_id TEXT,
        url TEXT
      )`,
      `CREATE TABLE subscriptions (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        customer_id TEXT NOT NULL,
        status TEXT NOT NULL,
        current_period_start TEXT,
        current_period_end TEXT,
        cancel_at_period_end INTEGER NOT NULL DEFAULT 0,
        canceled_at TEXT,
        updated_at TEXT NOT NULL
      )`,
      'CREATE INDEX subscriptions_account ON subscriptions (account_id)',
      `CREATE TABLE stripe_events (
        event_id TEXT PRIMARY KEY,
        event_type TEXT NOT NULL,
        received_at TEXT NOT NULL
      )`,
    ],
    postgres: [
      'ALTER TABLE accounts ADD COLUMN email text',
      `ALTER TABLE accounts ADD COLUMN billing text NOT NULL DEFAULT 'operator' CHECK (billing IN ('operator', 'stripe'))`,
      'ALTER TABLE accounts ADD COLUMN paid_period_start timestamptz',
      'ALTER TABLE accounts ADD COLUMN paid_period_end timestamptz',
      'CREATE UNIQUE INDEX accounts_email ON accounts (email)',
      `CREATE TABLE email_sign_in_tokens (
        id text PRIMARY KEY,
        email text NOT NULL,
        hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
      'CREATE INDEX email_sign_in_tokens_expires ON email_sign_in_tokens (expires_at)',
      `CREATE TABLE account_sessions (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id),
        hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`,
      'CREATE INDEX account_sessions_account ON account_sessions (account_id)',
      `CREATE TABLE key_details (
        key_id text PRIMARY KEY REFERENCES api_keys (id),
        name text NOT NULL,
        last_four text NOT NULL,
        grace_ends_at timestamptz,
        last_used_at timestamptz
      )`,
      `CREATE TABLE key_events (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id),
        key_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('created', 'rolled', 'revoked')),
        key_prefix text NOT NULL,
        ip text,
        at timestamptz NOT NULL
      )`,
      'CREATE INDEX key_events_account ON key_events (account_id, at)',
      `CREATE TABLE key_usage_days (
        key_id text NOT NULL,
        account_id text NOT NULL,
        day text NOT NULL,
        used integer NOT NULL CHECK (used >= 0),
        PRIMARY KEY (key_id, day)
      )`,
      'CREATE INDEX key_usage_days_account ON key_usage_days (account_id, day)',
      `CREATE TABLE stripe_customers (
        account_id text PRIMARY KEY REFERENCES accounts (id),
        customer_id text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL
      )`,
      `CREATE TABLE subscription_checkouts (
        account_id text PRIMARY KEY REFERENCES accounts (id),
        claimed_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        session_id text,
        url text
      )`,
      `CREATE TABLE subscriptions (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id),
        customer_id text NOT NULL,
        status text NOT NULL,
        current_period_start timestamptz,
        current_period_end timestamptz,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        canceled_at timestamptz,
        updated_at timestamptz NOT NULL
      )`,
      'CREATE INDEX subscriptions_account ON subscriptions (account_id)',
      `CREATE TABLE stripe_events (
        event_id text PRIMARY KEY,
        event_type text NOT NULL,
        received_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 6,
    name: 'allowance leases',
    // A lease is a block of an account's allowance a gateway instance took (already counted in
    // usage_counters.used) and spends locally; it gives back the unspent part when it settles (within a
    // second). A row outlives its instance only if the instance died: past `expires_at` its unspent part
    // is lost to the account (never granted twice), and other instances stop waiting for it.
    sqlite: [
      `CREATE TABLE allowance_leases (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        period_start TEXT NOT NULL,
        units INTEGER NOT NULL CHECK (units > 0),
        expires_at TEXT NOT NULL
      )`,
      'CREATE INDEX allowance_leases_account ON allowance_leases (account_id, period_start)',
      'CREATE INDEX allowance_leases_expires ON allowance_leases (expires_at)',
    ],
    postgres: [
      `CREATE TABLE allowance_leases (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        period_start timestamptz NOT NULL,
        units integer NOT NULL CHECK (units > 0),
        expires_at timestamptz NOT NULL
      )`,
      'CREATE INDEX allowance_leases_account ON allowance_leases (account_id, period_start)',
      'CREATE INDEX allowance_leases_expires ON allowance_leases (expires_at)',
    ],
  },
  {
    version: 7,
    name: 'operator retries of stuck orders',
    // One row per `orders retry` that put a stuck order back into the queue: who reads `orders show`
    // sees how many tries it had and what failed before the retry reset its count.
    sqlite: [
      `CREATE TABLE order_retries (
        order_id TEXT NOT NULL REFERENCES orders (id),
        retried_at TEXT NOT NULL,
        attempts_before INTEGER NOT NULL,
        error_before TEXT
      )`,
      'CREATE INDEX order_retries_order ON order_retries (order_id, retried_at)',
    ],
    postgres: [
      `CREATE TABLE order_retries (
        order_id text NOT NULL REFERENCES orders (id),
        retried_at timestamptz NOT NULL,
        attempts_before integer NOT NULL,
        error_before text
      )`,
      'CREATE INDEX order_retries_order ON order_retries (order_id, retried_at)',
    ],
  },
  {
    version: 8,
    name: 'revisions of an order: the buyer’s own records, each built once',
    // One row per accepted upload of the buyer's own records: version 2, 3, … of the order's pack. `files` is a JSON array
    // of {name, sha256, rows, role, key, bytes}: the uploaded bytes are in the object store under the
    // order's pack prefix (`key`), never in the state. `status` moves `pending → built` or
    // `pending → rejected` by one conditional UPDATE each, for the holder of the revision's lease.
    sqlite: [
      `CREATE TABLE order_revisions (
        order_id TEXT NOT NULL REFERENCES orders (id),
        version INTEGER NOT NULL CHECK (version >= 2),
        status TEXT NOT NULL CHECK (status IN ('pending', 'built', 'rejected')),
        created_at TEXT NOT NULL,
        files TEXT NOT NULL,
        problem TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        built_at TEXT,
        pack_key TEXT,
        PRIMARY KEY (order_id, version),
        CHECK (status <> 'built' OR (built_at IS NOT NULL AND pack_key IS NOT NULL)),
        CHECK (status <> 'rejected' OR problem IS NOT NULL)
      )`,
      'CREATE INDEX order_revisions_due ON order_revisions (status, next_attempt_at)',
    ],
    postgres: [
      `CREATE TABLE order_revisions (
        order_id text NOT NULL REFERENCES orders (id),
        version integer NOT NULL CHECK (version >= 2),
        status text NOT NULL CHECK (status IN ('pending', 'built', 'rejected')),
        created_at timestamptz NOT NULL,
        files jsonb NOT NULL,
        problem text,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_error text,
        lease_owner text,
        lease_expires_at timestamptz,
        built_at timestamptz,
        pack_key text,
        PRIMARY KEY (order_id, version),
        CHECK (status <> 'built' OR (built_at IS NOT NULL AND pack_key IS NOT NULL)),
        CHECK (status <> 'rejected' OR problem IS NOT NULL)
      )`,
      'CREATE INDEX order_revisions_due ON order_revisions (status, next_attempt_at)',
    ],
  },
  {
    version: 9,
    name: 'revisions: delivery email, files of a rejected one deleted, superseded, operator retries',
    // A built revision's email is recorded once (`emailed_at`, the revision's own delivery lease as the
    // order's); a rejected revision's files are deleted by the job and recorded (`files_deleted_at`), so a
    // crash between the two is finished by the next run; a pending revision out of tries whose files a
    // later version's pack includes is `superseded` (`superseded_by` names that version); an operator's
    // retry of a revision is an `order_retries` row with its `version` (null: the order's first pack).
    // SQLite cannot change a CHECK in place: the table is copied into a new one with the new status.
    sqlite: [
      `CREATE TABLE order_revisions_v10 (
        order_id TEXT NOT NULL REFERENCES orders (id),
        version INTEGER NOT NULL CHECK (version >= 2),
        status TEXT NOT NULL CHECK (status IN ('pending', 'built', 'rejected', 'superseded')),
        created_at TEXT NOT NULL,
        files TEXT NOT NULL,
        problem TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        built_at TEXT,
        pack_key TEXT,
        emailed_at TEXT,
        files_deleted_at TEXT,
        superseded_by INTEGER,
        PRIMARY KEY (order_id, version),
        CHECK (status <> 'built' OR (built_at IS NOT NULL AND pack_key IS NOT NULL)),
        CHECK (status <> 'rejected' OR problem IS NOT NULL),
        CHECK (status <> 'superseded' OR superseded_by > version)
      )`,
      `INSERT INTO order_revisions_v10 (order_id, version, status, created_at, files, problem, attempts,
         next_attempt_at, last_error, lease_owner, lease_expires_at, built_at, pack_key)
       SELECT order_id, version, status, created_at, files, problem, attempts, next_attempt_at, last_error,
         lease_owner, lease_expires_at, built_at, pack_key FROM order_revisions`,
      'DROP TABLE order_revisions',
      'ALTER TABLE order_revisions_v10 RENAME TO order_revisions',
      'CREATE INDEX order_revisions_due ON order_revisions (status, next_attempt_at)',
      'ALTER TABLE order_retries ADD COLUMN version INTEGER',
    ],
    postgres: [
      'ALTER TABLE order_revisions DROP CONSTRAINT order_revisions_status_check',
      `ALTER TABLE order_revisions ADD CONSTRAINT order_revisions_status_check
         CHECK (status IN ('pending', 'built', 'rejected', 'superseded'))`,
      'ALTER TABLE order_revisions ADD COLUMN emailed_at timestamptz',
      'ALTER TABLE order_revisions ADD COLUMN files_deleted_at timestamptz',
      'ALTER TABLE order_revisions ADD COLUMN superseded_by integer',
      `ALTER TABLE order_revisions ADD CONSTRAINT order_revisions_superseded_check
         CHECK (status <> 'superseded' OR superseded_by > version)`,
      'ALTER TABLE order_retries ADD COLUMN version integer',
    ],
  },
  {
    version: 10,
    name: 'the progress of a pack build, recorded with each renewal of its lease',
    // JSON text on both engines (phase, positions, days, blocks read of the total, start and last update):
    // written by the lease holder only, read by `orders show` and the order page, cleared by the next claim.
    sqlite: [
      'ALTER TABLE orders ADD COLUMN build_progress TEXT',
      'ALTER TABLE order_revisions ADD COLUMN build_progress TEXT',
    ],
    postgres: [
      'ALTER TABLE orders ADD COLUMN build_progress text',
      'ALTER TABLE order_revisions ADD COLUMN build_progress text',
    ],
  },
];

export const MIGRATIONS_TABLE = 'gateway_schema_migrations';
