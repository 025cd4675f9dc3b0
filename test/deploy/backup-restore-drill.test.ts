/**
 * The restore drill of docs/operating.md ("Restoring state"), with the real commands on
 * both state engines: SQLite's `.backup` / `.restore` (the sqlite3 CLI; better-sqlite3's online backup
 * where the CLI is missing) and `pg_dump` / `pg_restore` against the real PostgreSQL (skipped, saying
 * why, when none answers). Orders are paid through the gateway's webhook over HTTP by the Stripe
 * stand-in; then the state is backed up, more orders are paid (one of them fulfilled and emailed, one
 * whose webhook never came), a key is issued, and the old backup is restored. After
 * `orders reconcile` and `orders fulfil`, every paid order exists, is fulfilled exactly once (a second
 * pass changes nothing, a pack stored before the restore is kept, not rebuilt) and its buyer's link
 * works; the key issued after the backup is gone, the report says from when the state dates and for
 * which account to reissue, and a key reissued so works.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayConfig, loadGatewayConfig } from '../../gateway/config.js';
import { orderServicesFrom } from '../../gateway/orders/order-services.js';
import { orderTokens } from '../../gateway/orders/order-token.js';
import { StripeFake } from '../../pipeline/devnet/stripe/stripe-fake.js';
import {
  ALICE,
  BOB,
  CHARLIE,
  NOW_MS,
  ORDER_SECRET,
  type OrderWorld,
  orderWorld,
  WEBHOOK_SECRET,
  WORLD_SKU,
} from '../gateway/orders/order-world.js';
import { runOrderCommand } from '../gateway/orders/run-order-command.js';
import { type GatewayUnderTest, gatewayUnderTest } from '../support/gateway-under-test.js';

const run = promisify(execFile);
const BASE = 'https://sbm.example';
const tokens = orderTokens(ORDER_SECRET);
const PG_BASE = process.env['TEST_DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';

async function hasCommand(name: string): Promise<boolean> {
  return run('sh', ['-c', `command -v ${name}`]).then(
    () => true,
    () => false,
  );
}

/** A state and the real commands that back it up and restore it, as docs/operating.md gives them. */
interface DrillStore {
  url: string;
  backup(file: string): Promise<string>;
  restore(file: string): Promise<string>;
  stop(): Promise<void>;
}

async function sqliteStore(dir: string): Promise<DrillStore> {
  const path = join(dir, 'gateway.sqlite');
  const cli = await hasCommand('sqlite3');
  return {
    url: `sqlite:${path}`,
    async backup(file) {
      if (cli) {
        await run('sqlite3', [path, `.backup '${file}'`]);
        return `sqlite3 ${path} ".backup '${file}'"`;
      }
      const db = new Database(path);
      await db.backup(file);
      db.close();
      return 'better-sqlite3 backup()';
    },
    async restore(file) {
      if (cli) {
        await run('sqlite3', [path, `.restore '${file}'`]);
        return `sqlite3 ${path} ".restore '${file}'"`;
      }
      await rm(`${path}-wal`, { force: true });
      await rm(`${path}-shm`, { force: true });
      await copyFile(file, path);
      return 'copy';
    },
    stop: async () => {},
  };
}

/** A fresh schema on the real server; null (with why) when none answers or the tools are missing. */
async function postgresStore(): Promise<DrillStore | string> {
  if (!(await hasCommand('pg_dump')) || !(await hasCommand('pg_restore')))
    return 'pg_dump/pg_restore not installed';
  const admin = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    await admin.end().catch(() => {});
    return `PostgreSQL at ${PG_BASE.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')} is not reachable: ${String(error)}`;
  }
  const schema = `drill_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(PG_BASE);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async backup(file) {
      await run('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${file}`, PG_BASE]);
      return `pg_dump --format=custom --schema=${schema} --file=${file}`;
    },
    async restore(file) {
      await run('pg_restore', ['--clean', '--if-exists', `--dbname=${PG_BASE}`, file]);
      return `pg_restore --clean --if-exists --dbname=… ${file}`;
    },
    async stop() {
      const drop = new pg.Client({ connectionString: PG_BASE });
      await drop.connect();
      await drop.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await drop.end();
    },
  };
}

