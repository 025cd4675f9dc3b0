import pg from 'pg';
import type { BillingState } from './billing-state.js';
import {
  type Account,
  type ApiKeyRecord,
  type CachedCheck,
  type CounterResult,
  type GatewayState,
  type InsertKeyResult,
  type KeyCandidate,
  type LeaseRequest,
  type NewAccount,
  type RateWindowHit,
  type RollingWindowHit,
  remainingOf,
  type SessionRecord,
  type SignInLinkRecord,
  type SignInLinkRedemption,
} from './gateway-state.js';
import { MIGRATIONS, MIGRATIONS_TABLE } from './migrations.js';
import type { OrderState } from './order-state.js';
import { PostgresOrderState } from './postgres-order-state.js';
import { SqlBillingState } from './sql-billing-state.js';
import { numbered, postgresRunner } from './sql-runner.js';
import { SchemaVersionError } from './state-errors.js';
import {
  type Row,
  rollingWindowHit,
  toAccount,
  toCachedCheck,
  toDate,
  toKey,
  toKeyCandidate,
  toSession,
  toSignInLink,
} from './state-rows.js';
import {
  ACCOUNT_BY_ID,
  ALL_ACCOUNTS,
  CACHED_CHECK,
  CANCEL_ACCOUNT,
  COUNT_ACTIVE_KEYS,
  HIT_RATE_WINDOW,
  INSERT_ACCOUNT,
  INSERT_KEY,
  INSERT_SESSION,
  INSERT_SIGN_IN_LINK,
  KEY_BY_ID,
  KEY_CANDIDATES,
  KEYS_OF_ACCOUNT,
  LATEST_MIGRATION,
  OFFER_SALT,
  OPEN_LEASE,
  PRUNE_CACHED_CHECKS,
  PRUNE_LEASES,
  PRUNE_RATE_WINDOWS,
  PRUNE_ROLLING_WINDOWS,
  PRUNE_SIGN_IN_LINKS,
  PUT_CACHED_CHECK,
  RATE_WINDOW_COUNT,
  REDEEM_SIGN_IN_LINK,
  REFUND_REQUEST,
  REVOKE_KEY,
  REVOKE_SESSION,
  ROLLING_WINDOW_HITS,
  SALT,
  SESSION_BY_HASH,
  SESSION_BY_ID,
  SET_USAGE,
  SETTLED_USAGE,
  SIGN_IN_LINK_BY_HASH,
  USAGE,
} from './state-statements.js';

/**
 * The account's row, locked: key creation per account is serialised on it, and under READ COMMITTED
 * the count that follows sees every key an earlier holder of the lock committed. (SQLite's IMMEDIATE
 * transaction holds the whole database's write lock instead, so it reads the row unlocked.)
 */
const LOCK_ACCOUNT = `${ACCOUNT_BY_ID} FOR UPDATE`;

export interface PostgresStateOptions {
  /** Connections in this process's pool (pg's default is 10). */
  maxConnections?: number;
}

/**
 * The shared state for several gateway instances: one PostgreSQL database (the schema is whatever the
 * URL's `search_path` selects, `public` by default). Counters are single `INSERT ... ON CONFLICT DO
 * UPDATE ... WHERE used < limit` statements: PostgreSQL locks the conflicting row and re-checks the
 * condition on its newest version, so concurrent requests from any number of processes never count
 * past the limit, without explicit transactions or retries.
 */
export async function openPostgresState(
  url: string,
  options: PostgresStateOptions = {},
): Promise<GatewayState> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle connection dropped by the server emits 'error' on the pool; without a listener that
  // would crash the process. The pool discards the client and the next query opens a new one.
  pool.on('error', () => {});
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresState(pool);
}

