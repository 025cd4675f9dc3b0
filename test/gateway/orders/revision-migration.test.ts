/**
 * Migration 9 on a state written by the schema before it (migrations 1–8 only), on both engines: every
 * revision keeps its row and status (SQLite copies the table for the new status), the new columns start
 * empty, and the next fulfilment run does what was left: the built revision's email (it never had one) and
 * the deletion of the rejected revision's files; a run after that does nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import type { OutgoingMail } from '../../../gateway/orders/mailer.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { uploadKeyFor } from '../../../gateway/orders/pack-key.js';
import { MIGRATIONS, MIGRATIONS_TABLE } from '../../../gateway/state/migrations.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { FolderObjectStore } from '../../../pipeline/store/index.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { ORDER_SECRET } from './order-world.js';

const ID = `ord_${'c'.repeat(32)}`;
const AT = '2026-04-20T10:00:00.000Z';
const NOW = new Date('2026-04-21T10:00:00.000Z');

/** Runs statements on a state without opening it as the gateway does (which would migrate it). */
interface RawState {
  run(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

async function raw(store: TestStateStore): Promise<RawState> {
  if (store.sqlitePath) {
    const db = new Database(store.sqlitePath);
    return {
      run: async (sql, params = []) => {
        db.prepare(sql).run(...params);
      },
      close: async () => {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: store.url });
  await client.connect();
  return {
    run: async (sql, params = []) => {
      let n = 0;
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
    },
    close: () => client.end(),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(STATE_ENGINES)('migration 9 on a state with revisions ($name)', (engine) => {
  it('keeps every revision, and the next run emails the built one and deletes the rejected one’s files', async () => {
    const stateStore = await engine.start();
    const dir = await mkdtemp(join(tmpdir(), 'sbm-revision-migration-'));
    cleanups.push(async () => {
      await stateStore.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const store = new FolderObjectStore(dir);
    const rejectedFile = uploadKeyFor(ID, 'old-upload', 1);
    await store.put(rejectedFile, new TextEncoder().encode('time_utc,type\n'), 'text/csv');

    const old = await raw(stateStore);
    try {
      const sqlite = engine.name === 'sqlite';
      await old.run(
        `CREATE TABLE ${MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at ${sqlite ? 'TEXT NOT NULL' : 'timestamptz NOT NULL DEFAULT now()'})`,
      );
      for (const migration of MIGRATIONS.filter((m) => m.version <= 8)) {
        for (const statement of sqlite ? migration.sqlite : migration.postgres) await old.run(statement);
        await old.run(`INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)`, [
          migration.version,
          migration.name,
          AT,
        ]);
      }
      await old.run(
        `INSERT INTO orders (id, status, sku, pack_name, pack_kind, tax_year, coldkeys, amount_minor, currency,
           retention_days, origin, created_at, paid_at, buyer_email, fulfil_attempts, fulfilled_at, pack_key,
           pack_expires_at, emailed_at)
         VALUES (?, 'fulfilled', 'uk-2026-27', 'UK tax pack 2026/27', 'uk-tax-year', '2026/27', ?, 3900, 'gbp', 30,
           'checkout', ?, ?, 'buyer@example.com', 1, ?, ?, '2026-05-20T10:00:00.000Z', ?)`,
        [
          ID,
          sqlite
            ? JSON.stringify(['5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'])
            : ['5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'],
          AT,
          AT,
          AT,
          `tax-packs/${ID}.zip`,
          AT,
        ],
      );
      const files = (key: string) =>
        JSON.stringify([
          { name: 'old.csv', sha256: 'b'.repeat(64), rows: 1, role: 'records', key, bytes: 14 },
        ]);
      await old.run(
        `INSERT INTO order_revisions (order_id, version, status, created_at, files, attempts, built_at, pack_key)
         VALUES (?, 2, 'built', ?, ?, 1, ?, ?)`,
        [ID, AT, files(uploadKeyFor(ID, 'kept', 1)), AT, `tax-packs/${ID}.v2.zip`],
      );
      await old.run(
        `INSERT INTO order_revisions (order_id, version, status, created_at, files, problem, attempts)
         VALUES (?, 3, 'rejected', ?, ?, 'old.csv line 2: the sell empties the TAO pool below zero', 1)`,
        [ID, AT, files(rejectedFile)],
      );
      await old.run(
        'INSERT INTO order_retries (order_id, retried_at, attempts_before, error_before) VALUES (?, ?, 5, ?)',
        [ID, AT, 'Error: boom'],
      );
    } finally {
      await old.close();
    }

    const state = await openGatewayState(stateStore.url);
    try {
      const migrated = await state.orders.listRevisions(ID);
      expect(migrated).toMatchObject([
        { version: 2, status: 'built', emailedAt: null, filesDeletedAt: null, supersededBy: null },
        { version: 3, status: 'rejected', emailedAt: null, filesDeletedAt: null, supersededBy: null },
      ]);
      expect((await state.orders.orderHistory(ID)).retries).toMatchObject([
        { version: null, attemptsBefore: 5 },
      ]);

      const sent: OutgoingMail[] = [];
      const deps = {
        state,
        store,
        now: () => NOW,
        baseUrl: 'https://sbm.example',
        tokens: orderTokens(ORDER_SECRET),
        mailer: {
          description: 'memory',
          send: async (mail: OutgoingMail) => void sent.push(mail),
          close: () => {},
        },
        buildPack: async () => new Uint8Array(),
        maxAttempts: 5,
        alert: () => {},
      };
      const report = await runFulfilment(deps);
      expect(report.rejectedFilesDeleted).toEqual([{ id: ID, version: 3 }]);
      expect(report.revisionsEmailed).toEqual([{ id: ID, version: 2 }]);
      expect(sent.map((m) => m.key)).toEqual([`${ID}.v2`]);
      expect(await store.get(rejectedFile)).toBeNull();
      const again = await runFulfilment(deps);
      expect([...again.rejectedFilesDeleted, ...again.revisionsEmailed]).toEqual([]);
    } finally {
      await state.close();
    }
  });
});
