/**
 * A fulfilment worker as its own process, for the crash and concurrency tests: the real job
 * (`runFulfilment`) on the real state and folder store, with two test hooks.
 *
 * - `FULFIL_STOP_AFTER_STORE=1`: after the first pack is in the store and before the order is marked
 *   fulfilled, print `stored <order id> <worker>` and hang, so the parent can SIGKILL it exactly there;
 *   with `FULFIL_STOP_VERSION=N`, only at version N's pack (a revision: the buyer's records added).
 * - `FULFIL_BUILD_LOG=<file>`: append `<order id> <worker>` to the file (O_APPEND, one line per write)
 *   for every pack built, so the parent can count builds across processes; `FULFIL_BUILD_DELAY_MS`
 *   makes each build take that long, so two workers overlap.
 *
 * Run with: node --import tsx test/gateway/orders/fulfil-child.ts (environment as in the tests).
 */
import { appendFileSync } from 'node:fs';
import { runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import { outboxMailer } from '../../../gateway/orders/mailer.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { FolderObjectStore } from '../../../pipeline/store/index.js';
import { buildPack } from '../../../pipeline/tax/pack/build-pack.js';
import { openPackChain } from '../../../pipeline/tax/pack/pack-chain.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const worker = `child-${process.pid}`;
const state = await openGatewayState(env('SBM_STATE_URL'));
const store = new FolderObjectStore(env('FULFIL_STORE_DIR'));
const packChain = openPackChain(env('SBM_CHAIN_URL'));
const buildLog = process.env['FULFIL_BUILD_LOG'];
const delayMs = Number(process.env['FULFIL_BUILD_DELAY_MS'] ?? '0');
const stopAfterStore = process.env['FULFIL_STOP_AFTER_STORE'] === '1';
const stopVersion = Number(process.env['FULFIL_STOP_VERSION'] ?? '1');

const report = await runFulfilment({
  state,
  store,
  now: () => new Date(),
  baseUrl: 'https://sbm.example',
  tokens: orderTokens(env('SBM_ORDER_SECRET')),
  mailer: outboxMailer(env('SBM_OUTBOX_DIR'), 'packs@sbm.example'),
  buildPack: async (order, customer) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (buildLog) appendFileSync(buildLog, `${order.id} ${worker}\n`);
    return buildPack(order, { store, chain: packChain.reader }, customer);
  },
  maxAttempts: 5,
  leaseMs: Number(process.env['FULFIL_LEASE_MS'] ?? '600000'),
  worker,
  alert: (alert) => process.stderr.write(`${JSON.stringify(alert)}\n`),
  afterPackStored: stopAfterStore
    ? async (order, version) => {
        if (version !== stopVersion) return;
        process.stdout.write(`stored ${order.id} ${worker}\n`);
        await new Promise(() => setInterval(() => {}, 60_000));
      }
    : undefined,
});
process.stdout.write(`${JSON.stringify({ worker, report })}\n`);
await state.close();
await packChain.close();
