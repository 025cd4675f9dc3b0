/**
 * A fulfilment worker as its own process, for the crash and concurrency tests: the real job
 * (`runFulfilment`) on the real state and folder store, with two test hooks.
 *
 * - `FULFIL_STOP_AFTER_STORE=1`: after the first pack is in the store and before the order is marked
 *   fulfilled, print `stored <order id> <worker>` and hang, so the parent can SIGKILL it exactly there;
 *   with `FULFIL_STOP_VERSION=N`, only at version N's pack (a revision: the buyer's records added).
 * - `FULFIL_STOP_AFTER_REJECT=1`: after a revision is marked rejected and before its files are deleted,
 *   print `rejected <order id> <worker>` and hang; `FULFIL_STOP_AFTER_REVISION_EMAIL=1`: after a revision's
 *   email is sent and before it is recorded, print `emailed <order id> <worker>` and hang.
 * - `FULFIL_FAKE_BUILD=1`: a stand-in build (no chain) that returns a small zip-like body per order and
 *   version; with `FULFIL_REJECT_REVISIONS=1` it refuses every revision's records as the real build
 *   refuses a sell that empties a pool (`CustomerInputsRejected`).
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
import type { OrderRecord } from '../../../gateway/state/order-state.js';
import { FolderObjectStore } from '../../../pipeline/store/index.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
} from '../../../pipeline/tax/products/own-records/customer-inputs.js';
import { buildPack } from '../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';

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
const fakeBuild = process.env['FULFIL_FAKE_BUILD'] === '1';
const rejectRevisions = process.env['FULFIL_REJECT_REVISIONS'] === '1';
const hang = (line: string) => {
  process.stdout.write(`${line}\n`);
  return new Promise<void>(() => setInterval(() => {}, 60_000));
};

async function standInBuild(order: OrderRecord, customer?: CustomerInputs): Promise<Uint8Array> {
  if (customer && rejectRevisions) {
    const file = customer.files.at(-1)?.name ?? 'records';
    throw new CustomerInputsRejected([
      { file, line: 2, column: 'quantity', reason: 'the sell empties the TAO pool below zero' },
    ]);
  }
  return new TextEncoder().encode(`PK stand-in pack ${order.id} ${customer?.files.length ?? 0}`);
}

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
    if (fakeBuild) return standInBuild(order, customer);
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
  afterRevisionRejected:
    process.env['FULFIL_STOP_AFTER_REJECT'] === '1'
      ? (order) => hang(`rejected ${order.id} ${worker}`)
      : undefined,
  afterRevisionEmailSent:
    process.env['FULFIL_STOP_AFTER_REVISION_EMAIL'] === '1'
      ? (order) => hang(`emailed ${order.id} ${worker}`)
      : undefined,
});
process.stdout.write(`${JSON.stringify({ worker, report })}\n`);
await state.close();
await packChain.close();
