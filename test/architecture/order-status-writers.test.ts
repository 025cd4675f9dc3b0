/**
 * Spec 3.1 and 6: the payment webhook is the only writer of `paid`, the fulfilment job the only writer
 * of `fulfilled`. Proved over the source, in three links, each of which fails if someone adds a path:
 *  1. the only SQL in the shipped code that sets an order's status to `paid` is one text of the orders'
 *     statements, run by the state's `markPaid` only, and to `fulfilled` one run by its
 *     `completeFulfilment` only (both engines); no other statement touches `orders.status`, and an
 *     order is inserted only as `created`;
 *  2. the only shipped module that calls `markPaid` is the webhook handler, and `completeFulfilment`
 *     the fulfilment job;
 *  3. the only shipped modules that import the webhook handler are the webhook route and `orders
 *     reconcile` (the same events, pulled from Stripe's API), and the fulfilment job the `orders fulfil`
 *     command.
 * Then, as a check of the claim from the outside, every other route of the gateway's route table and
 * every other command of its command tree (both walked, not listed) runs against a created, a paid and a
 * stuck paid order, and none moves.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_COMMANDS } from '../../gateway/command-groups.js';
import { accountsCommand } from '../../gateway/commands/accounts.js';
import { keysCommand } from '../../gateway/commands/keys.js';
import { type OrderCommandIo, ordersCommand, processOrderIo } from '../../gateway/commands/orders.js';
import { sessionsCommand } from '../../gateway/commands/sessions.js';
import { skusCommand } from '../../gateway/commands/skus.js';
import { stripeCommand } from '../../gateway/commands/stripe.js';
import { type GatewayConfig, loadGatewayConfig } from '../../gateway/config.js';
import { catalogueWithPrices } from '../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../gateway/orders/create-order.js';
import { orderServicesFrom } from '../../gateway/orders/order-services.js';
import { orderTokens } from '../../gateway/orders/order-token.js';
import { commandsAsked } from '../../pipeline/command-line.js';
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

/** The text of an exported constant, from its name to the end of its statement. */
function constantText(source: string, name: string): string {
  const start = source.indexOf(`export const ${name} =`);
  if (start < 0) return '';
  return source.slice(start, source.indexOf(';\n', start));
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
  /** Where the statements both engines run are written, once. */
  const statements = 'gateway/state/order-statements.ts';

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
    expect(writers.sort()).toEqual([`${statements}: fulfilled`, `${statements}: paid`]);
    const shared = files.get(statements)!;
    expect(constantText(shared, 'MARK_ORDER_PAID')).toMatch(/SET status = 'paid'/);
    expect(constantText(shared, 'COMPLETE_FULFILMENT')).toMatch(/SET status = 'fulfilled'/);
    // Each of the two is named only by the engines, each of which imports it and runs it in one method.
    for (const [constant, method] of [
      ['MARK_ORDER_PAID', 'markPaid'],
      ['COMPLETE_FULFILMENT', 'completeFulfilment'],
    ] as const) {
      const named = new RegExp(`\\b${constant}\\b`);
      const users = [...files].filter(([path, text]) => path !== statements && named.test(text));
      expect(users.map(([path]) => path).sort()).toEqual([...engines].sort());
      for (const path of engines) {
        const text = files.get(path)!;
        expect(text.match(new RegExp(named.source, 'g'))).toHaveLength(2);
        expect(methodBody(text, method)).toMatch(named);
      }
    }
    // An order is inserted only as created, by one statement that both engines run.
    const inserts = (text: string) =>
      [...text.matchAll(/INSERT INTO orders[\s\S]*?VALUES \(([^)]*)\)/g)].map((m) => m[1]);
    expect(inserts(shared)).toHaveLength(1);
    expect(inserts(shared)[0]).toMatch(/'created'/);
    for (const path of engines) expect(inserts(files.get(path)!), path).toEqual([]);
  });

  it('only the webhook handler calls markPaid and only the fulfilment job calls completeFulfilment', () => {
    const callers = (method: string) =>
      [...files].filter(([, text]) => text.includes(`.${method}(`)).map(([path]) => path);
    expect(callers('markPaid')).toEqual(['gateway/orders/stripe-webhook.ts']);
    expect(callers('completeFulfilment')).toEqual(['gateway/orders/fulfilment-job.ts']);
  });

  it('only the webhook route reaches the handler and only `orders fulfil` reaches the job', () => {
    // `../orders/x.js` from another folder, or `./x.js` beside it.
    const importers = (module: string) => {
      const [dir, name] = module.split('/');
      return [...files]
        .filter(
          ([path, text]) =>
            text.includes(`/${module}.js'`) ||
            (path.startsWith(`gateway/${dir}/`) && text.includes(`'./${name}.js'`)),
        )
        .map(([path]) => path);
    };
    // Stripe's checkout.session.completed comes pushed (the webhook route) or pulled (`orders reconcile`),
    // and both hand it to the same handler.
    expect(importers('orders/stripe-webhook').sort()).toEqual([
      'gateway/orders/reconcile-payments.ts',
      'gateway/routes/stripe-webhook.ts',
    ]);
    expect(importers('orders/reconcile-payments')).toEqual(['gateway/commands/orders-reconcile.ts']);
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

/**
 * The sanctioned writers, each with its reason; every other route of the gateway's route table and every
 * other command of its command tree runs in the behaviour test below. The lists of what runs are derived
 * (the route table, the command tree), so a route or command added later runs there without being named.
 */
const WRITER_ROUTES = new Map([['POST /tax/webhooks/stripe', 'the webhook route: the one writer of paid']]);
const WRITER_COMMANDS = new Map([
  ['orders fulfil', 'the fulfilment job: the one writer of fulfilled'],
  ['stripe simulate-payment', 'sends a signed payment event to the webhook route, the one writer of paid'],
  ['orders reconcile', "passes Stripe's paid sessions through the webhook's handler, the one writer of paid"],
]);
/** The command builders gateway/cli.ts mounts, besides `serve` (it serves the route table walked below). */
const BUILDERS: Record<string, (config: GatewayConfig, io: OrderCommandIo) => Command> = {
  accountsCommand,
  keysCommand,
  sessionsCommand,
  ordersCommand,
  skusCommand,
  stripeCommand,
};

/** Every command of the tree without subcommands, as its words (`orders retry`). */
function leafCommands(command: Command, words: string[] = []): string[] {
  if (command.commands.length === 0) return [words.join(' ')];
  return command.commands.flatMap((sub) => leafCommands(sub, [...words, sub.name()]));
}

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

  it('knows every command gateway/cli.ts mounts', async () => {
    const config = loadGatewayConfig({});
    const mounted = await commandsAsked([], GATEWAY_COMMANDS, config);
    const known = Object.values(BUILDERS).map((build) => build(config, processOrderIo).name());
    expect(mounted.map((command) => command.name()).sort()).toEqual([...known, 'serve'].sort());
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
    const outputs: string[] = [];
    const io: OrderCommandIo = {
      out: (text) => outputs.push(text),
      now,
      alert: () => {},
      stopped: () => new Promise(() => {}),
    };
    /** One command line, in-process as gateway/cli.ts mounts it; its output, or its refusal. */
    const runCommand = async (args: string[]): Promise<string> => {
      const program = new Command('sbm-gateway');
      for (const build of Object.values(BUILDERS)) program.addCommand(build(config, io));
      const quiet = (command: Command) => {
        command.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
        for (const sub of command.commands) quiet(sub);
      };
      quiet(program);
      outputs.length = 0;
      try {
        await program.parseAsync(args, { from: 'user' });
        return outputs.join('\n');
      } catch (error) {
        return `refused: ${error instanceof Error ? error.message : String(error)}`;
      }
    };
    try {
      const created = await createOrder(
        { state: gw.state, now },
        checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [ALICE]),
        'checkout',
      );
      // The stuck order: paid, its pack failed the maximum number of times (`orders retry` requeues it).
      const [stuck] = await paidOrders(gw.state, 1, now());
      const max = config.orders.fulfilMaxAttempts;
      for (let i = 0; i < max; i++) {
        const claim = { worker: `w${i}`, now: now(), leaseUntil: new Date(gw.clock.nowMs + 60_000) };
        const taken = await gw.state.orders.claimForFulfilment({ ...claim, maxAttempts: max });
        expect(taken?.id).toBe(stuck);
        await gw.state.orders.releaseLease(stuck!, claim.worker, 'pack build failed', now());
      }
      const [paid] = await paidOrders(gw.state, 1, now());
      const ids = [created.id, paid!, stuck!];
      const before = await Promise.all(ids.map((id) => gw.state.orders.getOrder(id)));
      expect(before.map((o) => o?.status)).toEqual(['created', 'paid', 'paid']);

      // Every route of the table, for each order where the path names one (with its token, with a wrong
      // one and with none), with no credential and with an API key.
      const { key } = await gw.apiKey();
      const walked = new Set<string>();
      let ip = 0;
      for (const { method, path } of gw.app.routes) {
        if (WRITER_ROUTES.has(`${method} ${path}`)) continue;
        walked.add(`${method} ${path}`);
        const forOrders = path.includes(':order_id') ? ids : [created.id];
        for (const id of forOrders) {
          const url = path.replace(':order_id', id).replace(/:\w+/g, '1');
          for (const query of ['', `?t=${tokens.tokenFor(id)}`, `?t=${tokens.tokenFor(paid!)}x`]) {
            for (const headers of [{}, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
              const body =
                method !== 'POST'
                  ? undefined
                  : path === '/tax/checkout'
                    ? JSON.stringify({ sku: WORLD_SKU, coldkeys: [ALICE] })
                    : `order=${id}&email=buyer%40example.com&token=x&csrf=x&form=x&name=x&grace=0`;
              const response = await gw.app.fetch(
                new Request(`https://sbm.example${url}${query}`, { method, headers, body }),
                { ip: `192.0.2.${(ip++ % 250) + 1}` },
              );
              await response.arrayBuffer();
            }
          }
        }
      }
      expect(walked.size).toBe(gw.app.routes.length - WRITER_ROUTES.size);
      const statuses = async () =>
        (await Promise.all(ids.map((id) => gw.state.orders.getOrder(id)))).map((o) => o?.status);
      expect(await statuses(), 'after every route').toEqual(['created', 'paid', 'paid']);

      // Every command of the tree but the writers, with the arguments it needs.
      const tree = new Command('sbm-gateway');
      for (const build of Object.values(BUILDERS)) tree.addCommand(build(config, io));
      const idOf = (out: string) => (JSON.parse(out) as { id: string }).id;
      const ran = new Map<string, string[]>();
      const run = async (leaf: string, ...args: string[]) => {
        const out = await runCommand([...leaf.split(' '), ...args]);
        ran.set(leaf, [...(ran.get(leaf) ?? []), out]);
        return out;
      };
      const apiAccount = idOf(await run('accounts create', '--plan', 'api', '--json'));
      const subscriber = idOf(await run('accounts create', '--plan', 'subscriber', '--json'));
      await run('accounts list', '--json');
      await run('accounts show', apiAccount);
      const keyId = idOf(await run('keys create', '--account', apiAccount, '--json'));
      await run('keys list', '--account', apiAccount);
      await run('keys revoke', keyId);
      const session = idOf(await run('sessions create', '--account', subscriber, '--json'));
      await run('sessions revoke', session);
      await run('accounts cancel', subscriber);
      await run('orders create', '--coldkey', ALICE, '--sku', WORLD_SKU);
      await run('orders list', '--json');
      await run('orders list', '--status', 'paid', '--stuck');
      for (const id of ids) {
        await run('orders show', id, '--json');
        await run('orders retry', id);
      }
      await run('orders purge', '--as-of', '2030-01-01T00:00:00Z');
      await run('skus list');
      expect(await statuses(), 'after every command').toEqual(['created', 'paid', 'paid']);
      expect([...ran.keys(), ...WRITER_COMMANDS.keys()].sort()).toEqual(leafCommands(tree).sort());
      // Each command did its work, but the retries of the created and the paid order: refused, where the
      // stuck one was requeued.
      const refused = [...ran].flatMap(([leaf, outs]) =>
        outs.filter((o) => o.startsWith('refused')).map((o) => `${leaf}: ${o}`),
      );
      expect(refused).toEqual([
        expect.stringMatching(/^orders retry: refused: order \S+ is not stuck: it is not paid/),
        expect.stringMatching(/^orders retry: refused: order \S+ is not stuck: it has had 0 of \d+ tries/),
      ]);
      expect(ran.get('orders retry')!.map((out) => out.split(':')[0])).toEqual([
        'refused',
        'refused',
        expect.stringContaining('is back in the queue'),
      ]);

      // The created and the paid order are exactly as they were (the stuck one's tries were reset).
      const after = await Promise.all(ids.map((id) => gw.state.orders.getOrder(id)));
      expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    } finally {
      await gw.close();
    }
  });
});
