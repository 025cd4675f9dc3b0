/**
 * `sbm-gateway orders show` and `orders retry` as support uses them, on both state engines: a paid order
 * whose pack build keeps failing gets stuck, support reads its history, fixes the cause, puts it back
 * once (a second retry changes nothing), and the next fulfilment run builds the real pack.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayConfig, loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import type { Mailer } from '../../../gateway/orders/mailer.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { buildPack } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { ALICE, NOW_MS, ORDER_SECRET, type OrderWorld, orderWorld, paidOrders } from './order-world.js';
import { runOrderCommand } from './run-order-command.js';

const MINUTE = 60_000;
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const execFileAsync = promisify(execFile);
let world: OrderWorld;
let packChain: PackChain;

beforeAll(async () => {
  world = await orderWorld();
  packChain = openPackChain(world.chainUrl);
});

afterAll(async () => {
  await packChain?.close();
  await world?.close();
});

describe.each(STATE_ENGINES)('orders show and retry on $name', (engine) => {
  let stateStore: TestStateStore;
  let state: GatewayState;
  let config: GatewayConfig;
  const clock = { ms: NOW_MS };
  const now = () => new Date(clock.ms);
  const cli = (...args: string[]) => runOrderCommand(config, now, 'orders', ...args);

  beforeAll(async () => {
    stateStore = await engine.start();
    state = await openGatewayState(stateStore.url);
    config = loadGatewayConfig({
      SBM_STATE_URL: stateStore.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_CHAIN_URL: world.chainUrl,
      SBM_FULFIL_MAX_ATTEMPTS: '3',
    });
  });

  afterAll(async () => {
    await state?.close();
    await stateStore?.stop();
  });

  const sent: string[] = [];
  const mailer: Mailer = {
    description: 'memory',
    send: async (mail) => {
      sent.push(mail.key);
    },
    close: () => {},
  };
  const fulfil = (build: 'fails' | 'works') =>
    runFulfilment({
      state,
      store: world.store,
      now,
      baseUrl: 'https://sbm.example',
      tokens: orderTokens(ORDER_SECRET),
      mailer,
      buildPack:
        build === 'works'
          ? (order) => buildPack(order, { store: world.store, chain: packChain.reader })
          : async () => {
              throw new Error('the published run cannot be read');
            },
      maxAttempts: 3,
      alert: () => {},
    });

  it('shows a stuck order, puts it back once, and the fixed job fulfils it', async () => {
    const [id] = await paidOrders(state, 1, now());
    for (const wait of [0, 1, 2]) {
      clock.ms += wait * MINUTE;
      expect((await fulfil('fails')).failed.map((f) => f.id)).toEqual([id]);
    }

    const shown = (await cli('show', id!)).out;
    expect(shown).toContain(`order ${id}  paid  uk-2026-27 (2026/27)`);
    expect(shown).toContain('email: b***@e***.com');
    expect(shown).not.toContain('buyer@example.com');
    expect(shown).toContain(`${new Date(NOW_MS).toISOString()}  created (checkout)`);
    expect(shown).toMatch(/payment event evt_\S+ \(checkout\.session\.completed\): paid/);
    expect(shown).toContain('fulfilment tries: 3 of 3');
    expect(shown).toContain('last error: Error: the published run cannot be read');
    expect(shown).toContain(
      `STUCK: fix the cause of the last error, then \`sbm-gateway orders retry ${id}\``,
    );

    // The cause is fixed; support retries, twice by mistake: the order goes back once.
    clock.ms += 5 * MINUTE;
    expect((await cli('retry', id!)).out).toContain(`order ${id} is back in the queue with 3 fresh tries`);
    const again = (await cli('retry', id!)).out;
    expect(again).toContain(`order ${id} was already put back in the queue at ${now().toISOString()}`);
    expect(again).toContain('nothing changed');
    expect((await state.orders.orderHistory(id!)).retries).toEqual([
      {
        retriedAt: now(),
        attemptsBefore: 3,
        errorBefore: 'Error: the published run cannot be read',
        version: null,
      },
    ]);
    expect((await cli('list', '--stuck')).out.trim()).toBe('no orders');

    const report = await fulfil('works');
    expect(report.fulfilled).toEqual([id]);
    expect(sent).toContain(id);

    const after = JSON.parse((await cli('show', id!, '--json')).out) as {
      status: string;
      stuck: boolean;
      last_error: string | null;
      history: { at: string; event: string }[];
    };
    expect(after).toMatchObject({ status: 'fulfilled', stuck: false, last_error: null });
    expect(after.history.map((h) => h.event.split(/[,;(]/)[0]!.trim())).toEqual([
      'created',
      expect.stringMatching(/^payment event evt_/),
      'paid',
      'put back into the queue by an operator after 3 tries',
      'fulfilled',
      'delivery email sent',
    ]);
    // A fulfilled order is not stuck: refused with a line that says why.
    await expect(cli('retry', id!)).rejects.toThrow(`order ${id} is not stuck: it is fulfilled`);
  });

  it('refuses to retry an order that is not stuck, and an unknown one', async () => {
    clock.ms += 60 * MINUTE;
    const [trying] = await paidOrders(state, 1, now());
    expect((await fulfil('fails')).failed.map((f) => f.id)).toEqual([trying]);
    const reason = `order ${trying} is not stuck: it has had 1 of 3 tries and the fulfilment job will try it again by itself`;
    await expect(cli('retry', trying!)).rejects.toThrow(reason);
    // The real command line: one clear line on stderr, a non-zero exit, nothing on stdout.
    const refused = await execFileAsync('npx', ['tsx', 'gateway/cli.ts', 'orders', 'retry', trying!], {
      cwd: ROOT,
      env: { ...process.env, SBM_STATE_URL: stateStore.url, SBM_FULFIL_MAX_ATTEMPTS: '3' },
    }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: `error: ${reason}\n` });
    const unpaid = await createOrder(
      { state, now },
      checkOrderRequest(catalogueWithPrices(), 'uk-2025-26', [ALICE]),
      'support',
    );
    await expect(cli('retry', unpaid.id)).rejects.toThrow('is not stuck: it is not paid');
    expect((await cli('show', unpaid.id)).out).toContain('email: none');
    await expect(cli('retry', 'ord_00000000000000000000000000000000')).rejects.toThrow(
      'unknown order ord_00000000000000000000000000000000',
    );
    await expect(cli('show', 'ord_nope')).rejects.toThrow('unknown order ord_nope');
    expect((await state.orders.orderHistory(trying!)).retries).toEqual([]);
  });

  it('requeues a stuck order once when two operators retry it at the same moment', async () => {
    clock.ms += 2 * 60 * MINUTE;
    const [id] = await paidOrders(state, 1, now());
    for (const wait of [0, 1, 2]) {
      clock.ms += wait * MINUTE;
      await fulfil('fails');
    }
    const other = await openGatewayState(stateStore.url);
    try {
      const outcomes = await Promise.all([
        state.orders.requeueStuck(id!, now(), 3),
        other.orders.requeueStuck(id!, now(), 3),
      ]);
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['not-stuck', 'requeued']);
      expect((await state.orders.orderHistory(id!)).retries).toHaveLength(1);
      expect(await state.orders.getOrder(id!)).toMatchObject({ fulfilAttempts: 0, nextAttemptAt: null });
    } finally {
      await other.close();
    }
  });
});
