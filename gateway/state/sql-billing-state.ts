import type {
  AccountSessionRecord,
  BillingState,
  CheckoutClaim,
  CheckoutClaimResult,
  EmailTokenRecord,
  EmailTokenRedemption,
  KeyDetails,
  KeyEvent,
  KeyEventKind,
  KeyUsageDay,
  SubscriptionRecord,
} from './billing-state.js';
import type { Account } from './gateway-state.js';
import type { SqlRunner } from './sql-runner.js';
import { type Row, toAccount, toDate, toDateOrNull } from './state-rows.js';

/**
 * The billing state on either engine: every statement here is one text for both (see sql-runner.ts).
 * Each guarded change is a single statement (`ON CONFLICT`, a conditional `UPDATE ... RETURNING`),
 * which both engines run atomically, so the guards hold across processes and gateway instances.
 */
export class SqlBillingState implements BillingState {
  constructor(private readonly sql: SqlRunner) {}

  private async one(sql: string, params: unknown[]): Promise<Row | undefined> {
    return (await this.sql.all(sql, params))[0];
  }

  async insertEmailToken(token: EmailTokenRecord): Promise<EmailTokenRecord> {
    const row = await this.one(
      `INSERT INTO email_sign_in_tokens (id, email, hash, created_at, expires_at, used_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
      [token.id, token.email, token.hash, token.createdAt, token.expiresAt, token.usedAt],
    );
    return toEmailToken(row!);
  }

  async redeemEmailToken(hash: string, now: Date): Promise<EmailTokenRedemption> {
    const used = await this.one(
      `UPDATE email_sign_in_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING *`,
      [now, hash, now],
    );
    if (used) return { redeemed: true, token: toEmailToken(used) };
    const row = await this.one('SELECT * FROM email_sign_in_tokens WHERE hash = ?', [hash]);
    return { redeemed: false, token: row ? toEmailToken(row) : null };
  }

  pruneEmailTokens(before: Date): Promise<number> {
    return this.sql.run('DELETE FROM email_sign_in_tokens WHERE expires_at < ?', [before]);
  }

  async getAccountByEmail(email: string): Promise<Account | null> {
    const row = await this.one('SELECT * FROM accounts WHERE email = ?', [email]);
    return row ? toAccount(row) : null;
  }

  async findOrCreateEmailAccount(email: string, newId: string, now: Date): Promise<Account> {
    await this.sql.run(
      `INSERT INTO accounts (id, plan, status, created_at, period_anchor, email, billing)
       VALUES (?, 'api', 'active', ?, ?, ?, 'stripe') ON CONFLICT (email) DO NOTHING`,
      [newId, now, now, email],
    );
    return (await this.getAccountByEmail(email))!;
  }

  async insertAccountSession(session: AccountSessionRecord): Promise<AccountSessionRecord> {
    const row = await this.one(
      `INSERT INTO account_sessions (id, account_id, hash, created_at, expires_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
      [session.id, session.accountId, session.hash, session.createdAt, session.expiresAt, session.revokedAt],
    );
    return toAccountSession(row!);
  }

  async findAccountSessionByHash(hash: string): Promise<AccountSessionRecord | null> {
    const row = await this.one('SELECT * FROM account_sessions WHERE hash = ?', [hash]);
    return row ? toAccountSession(row) : null;
  }

  async revokeAccountSession(id: string, at: Date): Promise<void> {
    await this.sql.run('UPDATE account_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [
      at,
      id,
    ]);
  }

  revokeAccountSessions(accountId: string, at: Date): Promise<number> {
    return this.sql.run(
      'UPDATE account_sessions SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL',
      [at, accountId],
    );
  }

  async putKeyDetails(details: KeyDetails): Promise<void> {
    await this.sql.run(
      `INSERT INTO key_details (key_id, name, last_four, grace_ends_at, last_used_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key_id) DO UPDATE SET name = excluded.name, last_four = excluded.last_four,
         grace_ends_at = excluded.grace_ends_at`,
      [details.keyId, details.name, details.lastFour, details.graceEndsAt, details.lastUsedAt],
    );
  }

