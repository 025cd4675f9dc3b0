/**
 * Spec 3.1 and 6: the payment webhook is the only writer of `paid`, the fulfilment job the only writer
 * of `fulfilled`. Proved over the source, in three links, each of which fails if someone adds a path:
 *  1. the only SQL in the shipped code that sets an order's status to `paid` is in the state's
 *     `markPaid`, and to `fulfilled` in its `completeFulfilment` (both engines); no other statement
 *     touches `orders.status`, and an order is inserted only as `created`;
 *  2. the only shipped module that calls `markPaid` is the webhook handler, and `completeFulfilment`
 *     the fulfilment job;
 *  3. the only shipped module that imports the webhook handler is the webhook route, and the
 *     fulfilment job the `orders fulfil` command.
 * Then, as a check of the claim from the outside, every other route and command runs against a
 * created and a paid order and neither moves.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../gateway/config.js';
import { catalogueWithPrices } from '../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../gateway/orders/create-order.js';
import { orderServicesFrom } from '../../gateway/orders/order-services.js';
import { orderTokens } from '../../gateway/orders/order-token.js';
import { StripeFake } from '../../pipeline/devnet/stripe/stripe-fake.js';
import {
  ALICE,
  NOW_MS,
  ORDER_SECRET,
  type OrderWorld,
  orderWorld,
  paidOrders,
  WEBHOOK_SECRET,
  WORLD_SKU,
} from '../gateway/orders/order-world.js';
import { runOrderCommand } from '../gateway/orders/run-order-command.js';
import { STATE_ENGINES, type TestStateStore } from '../gateway/state/state-engines.js';
import { gatewayUnderTest } from '../support/gateway-under-test.js';

const ROOT = new URL('../../', import.meta.url).pathname;

async function sourceFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(ts|sql)$/.test(entry.name)) files.set(relative(ROOT, path), await readFile(path, 'utf8'));
    }
  };
  await walk(join(ROOT, 'gateway'));
  await walk(join(ROOT, 'pipeline'));
  return files;
}

/** The text of a class method from its name to the next method (enough to place a statement in it). */
function methodBody(source: string, name: string): string {
  const start = source.indexOf(`async ${name}(`);
  if (start < 0) return '';
  const next = source.slice(start + 1).search(/\n {2}(async )?[a-zA-Z]+\(/);
  return next < 0 ? source.slice(start) : source.slice(start, start + 1 + next);
}

describe('who writes paid and fulfilled (source)', () => {
  let files: Map<string, string>;
  const engines = ['gateway/state/sqlite-order-state.ts', 'gateway/state/postgres-order-state.ts'];

  beforeAll(async () => {
    files = await sourceFiles();
  });

  it('only markPaid sets status paid and only completeFulfilment sets fulfilled, in both engines', () => {
    // Every `UPDATE <table> SET status = '<value>'` of the orders table, or of any table to paid/fulfilled.
    const setsStatus = /UPDATE\s+(\w+)\s+SET\s+status\s*=\s*'(\w+)'/g;
    const writers: string[] = [];
    for (const [path, text] of files) {
      for (const [, table, value] of text.matchAll(setsStatus)) {
        if (table === 'orders' || value === 'paid' || value === 'fulfilled')
          writers.push(`${path}: ${value}`);
      }
      // Any other way of writing the column: a bound value, or status set later in the SET list.
      expect(text, path).not.toMatch(/UPDATE\s+orders\s+SET[^;`]*status\s*=\s*[$?]/);
      expect(text, path).not.toMatch(/UPDATE\s+orders\s+SET[^;`]*,\s*status\s*=/);
    }
    expect(writers.sort()).toEqual(engines.flatMap((path) => [`${path}: fulfilled`, `${path}: paid`]).sort());
    for (const path of engines) {
      const text = files.get(path)!;
      expect(methodBody(text, 'markPaid')).toMatch(/SET status = 'paid'/);
      expect(methodBody(text, 'completeFulfilment')).toMatch(/SET status = 'fulfilled'/);
      // An order is inserted only as created.
      const inserts = [...text.matchAll(/INSERT INTO orders[\s\S]*?VALUES \(([^)]*)\)/g)].map((m) => m[1]);
      expect(inserts).toHaveLength(1);
      expect(inserts[0]).toMatch(/'created'/);
    }
  });

  it('only the webhook handler calls markPaid and only the fulfilment job calls completeFulfilment', () => {
    const callers = (method: string) =>
      [...files].filter(([, text]) => text.includes(`.${method}(`)).map(([path]) => path);
    expect(callers('markPaid')).toEqual(['gateway/orders/stripe-webhook.ts']);
    expect(callers('completeFulfilment')).toEqual(['gateway/orders/fulfilment-job.ts']);
  });

  it('only the webhook route reaches the handler and only `orders fulfil` reaches the job', () => {
    const importers = (module: string) =>
      [...files].filter(([, text]) => text.includes(`/${module}.js'`)).map(([path]) => path);
    expect(importers('orders/stripe-webhook')).toEqual(['gateway/routes/stripe-webhook.ts']);
    expect(importers('orders/fulfilment-job')).toEqual(['gateway/commands/orders.ts']);
    expect(files.get('gateway/commands/orders.ts')!.match(/runFulfilment\(/g)).toHaveLength(1);
    const fulfil = files.get('gateway/commands/orders.ts')!;
    const fulfilCommand = fulfil.slice(
      fulfil.indexOf(".command('fulfil')"),
      fulfil.indexOf(".command('purge')"),
    );
    expect(fulfilCommand).toContain('runFulfilment(');
  });
});

describe('who writes paid and fulfilled (behaviour)', () => {
  let world: OrderWorld;
  let stateStore: TestStateStore;
  let fake: StripeFake;

  beforeAll(async () => {
    world = await orderWorld();
    stateStore = await STATE_ENGINES[0]!.start();
    fake = new StripeFake();
    await fake.listen();
  }, 300_000);

  afterAll(async () => {
    await fake?.close();
    await stateStore?.stop();
    await world?.close();
  });

  it('leaves created and paid orders as they are through every other route and command', async () => {
    const config = loadGatewayConfig({
      SBM_STATE_URL: stateStore.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_ORDER_SECRET: ORDER_SECRET,
      STRIPE_SECRET_KEY: 'sk_test_writers',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      SBM_OUTBOX_DIR: world.outboxDir,
    });
    const gw = await gatewayUnderTest({
      storeDir: world.storeDir,
      stateUrl: stateStore.url,
      nowMs: NOW_MS,
      baseUrl: 'https://sbm.example',
      orders: orderServicesFrom(config.orders, world.store, () => {}),
    });
    const tokens = orderTokens(ORDER_SECRET);
    const now = () => new Date(gw.clock.nowMs);
    try {
      const created = await createOrder(
        { state: gw.state, now },
        checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [ALICE]),
        'checkout',
      );
      const [paid] = await paidOrders(gw.state, 1, now());
      const before = await Promise.all([created.id, paid!].map((id) => gw.state.orders.getOrder(id)));

      let ip = 0;
      for (const id of [created.id, paid!]) {
        for (const path of [`/tax/orders/${id}`, `/tax/orders/${id}/pack`]) {
          await gw.get(`${path}?t=${tokens.tokenFor(id)}`, {}, `192.0.2.${++ip}`);
          await gw.get(path, {}, `192.0.2.${++ip}`);
          await gw.app.fetch(
            new Request(`https://sbm.example${path}?t=${tokens.tokenFor(id)}`, { method: 'HEAD' }),
            {
              ip: `192.0.2.${++ip}`,
            },
          );
        }
      }
      await gw.app.fetch(
        new Request('https://sbm.example/tax/checkout', {
          method: 'POST',
          body: JSON.stringify({ sku: WORLD_SKU, coldkeys: [ALICE] }),
        }),
        { ip: '192.0.2.200' },
      );
      await gw.get('/tax/openapi.json');
      for (const args of [
        ['orders', 'list', '--json'],
        ['orders', 'list', '--status', 'paid', '--stuck'],
        ['orders', 'create', '--coldkey', ALICE, '--sku', 'uk-2026-27'],
        ['orders', 'purge', '--as-of', '2030-01-01T00:00:00Z'],
        ['skus', 'list'],
      ]) {
        await runOrderCommand(config, now, ...args);
      }
      const after = await Promise.all([created.id, paid!].map((id) => gw.state.orders.getOrder(id)));
      expect(after.map((o) => o?.status)).toEqual(['created', 'paid']);
      expect(after).toEqual(before);
    } finally {
      await gw.close();
    }
  });
});
