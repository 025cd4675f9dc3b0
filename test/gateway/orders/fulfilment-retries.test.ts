import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import { type Mailer, smtpMailer } from '../../../gateway/orders/mailer.js';
import type { OrderAlert } from '../../../gateway/orders/order-alerts.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { buildPack } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { NOW_MS, ORDER_SECRET, type OrderWorld, orderWorld, paidOrders } from './order-world.js';
import { runOrderCommand } from './run-order-command.js';

let world: OrderWorld;
let packChain: PackChain;
let stateStore: TestStateStore;
let state: GatewayState;
const clock = { ms: NOW_MS };
const now = () => new Date(clock.ms);
const MINUTE = 60_000;

beforeAll(async () => {
  world = await orderWorld();
  packChain = openPackChain(world.chainUrl);
  stateStore = await STATE_ENGINES[0]!.start();
  state = await openGatewayState(stateStore.url);
}, 300_000);

afterAll(async () => {
  await state?.close();
  await stateStore?.stop();
  await packChain?.close();
  await world?.close();
});

function job(options: {
  build: 'fails' | 'works';
  maxAttempts: number;
  mailer?: Mailer;
  alerts?: OrderAlert[];
}) {
  const sent: string[] = [];
  const mailer: Mailer = options.mailer ?? {
    description: 'memory',
    send: async (mail) => {
      sent.push(mail.key);
    },
    close: () => {},
  };
  return {
    sent,
    run: () =>
      runFulfilment({
        state,
        store: world.store,
        now,
        baseUrl: 'https://sbm.example',
        tokens: orderTokens(ORDER_SECRET),
        mailer,
        buildPack:
          options.build === 'works'
            ? (order) => buildPack(order, { store: world.store, chain: packChain.reader })
            : async () => {
                throw new Error('the published run cannot be read');
              },
        maxAttempts: options.maxAttempts,
        alert: (alert) => options.alerts?.push(alert),
      }),
  };
}

it('retries a failing build after 1, then 2 minutes, and reports it stuck after the last try', async () => {
  const [id] = await paidOrders(state, 1, now());
  const alerts: OrderAlert[] = [];
  const failing = job({ build: 'fails', maxAttempts: 3, alerts });

  expect((await failing.run()).failed).toEqual([
    { id, error: 'Error: the published run cannot be read', stuck: false },
  ]);
  expect(await state.orders.getOrder(id!)).toMatchObject({
    status: 'paid',
    fulfilAttempts: 1,
    nextAttemptAt: new Date(NOW_MS + MINUTE),
    lastError: 'Error: the published run cannot be read',
    leaseOwner: null,
  });
  clock.ms = NOW_MS + MINUTE - 1;
  expect((await failing.run()).failed).toEqual([]);
  clock.ms = NOW_MS + MINUTE;
  expect((await failing.run()).failed).toHaveLength(1);
  expect((await state.orders.getOrder(id!))?.nextAttemptAt).toEqual(new Date(NOW_MS + 3 * MINUTE));
  clock.ms = NOW_MS + 3 * MINUTE;
  expect((await failing.run()).failed).toEqual([{ id, error: expect.any(String), stuck: true }]);
  clock.ms = NOW_MS + 60 * MINUTE;
  expect((await failing.run()).failed).toEqual([]);
  expect(alerts.map((a) => a.event)).toEqual(['pack-build-failed', 'pack-build-failed', 'pack-stuck']);
  expect(alerts[2]).toMatchObject({ level: 'alert', order_id: id, attempts: 3 });

  const config = loadGatewayConfig({
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${world.storeDir}`,
    SBM_CHAIN_URL: world.chainUrl,
    SBM_FULFIL_MAX_ATTEMPTS: '3',
  });
  const stuck = await runOrderCommand(config, now, 'orders', 'list', '--status', 'paid', '--stuck');
  expect(stuck.out).toContain(id);
  expect(stuck.out).toContain('tries 3/3');
  expect(stuck.out).toContain('last error: Error: the published run cannot be read');
  expect(stuck.out).toContain('STUCK');
  const json = JSON.parse(
    (await runOrderCommand(config, now, 'orders', 'list', '--stuck', '--json')).out,
  ) as {
    id: string;
    stuck: boolean;
    has_email: boolean;
  }[];
  expect(json.map((o) => [o.id, o.stuck, o.has_email])).toEqual([[id, true, true]]);
  expect(JSON.stringify(json)).not.toContain('buyer@example.com');

  // An operator raises the limit (or fixes the cause): the next run builds it.
  const fixed = job({ build: 'works', maxAttempts: 4 });
  const report = await fixed.run();
  expect(report.fulfilled).toEqual([id]);
  expect(fixed.sent).toEqual([id]);
  const none = await runOrderCommand(config, now, 'orders', 'list', '--status', 'paid', '--stuck');
  expect(none.out.trim()).toBe('no orders');
});

it('retries a failed delivery ten minutes later without touching the fulfilled order', async () => {
  clock.ms = NOW_MS + 2 * 60 * MINUTE;
  const [id] = await paidOrders(state, 1, now());
  let down = true;
  const sent: string[] = [];
  const mailer: Mailer = {
    description: 'flaky',
    send: async (mail) => {
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:587');
      sent.push(mail.key);
    },
    close: () => {},
  };
  const flaky = job({ build: 'works', maxAttempts: 5, mailer });
  const first = await flaky.run();
  expect(first.fulfilled).toEqual([id]);
  expect(first.mailFailed).toEqual([{ id, error: 'Error: connect ECONNREFUSED 127.0.0.1:587' }]);
  expect(await state.orders.getOrder(id!)).toMatchObject({ status: 'fulfilled', emailedAt: null });
  down = false;
  expect((await flaky.run()).emailed).toEqual([]);
  clock.ms += 10 * MINUTE;
  expect((await flaky.run()).emailed).toEqual([id]);
  expect(sent).toEqual([id]);
  expect((await state.orders.getOrder(id!))?.emailedAt).toEqual(now());
});

it("keeps the buyer's email out of the alert line and last_error when the SMTP server refuses it", async () => {
  clock.ms = NOW_MS + 4 * 60 * MINUTE;
  const [id] = await paidOrders(state, 1, now());
  // A real SMTP server that refuses the recipient, quoting the address as servers do.
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(Object.assign(new Error(`<${address.address}>: mailbox unavailable`), { responseCode: 550 }));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  const alerts: OrderAlert[] = [];
  const mailer = smtpMailer(`smtp://user:s3cret@127.0.0.1:${port}`, 'Packs <packs@sbm.example>');
  try {
    const result = await job({ build: 'works', maxAttempts: 5, mailer, alerts }).run();
    expect(result.mailFailed.map((f) => f.id)).toEqual([id]);
    const logged = JSON.stringify({ alerts, result, order: await state.orders.getOrder(id!) });
    expect(logged).toContain('mailbox unavailable');
    // The buyer's address is in the order until the purge, and nowhere else.
    const lastError = (await state.orders.getOrder(id!))?.lastError ?? '';
    expect(lastError).toContain('<email>');
    expect(lastError).not.toContain('buyer@example.com');
    expect(JSON.stringify({ alerts, result })).not.toMatch(/buyer@example\.com|s3cret/);
  } finally {
    mailer.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