  async listKeyDetails(accountId: string): Promise<KeyDetails[]> {
    const rows = await this.sql.all(
      `SELECT d.* FROM key_details d JOIN api_keys k ON k.id = d.key_id WHERE k.account_id = ?
       ORDER BY k.created_at, k.id`,
      [accountId],
    );
    return rows.map((row) => ({
      keyId: String(row['key_id']),
      name: String(row['name']),
      lastFour: String(row['last_four']),
      graceEndsAt: toDateOrNull(row['grace_ends_at']),
      lastUsedAt: toDateOrNull(row['last_used_at']),
    }));
  }

  async expireKeyAt(keyId: string, expiresAt: Date): Promise<void> {
    await this.sql.run(
      `UPDATE api_keys SET expires_at = ? WHERE id = ? AND revoked_at IS NULL
         AND (expires_at IS NULL OR expires_at > ?)`,
      [expiresAt, keyId, expiresAt],
    );
    await this.sql.run('UPDATE key_details SET grace_ends_at = ? WHERE key_id = ?', [expiresAt, keyId]);
  }

  async recordKeyUse(keyId: string, accountId: string, day: string, at: Date, used = 1): Promise<void> {
    await this.sql.run(
      `INSERT INTO key_usage_days (key_id, account_id, day, used) VALUES (?, ?, ?, ?)
       ON CONFLICT (key_id, day) DO UPDATE SET used = key_usage_days.used + excluded.used`,
      [keyId, accountId, day, used],
    );
    await this.sql.run(
      'UPDATE key_details SET last_used_at = ? WHERE key_id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
      [at, keyId, at],
    );
  }

  async keyUsage(accountId: string, fromDay: string): Promise<KeyUsageDay[]> {
    const rows = await this.sql.all(
      'SELECT key_id, day, used FROM key_usage_days WHERE account_id = ? AND day >= ? ORDER BY day, key_id',
      [accountId, fromDay],
    );
    return rows.map((row) => ({
      keyId: String(row['key_id']),
      day: String(row['day']),
      used: Number(row['used']),
    }));
  }

  async insertKeyEvent(event: KeyEvent): Promise<void> {
    await this.sql.run(
      'INSERT INTO key_events (id, account_id, key_id, kind, key_prefix, ip, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [event.id, event.accountId, event.keyId, event.kind, event.keyPrefix, event.ip, event.at],
    );
  }

  async listKeyEvents(accountId: string, limit: number): Promise<KeyEvent[]> {
    const rows = await this.sql.all(
      'SELECT * FROM key_events WHERE account_id = ? ORDER BY at DESC, id DESC LIMIT ?',
      [accountId, limit],
    );
    return rows.map((row) => ({
      id: String(row['id']),
      accountId: String(row['account_id']),
      keyId: String(row['key_id']),
      kind: String(row['kind']) as KeyEventKind,
      keyPrefix: String(row['key_prefix']),
      ip: row['ip'] === null || row['ip'] === undefined ? null : String(row['ip']),
      at: toDate(row['at']),
    }));
  }

  async getCustomerId(accountId: string): Promise<string | null> {
    const row = await this.one('SELECT customer_id FROM stripe_customers WHERE account_id = ?', [accountId]);
    return row ? String(row['customer_id']) : null;
  }

  async putCustomerId(accountId: string, customerId: string, at: Date): Promise<string> {
    await this.sql.run(
      `INSERT INTO stripe_customers (account_id, customer_id, created_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO NOTHING`,
      [accountId, customerId, at],
    );
    return (await this.getCustomerId(accountId))!;
  }

  async accountIdOfCustomer(customerId: string): Promise<string | null> {
    const row = await this.one('SELECT account_id FROM stripe_customers WHERE customer_id = ?', [customerId]);
    return row ? String(row['account_id']) : null;
  }

  async claimCheckout(accountId: string, now: Date, expiresAt: Date): Promise<CheckoutClaimResult> {
    const taken = await this.one(
      `INSERT INTO subscription_checkouts (account_id, claimed_at, expires_at, session_id, url)
       VALUES (?, ?, ?, NULL, NULL)
       ON CONFLICT (account_id) DO UPDATE SET claimed_at = excluded.claimed_at,
         expires_at = excluded.expires_at, session_id = NULL, url = NULL
       WHERE subscription_checkouts.expires_at <= ?
       RETURNING account_id`,
      [accountId, now, expiresAt, now],
    );
    if (taken) return { claimed: true };
    const row = await this.one('SELECT * FROM subscription_checkouts WHERE account_id = ?', [accountId]);
    return { claimed: false, claim: toClaim(row!) };
  }

