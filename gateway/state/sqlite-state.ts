import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
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
import { SqlBillingState } from './sql-billing-state.js';
import { sqliteRunner } from './sql-runner.js';
import { SqliteOrderState } from './sqlite-order-state.js';
import { SqliteTurnBatch } from './sqlite-turn-batch.js';
import { SchemaVersionError } from './state-errors.js';
import {
  type Row,
  rollingWindowHit,
  toAccount,
  toCachedCheck,
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
 * The embedded state: one SQLite file in WAL mode, so readers never block the writer and several
 * processes on one machine may share it. Every counter update is a single UPSERT statement, which
 * SQLite runs under its database write lock, so check-and-count is atomic across processes too.
 * better-sqlite3 is synchronous; the statements of the request path are grouped per event-loop turn
 * into one transaction (`SqliteTurnBatch`), the rest run as they come.
 */
export function openSqliteState(path: string): GatewayState {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // Another process may hold the write lock for a moment; wait for it instead of failing.
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return new SqliteState(db);
}

function migrate(db: Database.Database): void {
  // The ledger in SQLite's types; PostgreSQL's has timestamptz and a default (see postgres-state.ts).
  db.exec(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  // IMMEDIATE takes the write lock first, so two processes starting together apply each version once.
  db.transaction(() => {
    const row = db.prepare(LATEST_MIGRATION).get() as { v: number | null };
    const current = row.v ?? 0;
    const known = MIGRATIONS.at(-1)?.version ?? 0;
    if (current > known) {
      throw new SchemaVersionError(
        `state schema is at version ${current}; this gateway knows up to ${known}`,
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      for (const statement of migration.sqlite) db.exec(statement);
      // The time from this process: SQLite has no time type to give the column a default.
      db.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)`).run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }
  }).immediate();
}

const iso = (date: Date): string => date.toISOString();
/** Far above any real number of keys; a bound all the same, since the cache lives in memory. */
const MAX_CACHED_PREFIXES = 10_000;
const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

class SqliteState implements GatewayState {
  readonly engine = 'sqlite' as const;
  readonly orders: OrderState;
  readonly billing: BillingState;

  /** Compiled statements by SQL text: every keyed request runs the same few, so compile each once. */
  private readonly statements = new Map<string, Database.Statement>();

  /** The request path's statements (keys, sessions, counters), one transaction per event-loop turn. */
  private readonly batch: SqliteTurnBatch;

  /**
   * Key candidates by prefix, as last read. Keys and accounts change only through statements run
   * outside the request batches (the operator's commands, on this connection or another), so the
   * cache is dropped when this connection runs any such statement, and at the start of a batch when
   * `PRAGMA data_version` shows a commit by another connection since the last batch. Each batch holds
   * the write lock, so nothing can commit between that check and the batch's reads: a key revoked
   * anywhere fails on its next request, as without the cache. Only keys that exist are kept.
   * A lookup whose prefix is cached does not wait for the batch: `PRAGMA data_version` is read once
   * per event-loop turn, at its first lookup, and a commit by another connection seen there drops the
   * cache as above; a revocation committed before the turn began is always seen (the batch's
   * transaction per turn was most of a keyed request's state cost once the allowance was leased).
   */
  private readonly candidates = new Map<string, KeyCandidate[]>();
  private dataVersion: unknown = null;
  /** Whether this turn's lookups have read `PRAGMA data_version` yet. */
  private versionReadThisTurn = false;
  private readonly dataVersionStatement: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.dataVersionStatement = db.prepare('PRAGMA data_version').pluck();
    this.batch = new SqliteTurnBatch(db, () => this.dropCandidatesIfChangedElsewhere());
    this.orders = new SqliteOrderState(db);
    // Billing writes to accounts (paid periods) and api_keys (a roll's expiry) drop the key cache.
    this.billing = new SqlBillingState(sqliteRunner(db, () => this.candidates.clear()));
  }

  private dropCandidatesIfChangedElsewhere(): void {
    const version = this.dataVersionStatement.get();
    if (version !== this.dataVersion) this.candidates.clear();
    this.dataVersion = version;
  }

  private statement(sql: string): Database.Statement {
    if (!this.batch.running) this.candidates.clear();
    let compiled = this.statements.get(sql);
    if (!compiled) {
      compiled = this.db.prepare(sql);
      this.statements.set(sql, compiled);
    }
    return compiled;
  }

  private one(sql: string, ...params: unknown[]): Row | undefined {
    return this.statement(sql).get(...params) as Row | undefined;
  }

  private all(sql: string, ...params: unknown[]): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  async createAccount(account: NewAccount): Promise<Account> {
    const row = this.one(
      INSERT_ACCOUNT,
      account.id,
      account.plan,
      iso(account.createdAt),
      iso(account.periodAnchor),
    );
    return toAccount(row!);
  }

  async getAccount(id: string): Promise<Account | null> {
    const row = this.one(ACCOUNT_BY_ID, id);
    return row ? toAccount(row) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return this.all(ALL_ACCOUNTS).map(toAccount);
  }

  async cancelAccount(id: string, cancelledAt: Date, accessEndsAt: Date): Promise<Account | null> {
    this.statement(CANCEL_ACCOUNT).run(iso(cancelledAt), iso(accessEndsAt), id);
    return this.getAccount(id);
  }

  async insertKeyWithinLimit(key: ApiKeyRecord, maxActive: number, now: Date): Promise<InsertKeyResult> {
    // IMMEDIATE: the count and the insert happen under the write lock, so no other writer interleaves
    // (SQLite locks the whole database; PostgreSQL locks the account's row instead).
    const insert = this.db.transaction((): InsertKeyResult => {
      if (!this.one(ACCOUNT_BY_ID, key.accountId)) {
        return { inserted: false, reason: 'unknown-account', activeKeys: 0 };
      }
      const counted = this.one(COUNT_ACTIVE_KEYS, key.accountId, iso(now));
      const activeKeys = Number(counted?.['n'] ?? 0);
      if (activeKeys >= maxActive) return { inserted: false, reason: 'limit', activeKeys };
      const row = this.one(
        INSERT_KEY,
        key.id,
        key.accountId,
        key.prefix,
        key.hash,
        iso(key.createdAt),
        isoOrNull(key.revokedAt),
        isoOrNull(key.expiresAt),
      );
      return { inserted: true, key: toKey(row!) };
    });
    return insert.immediate();
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    const row = this.one(KEY_BY_ID, id);
    return row ? toKey(row) : null;
  }

  findKeyCandidatesNow(prefix: string): KeyCandidate[] | undefined {
    if (!this.versionReadThisTurn) {
      this.versionReadThisTurn = true;
      setImmediate(() => {
        this.versionReadThisTurn = false;
      });
      this.dropCandidatesIfChangedElsewhere();
    }
    return this.candidates.get(prefix);
  }

  findKeyCandidates(prefix: string): Promise<KeyCandidate[]> {
    const known = this.findKeyCandidatesNow(prefix);
    if (known) return Promise.resolve(known);
    return this.batch.run(() => {
      const cached = this.candidates.get(prefix);
      if (cached) return cached;
      const found = this.all(KEY_CANDIDATES, prefix).map(toKeyCandidate);
      if (found.length > 0) {
        if (this.candidates.size >= MAX_CACHED_PREFIXES) this.candidates.clear();
        this.candidates.set(prefix, found);
      }
      return found;
    });
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.all(KEYS_OF_ACCOUNT, accountId).map(toKey);
  }

  async revokeKey(id: string, revokedAt: Date): Promise<ApiKeyRecord | null> {
    this.statement(REVOKE_KEY).run(iso(revokedAt), id);
    return this.getKey(id);
  }

  async insertSession(session: SessionRecord): Promise<SessionRecord> {
    const row = this.one(
      INSERT_SESSION,
      session.id,
      session.accountId,
      session.hash,
      iso(session.createdAt),
      iso(session.expiresAt),
      isoOrNull(session.revokedAt),
    );
    return toSession(row!);
  }

  findSessionByHash(hash: string): Promise<SessionRecord | null> {
    return this.batch.run(() => {
      const row = this.one(SESSION_BY_HASH, hash);
      return row ? toSession(row) : null;
    });
  }

  async revokeSession(id: string, revokedAt: Date): Promise<SessionRecord | null> {
    this.statement(REVOKE_SESSION).run(iso(revokedAt), id);
    const row = this.one(SESSION_BY_ID, id);
    return row ? toSession(row) : null;
  }

  async insertSignInLink(link: SignInLinkRecord): Promise<SignInLinkRecord> {
    const row = this.one(
      INSERT_SIGN_IN_LINK,
      link.id,
      link.accountId,
      link.hash,
      link.sessionDays,
      iso(link.createdAt),
      iso(link.expiresAt),
      isoOrNull(link.usedAt),
    );
    return toSignInLink(row!);
  }

  async redeemSignInLink(hash: string, now: Date): Promise<SignInLinkRedemption> {
    // One statement under SQLite's write lock: a second redemption (this process or another) finds
    // used_at set and changes nothing.
    const used = this.one(REDEEM_SIGN_IN_LINK, iso(now), hash, iso(now));
    if (used) return { redeemed: true, link: toSignInLink(used) };
    const row = this.one(SIGN_IN_LINK_BY_HASH, hash);
    return { redeemed: false, link: row ? toSignInLink(row) : null };
  }

  async pruneSignInLinks(before: Date): Promise<number> {
    return this.statement(PRUNE_SIGN_IN_LINKS).run(iso(before)).changes;
  }

  /**
   * The reservations one turn makes for one account and period share one read and one write (see
   * `SqliteTurnBatch.runShared`): under the batch's write lock, the n callers get exactly what n
   * single-row UPSERTs in a row would have given them, the first ones granted up to the limit. So the
   * count is read and set here (`SET_USAGE`), where PostgreSQL runs a conditional increment per request.
   */
  reserveRequest(accountId: string, periodStart: Date, limit: number): Promise<CounterResult> {
    return this.batch.runShared(`${accountId} ${periodStart.getTime()} ${limit}`, (callers) => {
      const period = iso(periodStart);
      const before = this.usage(accountId, period);
      const granted = Math.min(callers, Math.max(0, limit - before));
      if (granted > 0) {
        this.statement(SET_USAGE).run(accountId, period, before + granted);
      }
      return Array.from({ length: callers }, (_, i): CounterResult => {
        const used = before + Math.min(i + 1, granted);
        return { granted: i < granted, used, remaining: remainingOf(limit, used) };
      });
    });
  }

  refundRequest(accountId: string, periodStart: Date, limit: number): Promise<CounterResult> {
    return this.batch.run((): CounterResult => {
      const period = iso(periodStart);
      const row = this.one(REFUND_REQUEST, accountId, period);
      const used = row ? Number(row['used']) : this.usage(accountId, period);
      return { granted: row !== undefined, used, remaining: remainingOf(limit, used) };
    });
  }

  getUsage(accountId: string, periodStart: Date): Promise<number> {
    return this.batch.run(() => this.usage(accountId, iso(periodStart)));
  }

  getSettledUsage(accountId: string, periodStart: Date, now: Date): Promise<number> {
    return this.batch.run(() => {
      const period = iso(periodStart);
      const row = this.one(SETTLED_USAGE, accountId, period, accountId, period, iso(now));
      return Math.max(0, Number(row?.['used'] ?? 0));
    });
  }

  /**
   * Read, check and write in the turn's batch, under the write lock; PostgreSQL does the same in one
   * statement (a data-modifying CTE, which SQLite does not have).
   */
  takeLease(lease: LeaseRequest, now: Date): Promise<{ taken: boolean; used: number }> {
    return this.batch.run(() => {
      this.statement(PRUNE_LEASES).run(iso(now));
      const period = iso(lease.periodStart);
      const before = this.usage(lease.accountId, period);
      if (before + lease.units + lease.keepFree > lease.limit) return { taken: false, used: before };
      this.statement(SET_USAGE).run(lease.accountId, period, before + lease.units);
      this.statement(
        'INSERT INTO allowance_leases (id, account_id, period_start, units, expires_at) VALUES (?, ?, ?, ?, ?)',
      ).run(lease.id, lease.accountId, period, lease.units, iso(lease.expiresAt));
      return { taken: true, used: before + lease.units };
    });
  }

  /** Two statements in the batch: PostgreSQL's one-statement form is a data-modifying CTE. */
  settleLease(leaseId: string, accountId: string, periodStart: Date, unspent: number): Promise<void> {
    return this.batch.run(() => {
      const ended = this.statement('DELETE FROM allowance_leases WHERE id = ?').run(leaseId);
      if (ended.changes === 0 || unspent <= 0) return;
      // SQLite's two-argument MAX is PostgreSQL's GREATEST.
      this.statement(
        `UPDATE usage_counters SET used = MAX(0, used - ?) WHERE account_id = ? AND period_start = ?`,
      ).run(unspent, accountId, iso(periodStart));
    });
  }

  hasOpenLease(accountId: string, periodStart: Date, now: Date): Promise<boolean> {
    return this.batch.run(() => this.one(OPEN_LEASE, accountId, iso(periodStart), iso(now)) !== undefined);
  }

  private usage(accountId: string, period: string): number {
    const row = this.one(USAGE, accountId, period);
    return row ? Number(row['used']) : 0;
  }

  async setUsage(accountId: string, periodStart: Date, used: number): Promise<void> {
    this.statement(SET_USAGE).run(accountId, iso(periodStart), used);
  }

  hitRateWindow(bucket: string, windowStart: Date, limit: number): Promise<RateWindowHit> {
    return this.batch.run((): RateWindowHit => {
      const start = iso(windowStart);
      if (limit > 0) {
        const row = this.one(HIT_RATE_WINDOW, bucket, start, limit);
        if (row) return { allowed: true, count: Number(row['count']) };
      }
      const current = this.one(RATE_WINDOW_COUNT, bucket, start);
      return { allowed: false, count: current ? Number(current['count']) : 0 };
    });
  }

  async pruneRateWindows(bucketPrefix: string, before: Date): Promise<number> {
    return this.statement(PRUNE_RATE_WINDOWS).run(bucketPrefix.length, bucketPrefix, iso(before)).changes;
  }

  /*
   * The methods below run in the turn's batch like the request path's other statements: under its
   * write lock (a rolling window's read-modify-write is atomic across processes), and without
   * dropping the key cache, which statements outside a batch do.
   */

  hitRollingWindow(bucket: string, at: Date, since: Date, limit: number): Promise<RollingWindowHit> {
    return this.batch.run((): RollingWindowHit => {
      const row = this.one(ROLLING_WINDOW_HITS, bucket);
      const after = iso(since);
      // ISO-8601 texts of one format compare like the times they name.
      const hits = row ? (JSON.parse(String(row['hits'])) as string[]).filter((hit) => hit > after) : [];
      const allowed = limit > 0 && hits.length < limit;
      if (allowed) {
        hits.push(iso(at));
        hits.sort();
        // The hits as a JSON array of ISO texts (SQLite has no array or time type); PostgreSQL keeps a
        // timestamptz[] and trims it in its statement.
        this.statement(
          `INSERT INTO rolling_windows (bucket, hits, last_hit) VALUES (?, ?, ?)
           ON CONFLICT (bucket) DO UPDATE SET hits = excluded.hits, last_hit = excluded.last_hit`,
        ).run(bucket, JSON.stringify(hits), hits.at(-1));
      }
      return rollingWindowHit(
        allowed,
        hits.map((hit) => new Date(hit)),
      );
    });
  }

  pruneRollingWindows(bucketPrefix: string, before: Date): Promise<number> {
    return this.batch.run(
      () => this.statement(PRUNE_ROLLING_WINDOWS).run(bucketPrefix.length, bucketPrefix, iso(before)).changes,
    );
  }

  getCachedCheck(key: string, now: Date): Promise<CachedCheck | null> {
    return this.batch.run(() => {
      const row = this.one(CACHED_CHECK, key, iso(now));
      return row ? toCachedCheck(row) : null;
    });
  }

  putCachedCheck(entry: CachedCheck): Promise<void> {
    return this.batch.run(() => {
      this.statement(PUT_CACHED_CHECK).run(
        entry.key,
        entry.body,
        iso(entry.computedAt),
        iso(entry.expiresAt),
      );
    });
  }

  pruneCachedChecks(now: Date): Promise<number> {
    return this.batch.run(() => this.statement(PRUNE_CACHED_CHECKS).run(iso(now)).changes);
  }

  getOrCreateSalt(name: string, candidate: string, createdAt: Date): Promise<string> {
    return this.batch.run(() => {
      this.statement(OFFER_SALT).run(name, candidate, iso(createdAt));
      return String(this.one(SALT, name)!['value']);
    });
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    this.batch.flush();
    this.db.close();
  }
}