async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // One migrator per schema at a time: a second gateway starting together waits here, then finds
    // the versions applied. The lock is released at COMMIT.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.${MIGRATIONS_TABLE}'))`);
    // The ledger in PostgreSQL's types, stamped by the server's clock (SQLite's is given the time).
    await client.query(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const result = await client.query<{ v: number | null }>(LATEST_MIGRATION);
    const current = result.rows[0]?.v ?? 0;
    const known = MIGRATIONS.at(-1)?.version ?? 0;
    if (current > known) {
      throw new SchemaVersionError(
        `state schema is at version ${current}; this gateway knows up to ${known}`,
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.postgres) await client.query(statement);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

class PostgresState implements GatewayState {
  readonly engine = 'postgres' as const;
  readonly orders: OrderState;
  readonly billing: BillingState;
  private closed = false;

  constructor(private readonly pool: pg.Pool) {
    this.orders = new PostgresOrderState(pool);
    this.billing = new SqlBillingState(postgresRunner(pool));
  }

  /** A shared text (`?` placeholders, numbered here) or one of this engine's own (`$n`). */
  private async rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query<Row>(numbered(sql), params)).rows;
  }

  private async changes(sql: string, params: unknown[] = []): Promise<number> {
    return (await this.pool.query(numbered(sql), params)).rowCount ?? 0;
  }

  private async one(sql: string, params: unknown[] = []): Promise<Row | undefined> {
    return (await this.rows(sql, params))[0];
  }

  async createAccount(account: NewAccount): Promise<Account> {
    const row = await this.one(INSERT_ACCOUNT, [
      account.id,
      account.plan,
      account.createdAt,
      account.periodAnchor,
    ]);
    return toAccount(row!);
  }

  async getAccount(id: string): Promise<Account | null> {
    const row = await this.one(ACCOUNT_BY_ID, [id]);
    return row ? toAccount(row) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.rows(ALL_ACCOUNTS)).map(toAccount);
  }

  async cancelAccount(id: string, cancelledAt: Date, accessEndsAt: Date): Promise<Account | null> {
    await this.changes(CANCEL_ACCOUNT, [cancelledAt, accessEndsAt, id]);
    return this.getAccount(id);
  }

  async insertKeyWithinLimit(key: ApiKeyRecord, maxActive: number, now: Date): Promise<InsertKeyResult> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const account = await client.query(numbered(LOCK_ACCOUNT), [key.accountId]);
      if (account.rowCount === 0) {
        await client.query('ROLLBACK');
        return { inserted: false, reason: 'unknown-account', activeKeys: 0 };
      }
      const counted = await client.query<Row>(numbered(COUNT_ACTIVE_KEYS), [key.accountId, now]);
      const activeKeys = Number(counted.rows[0]?.['n'] ?? 0);
      if (activeKeys >= maxActive) {
        await client.query('ROLLBACK');
        return { inserted: false, reason: 'limit', activeKeys };
      }
      const inserted = await client.query<Row>(numbered(INSERT_KEY), [
        key.id,
        key.accountId,
        key.prefix,
        key.hash,
        key.createdAt,
        key.revokedAt,
        key.expiresAt,
      ]);
      await client.query('COMMIT');
      return { inserted: true, key: toKey(inserted.rows[0]!) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    const row = await this.one(KEY_BY_ID, [id]);
    return row ? toKey(row) : null;
  }

  async findKeyCandidates(prefix: string): Promise<KeyCandidate[]> {
    const rows = await this.rows(KEY_CANDIDATES, [prefix]);
    return rows.map(toKeyCandidate);
  }

  /** Every lookup asks the server: no notification tells this instance a cached row went stale. */
  findKeyCandidatesNow(): undefined {
    return undefined;
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return (await this.rows(KEYS_OF_ACCOUNT, [accountId])).map(toKey);
  }

  async revokeKey(id: string, revokedAt: Date): Promise<ApiKeyRecord | null> {
    await this.changes(REVOKE_KEY, [revokedAt, id]);
    return this.getKey(id);
  }

  async insertSession(session: SessionRecord): Promise<SessionRecord> {
    const row = await this.one(INSERT_SESSION, [
      session.id,
      session.accountId,
      session.hash,
      session.createdAt,
      session.expiresAt,
      session.revokedAt,
    ]);
    return toSession(row!);
  }

  async findSessionByHash(hash: string): Promise<SessionRecord | null> {
    const row = await this.one(SESSION_BY_HASH, [hash]);
    return row ? toSession(row) : null;
  }

  async revokeSession(id: string, revokedAt: Date): Promise<SessionRecord | null> {
    await this.changes(REVOKE_SESSION, [revokedAt, id]);
    const row = await this.one(SESSION_BY_ID, [id]);
    return row ? toSession(row) : null;
  }

  async insertSignInLink(link: SignInLinkRecord): Promise<SignInLinkRecord> {
    const row = await this.one(INSERT_SIGN_IN_LINK, [
      link.id,
      link.accountId,
      link.hash,
      link.sessionDays,
      link.createdAt,
      link.expiresAt,
      link.usedAt,
    ]);
    return toSignInLink(row!);
  }

  /**
   * One conditional UPDATE: concurrent redemptions queue on the row's lock and PostgreSQL re-checks
   * `used_at IS NULL` on the newest version (READ COMMITTED), so only the first one matches.
   */
  async redeemSignInLink(hash: string, now: Date): Promise<SignInLinkRedemption> {
    const used = await this.one(REDEEM_SIGN_IN_LINK, [now, hash, now]);
    if (used) return { redeemed: true, link: toSignInLink(used) };
    const row = await this.one(SIGN_IN_LINK_BY_HASH, [hash]);
    return { redeemed: false, link: row ? toSignInLink(row) : null };
  }

  async pruneSignInLinks(before: Date): Promise<number> {
    return this.changes(PRUNE_SIGN_IN_LINKS, [before]);
  }

  /**
   * A conditional increment, one statement per request: several instances count at once, so the check
   * is in the UPSERT's WHERE (SQLite, one writer, reads and sets the count for a whole turn instead).
   */
  async reserveRequest(accountId: string, periodStart: Date, limit: number): Promise<CounterResult> {
    if (limit > 0) {
      const row = await this.one(
        `INSERT INTO usage_counters AS c (account_id, period_start, used) VALUES ($1, $2, 1)
         ON CONFLICT (account_id, period_start) DO UPDATE SET used = c.used + 1 WHERE c.used < $3
         RETURNING used`,
        [accountId, periodStart, limit],
      );
      if (row) {
        const used = Number(row['used']);
        return { granted: true, used, remaining: remainingOf(limit, used) };
      }
    }
    const used = await this.getUsage(accountId, periodStart);
    return { granted: false, used, remaining: remainingOf(limit, used) };
  }

  async refundRequest(accountId: string, periodStart: Date, limit: number): Promise<CounterResult> {
    const row = await this.one(REFUND_REQUEST, [accountId, periodStart]);
    const used = row ? Number(row['used']) : await this.getUsage(accountId, periodStart);
    return { granted: row !== undefined, used, remaining: remainingOf(limit, used) };
  }

  /**
   * One statement: the counter row is updated only if the lease fits (a new row only when the whole
   * limit does), and the lease row is inserted only when the counter moved. (SQLite, which has no
   * data-modifying CTE, reads and writes in its batch's transaction instead.)
   */
  async takeLease(lease: LeaseRequest, now: Date): Promise<{ taken: boolean; used: number }> {
    await this.changes(PRUNE_LEASES, [now]);
    if (lease.units + lease.keepFree <= lease.limit) {
      const row = await this.one(
        `WITH counted AS (
           INSERT INTO usage_counters AS c (account_id, period_start, used) VALUES ($1, $2, $3)
           ON CONFLICT (account_id, period_start) DO UPDATE SET used = c.used + $3
             WHERE c.used + $3 + $4 <= $5
           RETURNING used
         ), leased AS (
           INSERT INTO allowance_leases (id, account_id, period_start, units, expires_at)
           SELECT $6, $1, $2, $3, $7 FROM counted
         )
         SELECT used FROM counted`,
        [
          lease.accountId,
          lease.periodStart,
          lease.units,
          lease.keepFree,
          lease.limit,
          lease.id,
          lease.expiresAt,
        ],
      );
      if (row) return { taken: true, used: Number(row['used']) };
    }
    return { taken: false, used: await this.getUsage(lease.accountId, lease.periodStart) };
  }

  /** One statement, so the lease ends and its unspent units return together (SQLite: its batch). */
  async settleLease(leaseId: string, accountId: string, periodStart: Date, unspent: number): Promise<void> {
    await this.pool.query(
      `WITH ended AS (DELETE FROM allowance_leases WHERE id = $1 RETURNING id)
       UPDATE usage_counters SET used = GREATEST(0, used - $4)
       WHERE account_id = $2 AND period_start = $3 AND $4 > 0 AND EXISTS (SELECT 1 FROM ended)`,
      [leaseId, accountId, periodStart, unspent],
    );
  }

  async getSettledUsage(accountId: string, periodStart: Date, now: Date): Promise<number> {
    const row = await this.one(SETTLED_USAGE, [accountId, periodStart, accountId, periodStart, now]);
    return Math.max(0, Number(row?.['used'] ?? 0));
  }

  async hasOpenLease(accountId: string, periodStart: Date, now: Date): Promise<boolean> {
    const row = await this.one(OPEN_LEASE, [accountId, periodStart, now]);
    return row !== undefined;
  }

  async getUsage(accountId: string, periodStart: Date): Promise<number> {
    const row = await this.one(USAGE, [accountId, periodStart]);
    return row ? Number(row['used']) : 0;
  }

  async setUsage(accountId: string, periodStart: Date, used: number): Promise<void> {
    await this.changes(SET_USAGE, [accountId, periodStart, used]);
  }

  async hitRateWindow(bucket: string, windowStart: Date, limit: number): Promise<RateWindowHit> {
    if (limit > 0) {
      const row = await this.one(HIT_RATE_WINDOW, [bucket, windowStart, limit]);
      if (row) return { allowed: true, count: Number(row['count']) };
    }
    const current = await this.one(RATE_WINDOW_COUNT, [bucket, windowStart]);
    return { allowed: false, count: current ? Number(current['count']) : 0 };
  }

  async pruneRateWindows(bucketPrefix: string, before: Date): Promise<number> {
    return this.changes(PRUNE_RATE_WINDOWS, [bucketPrefix.length, bucketPrefix, before]);
  }

  /**
   * One statement, atomic like the counters: on a conflict PostgreSQL locks the bucket's row and
   * evaluates the WHERE on its newest version, so concurrent hits from any process queue on the row
   * and the window never holds more than `limit`. The kept array is the window's hits plus this one.
   * (SQLite keeps the hits as JSON text and trims them in its batch: it has no array or time type.)
   */
  async hitRollingWindow(bucket: string, at: Date, since: Date, limit: number): Promise<RollingWindowHit> {
    if (limit > 0) {
      const row = await this.one(
        `INSERT INTO rolling_windows AS w (bucket, hits, last_hit) VALUES ($1, ARRAY[$2::timestamptz], $2)
         ON CONFLICT (bucket) DO UPDATE
           SET hits = ARRAY(SELECT h FROM unnest(w.hits || $2::timestamptz) AS h WHERE h > $3 ORDER BY h),
               last_hit = GREATEST(w.last_hit, $2)
           WHERE (SELECT count(*) FROM unnest(w.hits) AS h WHERE h > $3) < $4::integer
         RETURNING hits`,
        [bucket, at, since, limit],
      );
      if (row) return rollingWindowHit(true, hitsOf(row));
    }
    const current = await this.one(ROLLING_WINDOW_HITS, [bucket]);
    return rollingWindowHit(false, current ? hitsOf(current).filter((hit) => hit > since) : []);
  }

  async pruneRollingWindows(bucketPrefix: string, before: Date): Promise<number> {
    return this.changes(PRUNE_ROLLING_WINDOWS, [bucketPrefix.length, bucketPrefix, before]);
  }

  async getCachedCheck(key: string, now: Date): Promise<CachedCheck | null> {
    const row = await this.one(CACHED_CHECK, [key, now]);
    return row ? toCachedCheck(row) : null;
  }

  async putCachedCheck(entry: CachedCheck): Promise<void> {
    await this.changes(PUT_CACHED_CHECK, [entry.key, entry.body, entry.computedAt, entry.expiresAt]);
  }

  async pruneCachedChecks(now: Date): Promise<number> {
    return this.changes(PRUNE_CACHED_CHECKS, [now]);
  }

  async getOrCreateSalt(name: string, candidate: string, createdAt: Date): Promise<string> {
    // Two statements on purpose (see OFFER_SALT).
    await this.changes(OFFER_SALT, [name, candidate, createdAt]);
    const row = await this.one(SALT, [name]);
    return String(row!['value']);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

/** A `timestamptz[]` column: pg parses it to Dates; text elements are parsed for safety. */
function hitsOf(row: Row): Date[] {
  const hits = row['hits'];
  return Array.isArray(hits) ? hits.map(toDate) : [];
}