  async setCheckoutSession(accountId: string, sessionId: string, url: string): Promise<void> {
    await this.sql.run('UPDATE subscription_checkouts SET session_id = ?, url = ? WHERE account_id = ?', [
      sessionId,
      url,
      accountId,
    ]);
  }

  async releaseCheckout(accountId: string): Promise<void> {
    await this.sql.run('DELETE FROM subscription_checkouts WHERE account_id = ?', [accountId]);
  }

  async upsertSubscription(s: SubscriptionRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO subscriptions (id, account_id, customer_id, status, current_period_start,
         current_period_end, cancel_at_period_end, canceled_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status,
         current_period_start = excluded.current_period_start,
         current_period_end = excluded.current_period_end,
         cancel_at_period_end = excluded.cancel_at_period_end, canceled_at = excluded.canceled_at,
         updated_at = excluded.updated_at`,
      [
        s.id,
        s.accountId,
        s.customerId,
        s.status,
        s.currentPeriodStart,
        s.currentPeriodEnd,
        s.cancelAtPeriodEnd,
        s.canceledAt,
        s.updatedAt,
      ],
    );
  }

  async listSubscriptions(accountId: string): Promise<SubscriptionRecord[]> {
    const rows = await this.sql.all(
      `SELECT * FROM subscriptions WHERE account_id = ?
       ORDER BY current_period_end DESC, updated_at DESC, id`,
      [accountId],
    );
    return rows.map((row) => ({
      id: String(row['id']),
      accountId: String(row['account_id']),
      customerId: String(row['customer_id']),
      status: String(row['status']),
      currentPeriodStart: toDateOrNull(row['current_period_start']),
      currentPeriodEnd: toDateOrNull(row['current_period_end']),
      cancelAtPeriodEnd: row['cancel_at_period_end'] === true || Number(row['cancel_at_period_end']) === 1,
      canceledAt: toDateOrNull(row['canceled_at']),
      updatedAt: toDate(row['updated_at']),
    }));
  }

  async extendPaidPeriod(accountId: string, start: Date, end: Date): Promise<Account | null> {
    await this.sql.run(
      `UPDATE accounts SET paid_period_start = ?, paid_period_end = ?
       WHERE id = ? AND (paid_period_end IS NULL OR paid_period_end < ?)`,
      [start, end, accountId, end],
    );
    const row = await this.one('SELECT * FROM accounts WHERE id = ?', [accountId]);
    return row ? toAccount(row) : null;
  }

  async recordStripeEvent(eventId: string, eventType: string, at: Date): Promise<boolean> {
    const inserted = await this.one(
      `INSERT INTO stripe_events (event_id, event_type, received_at) VALUES (?, ?, ?)
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [eventId, eventType, at],
    );
    return inserted !== undefined;
  }

  async forgetStripeEvent(eventId: string): Promise<void> {
    await this.sql.run('DELETE FROM stripe_events WHERE event_id = ?', [eventId]);
  }
}

function toEmailToken(row: Row): EmailTokenRecord {
  return {
    id: String(row['id']),
    email: String(row['email']),
    hash: String(row['hash']),
    createdAt: toDate(row['created_at']),
    expiresAt: toDate(row['expires_at']),
    usedAt: toDateOrNull(row['used_at']),
  };
}

function toAccountSession(row: Row): AccountSessionRecord {
  return {
    id: String(row['id']),
    accountId: String(row['account_id']),
    hash: String(row['hash']),
    createdAt: toDate(row['created_at']),
    expiresAt: toDate(row['expires_at']),
    revokedAt: toDateOrNull(row['revoked_at']),
  };
}

function toClaim(row: Row): CheckoutClaim {
  return {
    accountId: String(row['account_id']),
    claimedAt: toDate(row['claimed_at']),
    expiresAt: toDate(row['expires_at']),
    sessionId:
      row['session_id'] === null || row['session_id'] === undefined ? null : String(row['session_id']),
    url: row['url'] === null || row['url'] === undefined ? null : String(row['url']),
  };
}
