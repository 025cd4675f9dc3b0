/**
 * A fulfilment worker killed (SIGKILL, a real process) at the two revision steps that touch something
 * outside the state, on both engines; then the real `sbm-gateway orders fulfil` finishes the work once:
 *
 * - between marking a revision rejected and deleting its files: the files stay in the store until the
 *   next run, which deletes them and records it (and a run after that does nothing);
 * - between sending a revision's email and recording it: the next run sends it again under the same key
 *   (the outbox file replaced, never a second one, the first pack's email left alone) and records it once.
 *
 * The worker builds with the child's stand-in (no chain): the pack's content is not what these test.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { uploadKeyFor } from '../../../gateway/orders/pack-key.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { startChild } from '../../../pipeline/demo/child-process.js';
import { FolderObjectStore } from '../../../pipeline/store/index.js';
import { STATE_ENGINES } from '../state/state-engines.js';
import { ALICE, ORDER_SECRET, payThroughWebhook, WORLD_SKU } from './order-world.js';

const FILE_NAME = 'kraken-secret-name.csv';
const BUYER = 'buyer@example.com';

interface Setup {
  state: GatewayState;
  store: FolderObjectStore;
  storeDir: string;
  outboxDir: string;
  env: NodeJS.ProcessEnv;
  id: string;
  fileKey: string;
}

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A paid order (the real clock: the processes read it too) with one accepted upload, version 2. */
async function setup(engine: (typeof STATE_ENGINES)[number]): Promise<Setup> {
  const stateStore = await engine.start();
  const dir = await mkdtemp(join(tmpdir(), 'sbm-revision-crash-'));
  const state = await openGatewayState(stateStore.url);
  cleanups.push(async () => {
    await state.close();
    await stateStore.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const storeDir = join(dir, 'store');
  const outboxDir = join(dir, 'outbox');
  const store = new FolderObjectStore(storeDir);
  const now = () => new Date();
  const order = await createOrder(
    { state, now },
    checkOrderRequest(catalogueWithPrices(), WORLD_SKU, [ALICE]),
    'checkout',
  );
  expect(await payThroughWebhook(state, order.id, now())).toBe('paid');
  const text = 'time_utc,type,asset,quantity,gbp_value,fee\n2026-04-10T12:00:00Z,sell,TAO,50,15000,';
  const fileKey = uploadKeyFor(order.id, 'crash-upload', 1);
  await store.put(fileKey, new TextEncoder().encode(text), 'text/csv');
  const added = await state.orders.addRevision({
    orderId: order.id,
    createdAt: now(),
    files: [
      { name: FILE_NAME, sha256: 'a'.repeat(64), rows: 1, role: 'records', key: fileKey, bytes: text.length },
    ],
  });
  expect(added).toMatchObject({ outcome: 'added', revision: { version: 2 } });
  const env = {
    ...process.env,
    SBM_STATE_URL: stateStore.url,
    SBM_STORE_URL: `file:${storeDir}`,
    // Nothing here builds a real pack: a chain node that is never connected to.
    SBM_CHAIN_URL: 'ws://127.0.0.1:9',
    SBM_ORDER_SECRET: ORDER_SECRET,
    SBM_OUTBOX_DIR: outboxDir,
    SBM_BASE_URL: 'https://sbm.example',
  };
  return { state, store, storeDir, outboxDir, env, id: order.id, fileKey };
}

/** The real CLI to its end: its stdout and stderr (both are log lines an operator keeps). */
function cli(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/cli.ts', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

/** Starts the worker with the given hooks and SIGKILLs it where it prints `ready`. */
async function killedWorker(s: Setup, hooks: Record<string, string>, ready: RegExp): Promise<string> {
  const child = await startChild(
    process.execPath,
    ['--import', 'tsx', 'test/gateway/orders/fulfil-child.ts'],
    {
      env: { ...s.env, FULFIL_STORE_DIR: s.storeDir, FULFIL_FAKE_BUILD: '1', ...hooks },
      ready,
      label: 'the fulfilment worker',
      timeoutMs: 60_000,
    },
  );
  expect(child.match[1]).toBe(s.id);
  child.child.process.kill('SIGKILL');
  await new Promise((resolve) => child.child.process.once('exit', resolve));
  return child.match[2]!;
}

function expectNothingOfTheBuyer(s: Setup, logged: string): void {
  for (const secret of [FILE_NAME, BUYER, ALICE, orderTokens(ORDER_SECRET).tokenFor(s.id)])
    expect(logged, secret).not.toContain(secret);
}

describe.each(STATE_ENGINES)('a revision worker killed mid-way ($name)', (engine) => {
  it('between rejecting a revision and deleting its files: the next `orders fulfil` deletes them, once', async () => {
    const s = await setup(engine);
    await killedWorker(
      s,
      { FULFIL_REJECT_REVISIONS: '1', FULFIL_STOP_AFTER_REJECT: '1' },
      /rejected (ord_[0-9a-f]{32}) (\S+)/,
    );
    // The crash left the revision rejected and its file in the store.
    const [stranded] = await s.state.orders.listRevisions(s.id);
    expect(stranded).toMatchObject({
      version: 2,
      status: 'rejected',
      filesDeletedAt: null,
      leaseOwner: null,
    });
    expect(stranded!.problem).toContain('the sell empties the TAO pool below zero');
    expect(await s.store.get(s.fileKey)).not.toBeNull();

    const run = await cli(s.env, 'orders', 'fulfil');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`deleted the files of rejected ${s.id} version 2`);
    expect(await s.store.get(s.fileKey)).toBeNull();
    expect(await s.store.list(`tax-packs/${s.id}.`)).toEqual([`tax-packs/${s.id}.zip`]);
    const [done] = await s.state.orders.listRevisions(s.id);
    expect(done).toMatchObject({ status: 'rejected', problem: stranded!.problem });
    expect(done!.filesDeletedAt).not.toBeNull();
    expectNothingOfTheBuyer(s, run.out + run.err);

    const again = await cli(s.env, 'orders', 'fulfil');
    expect(again.out).not.toContain('version 2');
    expect(await s.state.orders.listRevisions(s.id)).toEqual([done]);
  }, 180_000);

  it('between sending a revision’s email and recording it: the next run sends it under the same key and records it once', async () => {
    const s = await setup(engine);
    // A short lease: the dead worker's delivery lease runs out within seconds.
    const worker = await killedWorker(
      s,
      { FULFIL_STOP_AFTER_REVISION_EMAIL: '1', FULFIL_LEASE_MS: '3000' },
      /emailed (ord_[0-9a-f]{32}) (\S+)/,
    );
    expect((await readdir(s.outboxDir)).sort()).toEqual([`${s.id}.eml`, `${s.id}.v2.eml`]);
    const firstPackMail = await readFile(join(s.outboxDir, `${s.id}.eml`), 'utf8');
    const [stranded] = await s.state.orders.listRevisions(s.id);
    expect(stranded).toMatchObject({ version: 2, status: 'built', emailedAt: null, leaseOwner: worker });

    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, stranded!.leaseExpiresAt!.getTime() - Date.now() + 100)),
    );
    const run = await cli(s.env, 'orders', 'fulfil');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`emailed ${s.id} version 2`);
    // One email per version in the outbox: the resend replaced its own file, not the first pack's.
    expect((await readdir(s.outboxDir)).sort()).toEqual([`${s.id}.eml`, `${s.id}.v2.eml`]);
    expect(await readFile(join(s.outboxDir, `${s.id}.eml`), 'utf8')).toBe(firstPackMail);
    const mail = await readFile(join(s.outboxDir, `${s.id}.v2.eml`), 'utf8');
    expect(mail).toContain(`Message-ID: <${s.id}.v2@localhost>`);
    expect(mail).toContain('Version 2 of your');
    const [done] = await s.state.orders.listRevisions(s.id);
    expect(done).toMatchObject({ status: 'built', leaseOwner: null });
    expect(done!.emailedAt).not.toBeNull();
    expectNothingOfTheBuyer(s, run.out + run.err);

    const again = await cli(s.env, 'orders', 'fulfil');
    expect(again.out).not.toContain('version 2');
    expect(await s.state.orders.listRevisions(s.id)).toEqual([done]);
  }, 180_000);
});