let world: OrderWorld;

beforeAll(async () => {
  world = await orderWorld();
}, 300_000);

afterAll(async () => {
  await world?.close();
});

describe.each(['sqlite', 'postgres'] as const)('the restore drill on %s', (engine) => {
  let dir: string;
  let store: DrillStore | null = null;
  let skipped: string | null = null;
  let fake: StripeFake;
  let gw: GatewayUnderTest | null = null;
  let config: GatewayConfig;
  const clock = { nowMs: NOW_MS };
  const now = () => new Date(clock.nowMs);

  const startGatewayOn = async () => {
    gw = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: store!.url,
      nowMs: NOW_MS,
      clock,
      baseUrl: BASE,
      transport: 'http',
      orders: orderServicesFrom(config.orders, world.store, () => {}),
    });
    fake.setWebhook(`${gw.url}/tax/webhooks/stripe`, WEBHOOK_SECRET);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `sbm-drill-${engine}-`));
    const made = engine === 'sqlite' ? await sqliteStore(dir) : await postgresStore();
    if (typeof made === 'string') {
      skipped = made;
      return;
    }
    store = made;
    fake = new StripeFake({ now: () => clock.nowMs });
    await fake.listen();
    config = loadGatewayConfig({
      SBM_STATE_URL: store.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_CHAIN_URL: world.chainUrl,
      SBM_BASE_URL: BASE,
      SBM_ORDER_SECRET: ORDER_SECRET,
      STRIPE_SECRET_KEY: 'sk_test_drill',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      SBM_OUTBOX_DIR: join(dir, 'outbox'),
    });
    await startGatewayOn();
  }, 300_000);

  afterAll(async () => {
    await gw?.close();
    await fake?.close();
    await store?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A buyer checks out; `pay`: on Stripe's page with the webhook delivered, or with it lost. */
  async function buy(coldkeys: string[], pay: 'webhook' | 'webhook-lost'): Promise<string> {
    const response = await fetch(`${gw!.url}/tax/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku: WORLD_SKU, coldkeys }),
    });
    expect(response.status).toBe(201);
    const { order_id } = (await response.json()) as { order_id: string };
    const session = fake.sessions().find((s) => s.client_reference_id === order_id)!;
    if (pay === 'webhook') {
      await fake.paySession(session.id, `${order_id.slice(4, 12)}@buyers.example`);
      expect((await gw!.state.orders.getOrder(order_id))?.status).toBe('paid');
    } else {
      fake.completeSession(session.id, `${order_id.slice(4, 12)}@buyers.example`);
    }
    return order_id;
  }

  const fulfil = () => runOrderCommand(config, now, 'orders', 'fulfil');
  const packStatus = async (id: string) =>
    (await fetch(`${gw!.url}/tax/orders/${id}/pack?t=${tokens.tokenFor(id)}`)).status;
  const keyStatus = async (key: string) =>
    (await fetch(`${gw!.url}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).status;

  it('backs up, pays more, restores the old backup: reconcile brings every paid order back, fulfilled once, its link working', async (context) => {
    if (skipped) {
      console.warn(`restore drill on ${engine} skipped: ${skipped}`);
      context.skip();
    }
    // Before the backup: one order paid and fulfilled; an operator's account with a key.
    const before = await buy([ALICE], 'webhook');
    expect((await fulfil()).out).toContain(`fulfilled ${before}`);
    const { key: keptKey, accountId } = await gw!.apiKey();

    clock.nowMs += 3_600_000;
    const backupFile = join(dir, engine === 'sqlite' ? 'gateway-backup.sqlite' : 'gateway-backup.dump');
    const backedUpWith = await store!.backup(backupFile);
    expect(backedUpWith).toMatch(engine === 'sqlite' ? /\.backup|backup\(\)/ : /pg_dump/);

    // After the backup: three more paid orders (one fulfilled and emailed, one paid, one whose
    // webhook never came), a key issued.
    clock.nowMs += 3_600_000;
    const fulfilledAfter = await buy([BOB], 'webhook');
    const firstRun = await fulfil();
    expect(firstRun.out).toContain(`fulfilled ${fulfilledAfter}`);
    expect(firstRun.out).toContain(`emailed ${fulfilledAfter}`);
    const paidAfter = await buy([CHARLIE, ALICE], 'webhook');
    const lostWebhook = await buy([BOB, CHARLIE], 'webhook-lost');
    const keys = await runOrderCommandKeys(config, now, accountId);
    expect(await keyStatus(keys.key)).toBe(200);
    const paid = [before, fulfilledAfter, paidAfter, lostWebhook];

    // The disk is lost: stop the gateway, restore the old backup, start it again.
    clock.nowMs += 3_600_000;
    await gw!.close();
    gw = null;
    const restoredWith = await store!.restore(backupFile);
    expect(restoredWith).toMatch(engine === 'sqlite' ? /\.restore|copy/ : /pg_restore/);
    await startGatewayOn();
    expect((await gw!.state.orders.listOrders()).map((o) => o.id)).toEqual([before]);

    // Reconcile makes every order paid after the backup again, with its id; a second run changes nothing.
    const reconciled = await runOrderCommand(config, now, 'orders', 'reconcile', '--after-restore');
    for (const id of [fulfilledAfter, paidAfter, lostWebhook])
      expect(reconciled.out).toContain(`remade-and-paid ${id}`);
    expect(reconciled.out).toMatch(/0 paid now, 3 made again and paid, 1 already paid/);
    const again = await runOrderCommand(config, now, 'orders', 'reconcile');
    expect(again.out).toMatch(/0 paid now, 0 made again and paid, 4 already paid/);

    // Fulfilled exactly once: the pack stored before the restore is kept, not rebuilt; a second pass
    // does nothing; every buyer's link works.
    const built = await fulfil();
    for (const id of [fulfilledAfter, paidAfter, lostWebhook]) expect(built.out).toContain(`fulfilled ${id}`);
    expect(built.out).toContain(`(kept the pack already stored for ${fulfilledAfter})`);
    expect(built.out).not.toContain(`fulfilled ${before}`);
    const second = await fulfil();
    for (const id of paid) expect(second.out).not.toContain(id);
    for (const id of paid) {
      const order = await gw!.state.orders.getOrder(id);
      expect(order?.status, id).toBe('fulfilled');
      expect(order?.buyerEmail, id).toBe(`${id.slice(4, 12)}@buyers.example`);
      expect(await packStatus(id), id).toBe(200);
    }

    // The key issued after the backup is gone (the one from before works): reconcile lists what to reissue.
    expect(await keyStatus(keptKey)).toBe(200);
    expect(await keyStatus(keys.key)).toBe(401);
    const restorePoint =
      /newest record is from (\S+): keys and sessions issued after \S+ are not in this state/.exec(
        reconciled.out,
      );
    expect(restorePoint).not.toBeNull();
    // The restore point is before the backup (made at NOW + 1 h), not after it (writes from NOW + 2 h on).
    expect(Date.parse(restorePoint![1]!)).toBeLessThanOrEqual(NOW_MS + 3_600_000);
    expect(reconciled.out).toMatch(new RegExp(`account ${accountId} \\(api\\): 1 active key in the state`));
    // Reissued as the report says: the new key works.
    const reissued = await runOrderCommandKeys(config, now, accountId);
    expect(await keyStatus(reissued.key)).toBe(200);
  }, 600_000);
});

/** `keys create --account ID --json`, as the operator runs it: the key issued after the backup. */
async function runOrderCommandKeys(
  config: GatewayConfig,
  now: () => Date,
  accountId: string,
): Promise<{ key: string }> {
  const { Command } = await import('commander');
  const { keysCommand } = await import('../../gateway/commands/keys.js');
  const lines: string[] = [];
  const program = new Command('sbm-gateway')
    .exitOverride()
    .addCommand(keysCommand(config, { out: (text) => lines.push(text), now }));
  await program.parseAsync(['keys', 'create', '--account', accountId, '--json'], { from: 'user' });
  return JSON.parse(lines.join('\n')) as { key: string };
}
