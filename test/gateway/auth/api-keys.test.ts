import crypto from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cancelAccount, createAccount } from '../../../gateway/auth/accounts.js';
import { checksumOf, generateApiKey, visiblePrefix } from '../../../gateway/auth/api-key-format.js';
import {
  createApiKey,
  MAX_ACTIVE_KEYS,
  revokeApiKey,
  verifyApiKey,
  verifyApiKeyNow,
} from '../../../gateway/auth/api-keys.js';
import type { AuthDeps } from '../../../gateway/auth/auth-deps.js';
import {
  ActiveKeyLimitError,
  UnknownAccountError,
  UnknownKeyError,
} from '../../../gateway/auth/auth-errors.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';

describe.each(STATE_ENGINES)('API keys on $name', (engine) => {
  let store: TestStateStore;
  let state: GatewayState;
  let clock = new Date('2025-03-15T10:00:00Z');
  const deps = (): AuthDeps => ({ state, now: () => clock });

  beforeAll(async () => {
    store = await engine.start();
    state = await openGatewayState(store.url);
  });

  afterAll(async () => {
    await state?.close();
    await store?.stop();
  });

  afterEach(() => {
    vi.restoreAllMocks();
    clock = new Date('2025-03-15T10:00:00Z');
  });

  it('verifies a new key; a key differing in its last character fails its checksum, one with a matching checksum is unknown', async () => {
    const account = await createAccount(deps(), 'api');
    const { key, record } = await createApiKey(deps(), account.id);
    const verified = await verifyApiKey(deps(), key);
    expect(verified.ok && verified.key.id).toBe(record.id);
    const last = key.at(-1) === 'z' ? 'y' : 'z';
    expect(await verifyApiKey(deps(), key.slice(0, -1) + last)).toMatchObject({
      ok: false,
      reason: 'bad-checksum',
    });
    const other = generateApiKey().key;
    const forged = visiblePrefix(key) + other.slice(visiblePrefix(key).length, -6);
    const withChecksum = forged + checksumOf(forged.slice('sbm_live_'.length));
    expect(await verifyApiKey(deps(), withChecksum)).toMatchObject({ ok: false, reason: 'unknown' });
    expect(await verifyApiKey(deps(), 'sbm_live_short')).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('compares digests with crypto.timingSafeEqual', async () => {
    const account = await createAccount(deps(), 'api');
    const { key } = await createApiKey(deps(), account.id);
    const spy = vi.spyOn(crypto, 'timingSafeEqual');
    expect((await verifyApiKey(deps(), key)).ok).toBe(true);
    expect(spy).toHaveBeenCalled();
    const [a, b] = spy.mock.calls[0] ?? [];
    expect(Buffer.from(a as Uint8Array).toString('hex')).toBe(Buffer.from(b as Uint8Array).toString('hex'));
  });

  it('refuses a fourth active key with a clear error, and allows one again after a revocation', async () => {
    const account = await createAccount(deps(), 'api');
    const created = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) created.push(await createApiKey(deps(), account.id));
    const fourth = createApiKey(deps(), account.id);
    await expect(fourth).rejects.toBeInstanceOf(ActiveKeyLimitError);
    await expect(fourth).rejects.toThrow(/already has 3 active keys.*revoke one/);
    await revokeApiKey(deps(), created[0]!.record.id);
    await expect(createApiKey(deps(), account.id)).resolves.toBeDefined();
  });

  it('refuses keys for unknown accounts and revocation of unknown keys', async () => {
    await expect(createApiKey(deps(), 'acc_missing')).rejects.toBeInstanceOf(UnknownAccountError);
    await expect(revokeApiKey(deps(), 'key_missing')).rejects.toBeInstanceOf(UnknownKeyError);
  });

  it('fails a revoked key on its next request, also through another connection to the state', async () => {
    const other = await openGatewayState(store.url);
    try {
      const account = await createAccount(deps(), 'api');
      const { key, record } = await createApiKey(deps(), account.id);
      const elsewhere: AuthDeps = { state: other, now: () => clock };
      // Both connections have just read the key (and the SQLite state keeps what it read).
      expect((await verifyApiKey(elsewhere, key)).ok).toBe(true);
      expect((await verifyApiKey(deps(), key)).ok).toBe(true);
      await revokeApiKey(deps(), record.id);
      expect(await verifyApiKey(elsewhere, key)).toMatchObject({ ok: false, reason: 'revoked' });
      expect(await verifyApiKey(deps(), key)).toMatchObject({ ok: false, reason: 'revoked' });
    } finally {
      await other.close();
    }
  });

  it('answers a repeat key without waiting, as verifyApiKey does, until another connection revokes it', async () => {
    const other = await openGatewayState(store.url);
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    try {
      const account = await createAccount(deps(), 'api');
      const { key, record } = await createApiKey(deps(), account.id);
      const elsewhere: AuthDeps = { state: other, now: () => clock };
      // A key never matched here must be looked up, on every engine.
      expect(verifyApiKeyNow(elsewhere, key)).toBeUndefined();
      const verified = await verifyApiKey(elsewhere, key);
      expect(verified.ok).toBe(true);
      await nextTurn();
      // SQLite proves its cached rows current each turn; PostgreSQL is always asked.
      const cachedEngine = other.engine === 'sqlite';
      expect(verifyApiKeyNow(elsewhere, key)).toEqual(cachedEngine ? verified : undefined);
      await revokeApiKey(deps(), record.id);
      await nextTurn();
      // The commit on the other connection is seen at the turn's first lookup: read again, refused.
      expect(verifyApiKeyNow(elsewhere, key)).toBeUndefined();
      const refused = await verifyApiKey(elsewhere, key);
      expect(refused).toMatchObject({ ok: false, reason: 'revoked' });
      await nextTurn();
      expect(verifyApiKeyNow(elsewhere, key)).toEqual(cachedEngine ? refused : undefined);
    } finally {
      await other.close();
    }
  });

  it('fails an expired key', async () => {
    const account = await createAccount(deps(), 'api');
    const { key } = await createApiKey(deps(), account.id, { expiresAt: new Date('2025-03-16T00:00:00Z') });
    expect((await verifyApiKey(deps(), key)).ok).toBe(true);
    clock = new Date('2025-03-16T00:00:00Z');
    expect(await verifyApiKey(deps(), key)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('keeps a cancelled account working until its paid period ends, also when cancelled elsewhere', async () => {
    const other = await openGatewayState(store.url);
    try {
      const account = await createAccount(deps(), 'api');
      const { key } = await createApiKey(deps(), account.id);
      clock = new Date('2025-03-20T00:00:00Z');
      expect((await verifyApiKey(deps(), key)).ok).toBe(true);
      const cancelled = await cancelAccount({ state: other, now: () => clock }, account.id);
      expect(cancelled.accessEndsAt).toEqual(new Date('2025-04-15T10:00:00Z'));
      clock = new Date('2025-04-15T09:59:59Z');
      expect((await verifyApiKey(deps(), key)).ok).toBe(true);
      clock = new Date('2025-04-15T10:00:00Z');
      expect(await verifyApiKey(deps(), key)).toMatchObject({ ok: false, reason: 'account-inactive' });
    } finally {
      await other.close();
    }
  });

  it('stores only the hash: the plaintext key appears nowhere in the database', async () => {
    const account = await createAccount(deps(), 'api');
    const { key, record } = await createApiKey(deps(), account.id);
    const secretPart = key.slice(record.prefix.length);
    const contents = await databaseText(engine.name, store);
    expect(contents).toContain(record.hash);
    expect(contents).toContain(record.prefix);
    expect(contents).not.toContain(key);
    expect(contents).not.toContain(secretPart);
  });

  async function databaseText(kind: 'sqlite' | 'postgres', where: TestStateStore): Promise<string> {
    if (kind === 'sqlite') {
      // Every byte SQLite keeps: the main file plus the WAL and shared-memory files.
      const dir = dirname(where.sqlitePath!);
      const files = await readdir(dir);
      const buffers = await Promise.all(files.map((file) => readFile(`${dir}/${file}`)));
      return buffers.map((buffer) => buffer.toString('latin1')).join('\n');
    }
    const client = new pg.Client({ connectionString: where.url });
    await client.connect();
    try {
      const tables = await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`,
      );
      const parts: string[] = [];
      for (const { table_name } of tables.rows) {
        const rows = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${table_name}" t`);
        parts.push(...rows.rows.map((r) => r.row));
      }
      return parts.join('\n');
    } finally {
      await client.end();
    }
  }
});
